/** Registers every inventory route; each area owns its own module. */
import { randomBytes } from 'node:crypto'
import type { Router } from '../../shared/http/index.js'
import type { InventoryDeps, InventoryRequest } from '../context.js'
import { JobRunner, recoverAtStart, startWatchdog, type InventoryServices } from '../discovery/index.js'
import { startSchedule } from '../discovery/schedule.js'
import { COMPARABLE_TABLES, queryAdmission } from '../query/index.js'
import { registerAttributeRoutes } from './attributes.js'
import { registerChangeRoutes } from './changes.js'
import { registerConfigurationRoutes } from './configurations.js'
import { registerGraphRoutes } from './graphs.js'
import { registerJobRoutes } from './jobs.js'
import { registerReportRoutes } from './reports.js'
import { registerSettingsRoutes } from './settings.js'
import { registerSnapshotRoutes } from './snapshots.js'
import { registerSnapshotDeviceRoutes } from './snapshot-devices.js'
import { registerTableRoutes, tableRouteOptions } from './tables.js'
import { backfillMeasures } from '../snapshots/index.js'
import { backfillComputed } from '../storage/partitions.js'
import { backfillKeptValues, dropForgottenPartitions } from '../query/kept-comparison.js'

export interface RoutesLifecycle {
  /** Stops background work (discovery jobs) and releases resources. */
  close(): Promise<void>
}

export interface RoutesOptions {
  /** Clock in ms since the epoch (tests inject one). */
  now?: () => number
}

export async function registerRoutes(router: Router<InventoryRequest>, deps: InventoryDeps, options: RoutesOptions = {}): Promise<RoutesLifecycle> {
  let credentialKey = deps.credentialKey
  if (!credentialKey) {
    credentialKey = randomBytes(32)
    deps.log.warn('no key for SNMP credentials was given: credentials stored now cannot be read after a restart')
  }
  const svc: InventoryServices = { ...deps, credentialKey, runner: new JobRunner(deps.log), now: options.now ?? Date.now }
  try {
    const recovered = await recoverAtStart(deps.db, svc.now())
    if (recovered.jobs > 0 || recovered.snapshots > 0) deps.log.warn(recovered, 'marked work interrupted by a restart as failed')
    const measured = await backfillMeasures(deps.db)
    if (measured > 0) deps.log.info({ snapshots: measured }, 'measured snapshots taken before sizes and counts were recorded')
  } catch (err) {
    // e.g. a database not migrated yet: the service still starts and the watchdog tries again
    deps.log.warn({ err }, 'could not look for interrupted work at start')
  }
  // in the background: until a snapshot's positions are in, its pages are read by the scan, and
  // until its materialised tables are, they are read by their SQL
  const positioning = backfillComputed(deps.db)
    .then(
      (n) => {
        if (n > 0) deps.log.info({ snapshots: n }, 'computed the sort positions, value counts and materialised tables of snapshots taken before them')
      },
      (err: unknown) => deps.log.warn({ err }, 'could not compute the sort positions, value counts and materialised tables of older snapshots'),
    )
    // and until a kept comparison's value counts are in, its filtered counts test its kept rows
    .then(() => backfillKeptValues(deps.db, COMPARABLE_TABLES))
    .then(
      (n) => {
        if (n > 0) deps.log.info({ comparisons: n }, 'computed the value counts of comparisons kept before them')
      },
      (err: unknown) => deps.log.warn({ err }, 'could not compute the value counts of comparisons kept before them'),
    )
    // and the partitions of comparisons forgotten while no keeping ran are dropped
    .then(() => dropForgottenPartitions(deps.db, COMPARABLE_TABLES))
    .then(
      (n) => {
        if (n > 0) deps.log.info({ partitions: n }, 'dropped the kept rows of forgotten comparisons')
      },
      (err: unknown) => deps.log.warn({ err }, 'could not drop the kept rows of forgotten comparisons'),
    )
  registerSnapshotRoutes(router, svc)
  registerSnapshotDeviceRoutes(router, svc)
  registerSettingsRoutes(router, svc)
  registerConfigurationRoutes(router, svc)
  registerJobRoutes(router, svc)
  registerAttributeRoutes(router, svc)
  // one bound per user across table queries and report computations
  const admission = queryAdmission(deps)
  const tables = tableRouteOptions(deps.tables)
  registerReportRoutes(router, deps, tables, admission)
  registerTableRoutes(router, deps, tables, admission)
  registerChangeRoutes(router, deps, admission)
  registerGraphRoutes(router, deps, admission)
  const stopWatchdog = startWatchdog(svc)
  const stopSchedule = startSchedule(svc)
  return {
    async close() {
      stopWatchdog()
      stopSchedule()
      await svc.runner.close()
      await positioning
    },
  }
}
