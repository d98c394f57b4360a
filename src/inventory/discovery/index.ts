/** Discovery: background jobs that create snapshots. */
export { JobRunner, type InventoryServices, type Task } from './runner.js'
export { startDiscovery, failSnapshot, type DiscoveryRequest } from './discover.js'
export { recoverInterrupted } from './recover.js'
export { getJob, insertJob, jobFinished, jobProgress, jobStarted, jobToApi, type JobRow, type JobName } from './jobs.js'
