/**
 * What to type on each kind of device to read its running configuration, paging turned off
 * first: the commands per OS family (vendor.ts names the families), and the family of a
 * device that SNMP identified as Linux but runs FRR (its shell over SSH is vtysh). Where the
 * device shows its startup configuration too, that command is typed last, and whether the
 * running configuration was saved follows from the two (collect.ts).
 */

export interface ConfigCommands {
  /** Commands that turn paging off, typed first; their output is ignored. */
  setup: readonly string[]
  /** The command whose output is the configuration. */
  show: string
  /** The command that shows the configuration the device starts with, or null when it has none. */
  startup: string | null
  /**
   * The device applies a configuration by a commit, which also makes it the configuration it
   * starts with (Junos, IOS XR): what `show` prints is saved by construction.
   */
  committed: boolean
}

const CISCO: ConfigCommands = { setup: ['terminal length 0'], show: 'show running-config', startup: 'show startup-config', committed: false }
// FRR's vtysh: a Linux router whose SSH user's shell is vtysh (Cumulus Linux runs FRR too); vtysh
// writes its configuration file (`write memory`) but has no command that shows it
const VTYSH: ConfigCommands = { setup: ['terminal length 0'], show: 'show running-config', startup: null, committed: false }

/** By OS family (vendor.ts `family`). */
export const CONFIG_COMMANDS: Readonly<Record<string, ConfigCommands>> = {
  ios: CISCO,
  'ios-xe': CISCO,
  'nx-os': CISCO,
  eos: CISCO,
  'ios-xr': { setup: ['terminal length 0'], show: 'show running-config', startup: null, committed: true },
  junos: { setup: ['set cli screen-length 0'], show: 'show configuration | display set | no-more', startup: null, committed: true },
  frr: VTYSH,
  linux: VTYSH,
  'cumulus-linux': VTYSH,
}

/** The commands for a family, or null when netinv does not know how to read its configuration. */
export function configCommands(family: string | null): ConfigCommands | null {
  return family === null ? null : (CONFIG_COMMANDS[family] ?? null)
}
