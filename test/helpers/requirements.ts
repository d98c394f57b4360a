/**
 * Tests that need a real component the machine may lack (root for network namespaces, a lab's
 * Debian packages, a browser, a private redis-server). Locally such a test is skipped with a
 * visible reason; where NETINV_REQUIRE_ALL=1 (set by .ci/run) the missing component is a failure,
 * so that CI can never pass by skipping.
 */
import { spawnSync } from 'node:child_process'
import type { Test } from 'tap'

/** Whether a missing component must fail the run instead of skipping it. */
export const STRICT = process.env.NETINV_REQUIRE_ALL === '1'

/** Whether `command --version`-style probing finds a program on PATH. */
export function hasCommand(command: string, args: readonly string[] = ['--version']): boolean {
  const r = spawnSync(command, [...args], { stdio: 'ignore' })
  return r.error === undefined && r.status !== null
}

export const IS_ROOT = typeof process.getuid === 'function' && process.getuid() === 0

/**
 * Registers `fn` as a subtest of `t` when `missing` is undefined. Otherwise: skipped with the
 * reason `missing`, or, under NETINV_REQUIRE_ALL=1, a subtest that fails naming what is missing.
 */
export function testNeeding(t: Test, name: string, missing: string | undefined, fn: (t: Test) => unknown): void {
  if (missing === undefined) {
    void t.test(name, fn)
    return
  }
  if (STRICT) {
    void t.test(name, async (sub) => {
      sub.fail(`needs ${missing} (NETINV_REQUIRE_ALL=1 turns this skip into a failure)`)
    })
    return
  }
  console.error(`# skipped "${name}": needs ${missing}`)
  void t.test(name, { skip: `needs ${missing}` }, fn)
}
