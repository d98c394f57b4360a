/** Discovery: background jobs that create snapshots. */
export { JobRunner, RECORD_RETRY_MS, type InventoryServices, type Task } from './runner.js'
export { startDiscovery, failSnapshot, LOAD_CONCURRENCY, StopRequested, type DiscoveryRequest } from './discover.js'
export { startNetworkDiscovery } from './network-discovery.js'
export { planDiscovery, type DiscoveryPlan } from './request.js'
export { recoverAtStart, recoverInterrupted, startWatchdog, HEARTBEAT_MS, STALE_MS } from './recover.js'
export { getJob, heartbeat, insertJob, jobFinished, jobProgress, jobStarted, jobToApi, JOB_NAMES, STOPPABLE_JOBS, type JobRow, type JobName } from './jobs.js'
