export type { Limiter, RateDecision } from './types.js'
export { createMemoryLimiter, windowOf, type MemoryLimiterOptions } from './memory.js'
