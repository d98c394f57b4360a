/**
 * A private OpenLDAP server (Debian's slapd) for a test: its own configuration and database in a
 * temporary directory, loaded offline with slapadd, listening on free loopback ports for plain
 * LDAP (with StartTLS) and LDAPS, with a certificate of a test CA made by openssl. The process
 * carries the test's owner mark (owned.ts) so it dies with the test.
 *
 * The directory (suffix dc=netinv,dc=test):
 * - ou=people: alice (in `operators`), bob (in `auditors`, which is inside `operators`: nested),
 *   carol (in no group), dave (employeeType disabled: the default test filter excludes him);
 * - ou=groups: operators, auditors (groupOfNames), and `admins` holding alice;
 * - cn=netinv,ou=services: the service account.
 */
import type { ChildProcess } from 'node:child_process'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../e2e/process.js'
import { spawnOwned } from './owned.js'
import { hasCommand } from './requirements.js'

interface Teardown {
  teardown(fn: () => unknown): void
}

export const SUFFIX = 'dc=netinv,dc=test'
export const SERVICE_DN = `cn=netinv,ou=services,${SUFFIX}`
export const SERVICE_PASSWORD = 'service-account-secret'
export const PASSWORDS = { alice: 'alice-directory-pw', bob: 'bob-directory-pw', carol: 'carol-directory-pw', dave: 'dave-directory-pw' } as const

const SLAPD = '/usr/sbin/slapd'
const SLAPADD = '/usr/sbin/slapadd'

export interface Slapd {
  dir: string
  /** ldap://127.0.0.1:<port> (plain; StartTLS offered) */
  url: string
  /** ldaps://127.0.0.1:<port> (the certificate names 127.0.0.1 and localhost) */
  ldapsUrl: string
  caFile: string
  passwordFile: string
  /** Runs ldapmodify with the root DN. */
  modify(ldif: string): void
  stop(): Promise<void>
}

/** Why slapd cannot run here, or undefined. */
export function slapdMissing(): string | undefined {
  if (!hasCommand(SLAPD, ['-VV']) || !hasCommand(SLAPADD, ['-VV'])) return 'slapd (Debian package slapd)'
  if (!hasCommand('ldapmodify', ['-VV'])) return 'ldapmodify (Debian package ldap-utils)'
  if (!hasCommand('openssl', ['version'])) return 'openssl'
  return undefined
}

function run(cmd: string, args: string[], input?: string): void {
  execFileSync(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'], input })
}

function makeCertificates(dir: string): { ca: string; cert: string; key: string } {
  const ca = join(dir, 'ca.pem')
  const caKey = join(dir, 'ca.key')
  const key = join(dir, 'server.key')
  const csr = join(dir, 'server.csr')
  const cert = join(dir, 'server.pem')
  const ext = join(dir, 'server.ext')
  run('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', caKey, '-out', ca, '-days', '2', '-subj', '/CN=netinv test LDAP CA'])
  run('openssl', ['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', key, '-out', csr, '-subj', '/CN=localhost'])
  writeFileSync(ext, 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n')
  run('openssl', ['x509', '-req', '-in', csr, '-CA', ca, '-CAkey', caKey, '-CAcreateserial', '-out', cert, '-days', '2', '-extfile', ext])
  return { ca, cert, key }
}

function person(uid: string, extra = ''): string {
  return `dn: uid=${uid},ou=people,${SUFFIX}
objectClass: inetOrgPerson
uid: ${uid}
cn: ${uid}
sn: ${uid}
mail: ${uid}@netinv.test
userPassword: ${PASSWORDS[uid as keyof typeof PASSWORDS]}
${extra}`
}

function group(cn: string, members: string[]): string {
  return `dn: cn=${cn},ou=groups,${SUFFIX}
objectClass: groupOfNames
cn: ${cn}
${members.map((m) => `member: ${m}`).join('\n')}
`
}

const people = (uid: string) => `uid=${uid},ou=people,${SUFFIX}`

function directoryLdif(): string {
  return [
    `dn: ${SUFFIX}\nobjectClass: dcObject\nobjectClass: organization\ndc: netinv\no: netinv test\n`,
    `dn: ou=people,${SUFFIX}\nobjectClass: organizationalUnit\nou: people\n`,
    `dn: ou=groups,${SUFFIX}\nobjectClass: organizationalUnit\nou: groups\n`,
    `dn: ou=services,${SUFFIX}\nobjectClass: organizationalUnit\nou: services\n`,
    `dn: ${SERVICE_DN}\nobjectClass: person\ncn: netinv\nsn: service\nuserPassword: ${SERVICE_PASSWORD}\n`,
    person('alice'),
    person('bob'),
    person('carol'),
    person('dave', 'employeeType: disabled\n'),
    group('operators', [people('alice'), `cn=auditors,ou=groups,${SUFFIX}`]),
    group('auditors', [people('bob')]),
    group('admins', [people('alice')]),
  ].join('\n')
}

function waitForPort(port: number, child: ChildProcess, ms = 20_000): Promise<void> {
  const until = Date.now() + ms
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (child.exitCode !== null) return reject(new Error(`slapd exited with ${child.exitCode}`))
      const s = connect(port, '127.0.0.1')
      s.once('connect', () => {
        s.destroy()
        resolve()
      })
      s.once('error', () => {
        s.destroy()
        if (Date.now() > until) reject(new Error('slapd did not listen in time'))
        else setTimeout(attempt, 50)
      })
    }
    attempt()
  })
}

