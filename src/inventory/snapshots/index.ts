/** Snapshots: bookkeeping, lifecycle, resolution of table-request references, import/export. */
export { resolveSnapshot, SNAPSHOT_VARIABLES } from './resolve.js'
export { findSnapshot, getSnapshot, listSnapshots, toApi, type SnapshotRow, type SnapshotStatus } from './store.js'
export { cloneSnapshot, deleteSnapshot, patchSnapshot, setLocked } from './lifecycle.js'
export { parseLoadRequest, setLoaded, startLoadJobs, MAX_LOAD_BATCH, type LoadJob } from './loading.js'
export { downloadOfJob, startDownload, type Write } from './download.js'
export { exportSnapshot, FORMAT_NAME, FORMAT_VERSION } from './format.js'
export { importSnapshot } from './upload.js'
export { backfillMeasures, measureSnapshot, recordMeasures, type SnapshotMeasures } from './figures.js'
