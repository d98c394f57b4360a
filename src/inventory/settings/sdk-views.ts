/**
 * The settings as the official Python SDK's settings models read them (`settings/credentials`,
 * `settings/privileges`, `settings/vendor-api`, `settings/site-separation`), built from what
 * netinv really keeps. netinv logs in with SNMP only: its credentials are the SNMP credentials,
 * secrets masked; it keeps no enable passwords and reads no vendor APIs, so those lists are
 * empty; its site separation is the network discovery's site rules.
 */
import { MASK, type SnmpCredential } from './credentials.js'
import type { NetworkSettings, SiteRule } from './network.js'

/** An SNMP credential in the shape of the SDK's `Credential` (and netinv's own keys beside). */
export function sdkCredential(c: SnmpCredential, position: number): Record<string, unknown> {
  return {
    id: c.id,
    priority: position,
    // a v2c community has no user name
    username: c.version === '3' ? c.user : '',
    password: MASK,
    notes: c.name,
    // no networks means every address
    network: c.networks.length > 0 ? c.networks : ['0.0.0.0/0'],
    excludeNetworks: [],
    expirationDate: { enabled: false, value: null },
    // never used to collect configurations: netinv collects none
    syslog: false,
    protocol: 'snmp',
    version: c.version,
  }
}

function ruleOf(r: SiteRule, index: number): Record<string, unknown> {
  const [type, regex] = r.sysLocation !== undefined ? ['regexSnmpLocation', r.sysLocation] : r.hostname !== undefined ? ['regexHostname', r.hostname] : ['subnet', r.subnet!]
  return {
    id: String(index),
    type,
    // netinv matches regular expressions case-insensitively and keeps the site name as given
    regex: type === 'subnet' ? null : regex,
    subnet: type === 'subnet' ? regex : null,
    transformation: 'none',
    siteName: r.site,
    note: null,
  }
}

/** The site rules in the order they are tried (the first that matches wins), and the default site. */
export function sdkSiteSeparation(s: NetworkSettings): Record<string, unknown> {
  return { rules: s.siteRules.map(ruleOf), defaultSite: s.defaultSite }
}
