/** The PostgreSQL and Redis the tests use (a module of its own: the watchdog needs no more). */
export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
