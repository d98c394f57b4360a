/**
 * `netinv discover`: starts a discovery (`POST snapshots`) and follows its job (`GET jobs/{id}`)
 * to the end with a progress bar on a terminal (plain progress lines otherwise, on stderr); prints
 * the snapshot id on stdout. Exit status 1 when the job ends in error.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { ApiClient } from '../client/api.js'
import { ProgressReporter, printable } from '../client/output.js'
import { flag, integerOption, listOption, stringOption, UsageError, type Command, type Parsed } from './args.js'
import { clientCommand } from './client-command.js'

/** Time between two polls of the job. */
const POLL_MS = 250

interface Job {
  id: string
  status: string
  isDone: boolean
  snapshot: string | null
  progress: number
  message: string | null
}

/** The body of POST snapshots from the options; only what was given (the server's settings fill the rest). */
function discoveryBody(p: Parsed): Record<string, unknown> {
  const body: Record<string, unknown> = {}
  const source = stringOption(p, 'source')
  if (source !== undefined) {
    if (source !== 'simulator' && source !== 'network') throw new UsageError(`--source is simulator or network, not "${source}"`)
    body.source = source
  }
  const text = { snapshotName: stringOption(p, 'name'), snapshotNote: stringOption(p, 'note'), profile: stringOption(p, 'profile') }
  for (const [key, value] of Object.entries(text)) if (value !== undefined) body[key] = value
  const seed = integerOption(p, 'seed', 0)
  if (seed !== undefined) body.seed = seed
  const sites = integerOption(p, 'sites', 1)
  if (sites !== undefined) body.sites = sites
  const seeds = listOption(p, 'seeds', true)
  if (seeds.length > 0) body.seeds = seeds
  return body
}

/** Polls the job until it is done; `signal` stops the watching (the job goes on) with its abort error. */
export async function followJob(client: ApiClient, jobId: string, progress: ProgressReporter, signal?: AbortSignal): Promise<Job> {
  const options = signal ? { signal } : {}
  for (;;) {
    const job = (await (await client.ok('GET', `jobs/${encodeURIComponent(jobId)}`, options)).json()) as Job
    progress.update(job.status, job.progress, job.message)
    if (job.isDone) {
      progress.done()
      return job
    }
    await sleep(POLL_MS, undefined, options)
  }
}

export const discoverCommand: Command = clientCommand(
  {
    name: 'discover',
    summary: 'start a discovery and follow its job to the end (a progress bar on a terminal); prints the snapshot id',
    description:
      'Without --source the server chooses: the network once seed addresses are set, else the simulator\n' +
      '(naming --profile, --seed or --sites means the simulator). Scope write is needed.',
    options: {
      name: { type: 'string', value: 'text', description: 'name of the snapshot' },
      note: { type: 'string', value: 'text', description: 'note of the snapshot' },
      source: { type: 'string', value: 'source', description: 'simulator or network' },
      profile: { type: 'string', value: 'name', description: 'simulator: the profile of the simulated network (e.g. lab)' },
      seed: { type: 'string', value: 'n', description: 'simulator: the random seed (the same seed, the same network)' },
      sites: { type: 'string', value: 'n', description: 'simulator: the number of sites' },
      seeds: { type: 'string', value: 'a,b', multiple: true, description: 'network: seed addresses or networks for this run' },
      'no-wait': { type: 'boolean', description: 'print the snapshot and job ids and return at once' },
    },
    examples: ['netinv discover --profile lab --name monday', 'netinv discover --source network --seeds 10.1.0.1,10.2.0.1'],
  },
  async (p, client, io) => {
    const started = await client.json<{ id: string; jobId: string }>('POST', 'snapshots', discoveryBody(p))
    if (flag(p, 'no-wait')) {
      io.stdout.write(`${started.id} ${started.jobId}\n`)
      return 0
    }
    io.stderr.write(`discovery of snapshot ${started.id} started (job ${started.jobId})\n`)
    const progress = new ProgressReporter(io.stderr)
    // Ctrl-C stops the watching, not the discovery: say how to follow or stop it (exit status 130)
    const watching = new AbortController()
    const stopListening = io.onInterrupt(() => watching.abort())
    let job: Job
    try {
      job = await followJob(client, started.jobId, progress, watching.signal)
    } catch (err) {
      if (!watching.signal.aborted) throw err
      progress.done()
      io.stderr.write(`the discovery goes on: GET /api/jobs/${started.jobId} follows it, POST /api/jobs/${started.jobId}/stop stops it\n`)
      return 130
    } finally {
      stopListening()
    }
    if (job.status !== 'done') {
      io.stderr.write(`netinv discover: the discovery ended in ${job.status}${job.message ? `: ${printable(job.message)}` : ''}\n`)
      return 1
    }
    io.stdout.write(`${started.id}\n`)
    return 0
  },
)
