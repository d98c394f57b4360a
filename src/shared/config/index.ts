export { compileConfig, loadConfig, ConfigError, type LoadedConfig } from './load.js'
export { CONFIG_SCHEMA, type Config, type SunsetPolicy, type UpstreamConfig, type LdapConfig, type SsoConfig, type SsoProviderConfig } from './schema.js'
export { leaves, type SchemaNode } from './schema-types.js'
