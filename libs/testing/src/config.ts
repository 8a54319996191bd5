/** Server the test databases are created on; its own database is only used as the admin connection. */
export function testDatabaseUrlBase(): string {
  return process.env['TEST_DATABASE_URL'] || 'postgres://postgres@127.0.0.1:5432/postgres';
}

export function testRedisUrl(): string {
  return process.env['TEST_REDIS_URL'] || 'redis://127.0.0.1:6379';
}

/** What a spawned service inherits from the test process: enough to find node and git, nothing else. */
export function childProcessBaseEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env['PATH'], HOME: process.env['HOME'] };
}
