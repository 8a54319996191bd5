/** Server the test databases are created on; its own database is only used as the admin connection. */
export function testDatabaseUrlBase(): string {
  return process.env['TEST_DATABASE_URL'] || 'postgres://postgres@127.0.0.1:5432/postgres';
}

export function testRedisUrl(): string {
  return process.env['TEST_REDIS_URL'] || 'redis://127.0.0.1:6379';
}
