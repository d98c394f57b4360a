/** The settings schemas (schemas.ts) compiled once: each body is checked with these, every problem at once. */
import { bodyValidator } from '../../shared/schema/index.js'
import { CredentialCreate, CredentialPatch, SeedList, SettingsPatch, SimulatorSettingsPatch, SshCredentialCreate, SshCredentialPatch, ConfigBackupRequest } from './schemas.js'

export const simulatorSettings = bodyValidator(SimulatorSettingsPatch, { all: true })
export const settingsPatch = bodyValidator(SettingsPatch, { all: true })
export const seedList = bodyValidator(SeedList, { all: true })
export const credentialCreate = bodyValidator(CredentialCreate, { all: true })
export const credentialPatch = bodyValidator(CredentialPatch, { all: true })
export const sshCredentialCreate = bodyValidator(SshCredentialCreate, { all: true })
export const sshCredentialPatch = bodyValidator(SshCredentialPatch, { all: true })
export const configBackupRequest = bodyValidator(ConfigBackupRequest, { all: true })
