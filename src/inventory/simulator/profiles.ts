/** Size profiles of the simulated network. */

export interface Profile {
  name: ProfileName
  /** Number of sites. */
  sites: number
  /** Access switches per site: [min, max]. */
  accessSwitches: readonly [number, number]
  /** Stack members per access switch (48 ports each): [min, max]. */
  stackMembers: readonly [number, number]
  /** Sub-interfaces per router: [min, max]. */
  routerSubinterfaces: readonly [number, number]
  /** Share of access ports with a connected end host. */
  hostOccupancy: number
}

export const PROFILE_NAMES = ['lab', 'small', 'medium', 'large', 'huge'] as const
export type ProfileName = (typeof PROFILE_NAMES)[number]

/**
 * About ten devices per site: two WAN routers, two distribution switches, a firewall, access
 * switches and an access point. "large" (1,000 sites, ~10,000 devices) holds more than a
 * million interfaces: access switches are stacks of 4–5 members of 48 ports. "huge" is nine
 * "large" networks in one (9,000 sites, about 10 million interfaces, 40 million rows in all): the
 * scale benchmark's (bench/scale.ts); its sites past the 4,096th take their /20 blocks beyond
 * 10.0.0.0/8.
 */
export const PROFILES: Readonly<Record<ProfileName, Profile>> = {
  lab: { name: 'lab', sites: 10, accessSwitches: [3, 5], stackMembers: [1, 1], routerSubinterfaces: [2, 6], hostOccupancy: 0.45 },
  small: { name: 'small', sites: 50, accessSwitches: [3, 5], stackMembers: [1, 2], routerSubinterfaces: [4, 12], hostOccupancy: 0.45 },
  medium: { name: 'medium', sites: 200, accessSwitches: [3, 5], stackMembers: [2, 3], routerSubinterfaces: [8, 24], hostOccupancy: 0.4 },
  large: { name: 'large', sites: 1000, accessSwitches: [3, 5], stackMembers: [4, 5], routerSubinterfaces: [16, 48], hostOccupancy: 0.35 },
  huge: { name: 'huge', sites: 9000, accessSwitches: [3, 5], stackMembers: [4, 5], routerSubinterfaces: [16, 48], hostOccupancy: 0.35 },
}

export function isProfileName(value: unknown): value is ProfileName {
  return typeof value === 'string' && (PROFILE_NAMES as readonly string[]).includes(value)
}
