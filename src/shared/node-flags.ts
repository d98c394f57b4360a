/**
 * Options of node's that the product's processes run with. Every launcher passes them: the
 * `netinv` binary's first line, `npm start`, the image's entry point and the gateway bench;
 * test/shared/node-flags.test.ts holds them to this list.
 *
 * `--no-memory-reducer`: when a process looks idle (during start-up, while a login hashes a
 * password, in a lull of traffic), V8's memory reducer runs full collections to shrink the heap.
 * After them node's own per-request code (measured: the object literal of `process.nextTick`)
 * was compiled again as generic runtime calls and stayed that way, 15–20 µs more CPU per request
 * for the rest of the process's life, about a fifth of the gateway's cost per request. Ordinary
 * collections still run; an idle process only keeps the heap it had. V8 does not accept the
 * option from NODE_OPTIONS or once running, hence the command lines.
 */
export const NODE_FLAGS: readonly string[] = ['--no-memory-reducer']