export async function startSlapd(t: Teardown): Promise<Slapd> {
  const dir = mkdtempSync(join(tmpdir(), 'netinv-slapd-'))
  const db = join(dir, 'db')
  execFileSync('mkdir', ['-p', db])
  const { ca, cert, key } = makeCertificates(dir)
  const rootPassword = 'root-secret'
  const conf = join(dir, 'slapd.conf')
  writeFileSync(
    conf,
    `include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
modulepath /usr/lib/ldap
moduleload back_mdb
pidfile ${join(dir, 'slapd.pid')}
TLSCACertificateFile ${ca}
TLSCertificateFile ${cert}
TLSCertificateKeyFile ${key}
database mdb
maxsize 10485760
suffix "${SUFFIX}"
rootdn "cn=root,${SUFFIX}"
rootpw ${rootPassword}
directory ${db}
access to attrs=userPassword by anonymous auth by * none
access to * by * read
`,
  )
  const data = join(dir, 'data.ldif')
  writeFileSync(data, directoryLdif())
  run(SLAPADD, ['-f', conf, '-l', data])
  const [port, ldapsPort] = [await freePort(), await freePort()]
  const child = spawnOwned(SLAPD, ['-f', conf, '-h', `ldap://127.0.0.1:${port}/ ldaps://127.0.0.1:${ldapsPort}/`, '-d', '0'], { stdio: 'ignore' })
  let stopped = false
  const stop = async () => {
    if (stopped) return
    stopped = true
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGKILL')
      await exited
    }
    rmSync(dir, { recursive: true, force: true })
  }
  t.teardown(stop)
  await waitForPort(port, child)
  await waitForPort(ldapsPort, child)
  const passwordFile = join(dir, 'service-password')
  writeFileSync(passwordFile, `${SERVICE_PASSWORD}\n`, { mode: 0o600 })
  return {
    dir,
    url: `ldap://127.0.0.1:${port}`,
    ldapsUrl: `ldaps://127.0.0.1:${ldapsPort}`,
    caFile: ca,
    passwordFile,
    modify(ldif) {
      run('ldapmodify', ['-x', '-H', `ldap://127.0.0.1:${port}`, '-D', `cn=root,${SUFFIX}`, '-w', rootPassword], ldif)
    },
    stop,
  }
}

/**
 * netinv's `ldap` settings for the directory: the service account, users of ou=people that are
 * not disabled, `operators` (and its nested `auditors`) mapped to read and write, `admins` to
 * every scope and administrator status; `extra` overrides.
 */
export function directoryConfig(s: Slapd, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    enabled: true,
    url: s.url,
    caFile: s.caFile,
    bindDn: SERVICE_DN,
    bindPasswordFile: s.passwordFile,
    userBase: `ou=people,${SUFFIX}`,
    userFilter: '(&(objectClass=inetOrgPerson)(uid={username})(!(employeeType=disabled)))',
    groupBase: `ou=groups,${SUFFIX}`,
    groups: {
      operators: { scopes: ['read', 'write'] },
      [`cn=admins,ou=groups,${SUFFIX}`]: { scopes: ['read', 'settings', 'team', 'write'], isAdmin: true },
    },
    eulaApproved: true,
    connectTimeoutMs: 1000,
    timeoutMs: 1000,
    retryAfterSeconds: 7,
    ...extra,
  }
}
