/**
 * SSH to a lab router's vtysh: Debian's openssh-server started inside the router's namespace
 * on a configuration, port and host key of its own (in the lab's run directory), for one user
 * of the lab whose every session runs vtysh against that router's daemons (ForceCommand).
 * The user is named after the lab's prefix, so `teardown(prefix)` removes it with the rest,
 * also after a crash; sshd runs in the namespace, so the teardown's kill finds it.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { run } from './netns.js'

/** The lab's SSH user (`useradd` names: lower-case letters and digits, at most 32 characters). */
export const sshUser = (prefix: string) => `nilab${prefix}`

/** Null when SSH can run in a lab here, else what is missing. */
export function sshMissing(): string | null {
  return existsSync('/usr/sbin/sshd') && existsSync('/usr/bin/ssh-keygen') ? null : 'openssh-server (sshd, ssh-keygen)'
}

/** Creates the lab's user with `password` (or sets its password), in the group that may use vtysh. */
export async function ensureSshUser(prefix: string, password: string): Promise<string> {
  const user = sshUser(prefix)
  const hash = (await runInput('openssl', ['passwd', '-6', '-stdin'], `${password}\n`)).trim()
  const exists = await run('getent', ['passwd', user]).then(() => true, () => false)
  if (exists) await run('usermod', ['-p', hash, user])
  else await run('useradd', ['--no-create-home', '--home-dir', '/nonexistent', '--shell', '/bin/sh', '--groups', 'frrvty', '--password', hash, user])
  return user
}

/** Removes the lab's user, if there is one (its processes ran in the lab's namespaces and are gone). */
export async function removeSshUser(prefix: string): Promise<void> {
  const user = sshUser(prefix)
  if (await run('getent', ['passwd', user]).then(() => true, () => false)) await run('userdel', ['--force', user]).catch(() => {})
}

function runInput(cmd: string, args: readonly string[], input: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(cmd, [...args], { timeout: 10_000 }, (err, stdout, stderr) => (err ? reject(new Error(`${cmd}: ${String(stderr).trim() || err.message}`)) : resolve(String(stdout))))
    child.stdin?.end(input)
  })
}

export interface SshdFiles {
  dir: string
  config: string
  hostKey: string
  pidFile: string
}

/** Writes sshd's configuration, a new host key and the vtysh wrapper for one router. */
export async function writeSshd(dir: string, routerDir: string, user: string, port: number): Promise<SshdFiles> {
  await mkdir(dir, { recursive: true, mode: 0o755 })
  const hostKey = `${dir}/host_ed25519_key`
  await newHostKey(hostKey)
  const shell = `${dir}/vtysh.sh`
  // an exec request runs its command in vtysh, a shell request runs vtysh itself
  await writeFile(
    shell,
    `#!/bin/sh\nif [ -n "$SSH_ORIGINAL_COMMAND" ]; then exec /usr/bin/vtysh --vty_socket ${routerDir} -c "$SSH_ORIGINAL_COMMAND"; fi\nexec /usr/bin/vtysh --vty_socket ${routerDir}\n`,
    { mode: 0o755 },
  )
  const pidFile = `${dir}/sshd.pid`
  const config = `${dir}/sshd_config`
  await writeFile(
    config,
    [
      `Port ${port}`,
      'ListenAddress 0.0.0.0',
      `HostKey ${hostKey}`,
      `PidFile ${pidFile}`,
      'UsePAM no',
      'PasswordAuthentication yes',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication yes',
      'AuthorizedKeysFile none',
      'PermitRootLogin no',
      `AllowUsers ${user}`,
      `ForceCommand ${shell}`,
      'StrictModes no',
      'PrintMotd no',
      'PrintLastLog no',
      'UseDNS no',
      'MaxStartups 50',
      'LoginGraceTime 20',
      '',
    ].join('\n'),
    { mode: 0o644 },
  )
  return { dir, config, hostKey, pidFile }
}

/** A new ed25519 host key at `path` (the old one removed). */
export async function newHostKey(path: string): Promise<void> {
  await rm(path, { force: true })
  await rm(`${path}.pub`, { force: true })
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'netinv-lab', '-f', path])
}

/** The SHA256 fingerprint of a host key file, as ssh-keygen -l shows it. */
export async function hostKeyFingerprint(path: string): Promise<string> {
  const out = await run('ssh-keygen', ['-l', '-f', `${path}.pub`])
  return out.split(/\s+/)[1] ?? ''
}

/** Starts sshd in the namespace (it puts itself in the background once it listens). */
export async function startSshd(ns: string, files: SshdFiles): Promise<void> {
  // sshd's privilege separation directory (the Debian service makes it at start)
  await mkdir('/run/sshd', { recursive: true, mode: 0o755 })
  await run('ip', ['netns', 'exec', ns, '/usr/sbin/sshd', '-f', files.config, '-E', `${files.dir}/sshd.log`])
}

/** Stops the sshd of `files` (the pid it wrote). */
export async function stopSshd(files: SshdFiles): Promise<void> {
  const pid = Number((await readFile(files.pidFile, 'utf8').catch(() => '')).trim())
  if (!Number.isInteger(pid) || pid <= 0) return
  try {
    process.kill(pid, 'SIGTERM')
  } catch {
    return
  }
  for (let i = 0; i < 100 && existsSync(`/proc/${pid}`); i++) await new Promise((r) => setTimeout(r, 20))
}
