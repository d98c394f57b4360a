/** Storage of snapshot rows: partitions per snapshot, COPY loading, CSV encoding. */
export {
  attachSnapshot,
  cloneSnapshotRows,
  detachSnapshot,
  dropSnapshotRows,
  loadSnapshotRows,
  streamSnapshotRows,
  type ProgressFn,
  type TableRows,
} from './partitions.js'
export { csvChunks, csvField, type CsvColumn } from './csv.js'
export { objectValues } from './objects.js'
export { devicesIn, pickDeviceRows, replaceDeviceRows, type DeviceRows, type DeviceRowsHooks } from './device-rows.js'
