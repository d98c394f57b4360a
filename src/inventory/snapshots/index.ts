/** Snapshots: bookkeeping, lifecycle, resolution of table-request references, import/export. */
export { resolveSnapshot, SNAPSHOT_VARIABLES } from './resolve.js'
export { previousSnapshot, NETWORK_KEY_SQL } from './previous.js'
export { findSnapshot, getSnapshot, listSnapshots, toApi, type SnapshotRow, type SnapshotStatus } from './store.js'
export { cloneSnapshot, deleteSnapshot, patchSnapshot, setLoaded, setLocked } from './lifecycle.js'
export { exportSnapshot, FORMAT_NAME, FORMAT_VERSION } from './format.js'
export { importSnapshot } from './upload.js'
export { backfillMeasures, measureSnapshot, recordMeasures, type SnapshotMeasures } from './figures.js'
