/**
 * The embedded database's files are the service's alone (0600 files, 0700 directories), as
 * PostgreSQL keeps its own data directory. PGlite's PostgreSQL runs on Emscripten's NODEFS, which
 * creates and chmods files with the modes PostgreSQL and initdb ask for and no umask (initdb's
 * files came out 0666, the WAL included). Here the modes are cut to the owner's bits where NODEFS
 * meets the disk, in the worker, and a data directory an earlier version left open is closed
 * before the database opens.
 */
import { chmodSync, lstatSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { PGlite } from '@electric-sql/pglite'
import { NodeFS } from '@electric-sql/pglite/nodefs'

/** The Emscripten module PGlite hands its file system (not exported by name). */
type PostgresMod = Parameters<NodeFS['init']>[1] & { NODEFS: unknown }

/** The bits of group and others. */
const OTHERS = 0o077

/** Takes group's and others' bits off every file and directory under `dir` (itself included). */
export function closeTree(dir: string): void {
  const st = lstatSync(dir)
  if (st.isSymbolicLink()) return
  if ((st.mode & OTHERS) !== 0) chmodSync(dir, st.mode & 0o7777 & ~OTHERS)
  if (st.isDirectory()) for (const name of readdirSync(dir)) closeTree(join(dir, name))
}

interface Attr {
  mode?: number
}
type NodeOps = Record<string, (...args: never[]) => unknown>

/** Wraps NODEFS's mknod and its two setattr so that no mode it writes keeps group's or others' bits. */
function ownerOnlyModes(nodefs: { node_ops: NodeOps; stream_ops: NodeOps }): void {
  const mknod = nodefs.node_ops.mknod as unknown as (parent: unknown, name: string, mode: number, dev: number) => unknown
  nodefs.node_ops.mknod = ((parent: unknown, name: string, mode: number, dev: number) => mknod(parent, name, mode & ~OTHERS, dev)) as never
  for (const ops of [nodefs.node_ops, nodefs.stream_ops]) {
    const setattr = ops.setattr as unknown as (target: unknown, attr: Attr) => unknown
    ops.setattr = ((target: unknown, attr: Attr) => setattr(target, attr.mode === undefined ? attr : { ...attr, mode: attr.mode & ~OTHERS })) as never
  }
}

/** PGlite's Node file system on `dataDir`, writing owner-only modes. */
export class OwnerOnlyNodeFS extends NodeFS {
  override async init(pg: PGlite, opts: Parameters<NodeFS['init']>[1]): ReturnType<NodeFS['init']> {
    const { emscriptenOpts } = await super.init(pg, opts)
    const restrict = (mod: PostgresMod): void => ownerOnlyModes(mod.NODEFS as unknown as { node_ops: NodeOps; stream_ops: NodeOps })
    return { emscriptenOpts: { ...emscriptenOpts, preRun: [restrict, ...(emscriptenOpts.preRun ?? [])] } }
  }
}
