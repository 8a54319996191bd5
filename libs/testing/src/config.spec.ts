import { testDatabaseUrlBase, testRedisUrl } from './config';

describe('testing config', () => {
  const saved = { db: process.env['TEST_DATABASE_URL'], redis: process.env['TEST_REDIS_URL'] };

  afterEach(() => {
    for (const [key, value] of [
      ['TEST_DATABASE_URL', saved.db],
      ['TEST_REDIS_URL', saved.redis],
    ] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });

  it('defaults to the local servers', () => {
    delete process.env['TEST_DATABASE_URL'];
    delete process.env['TEST_REDIS_URL'];
    expect(testDatabaseUrlBase()).toBe('postgres://postgres@127.0.0.1:5432/postgres');
    expect(testRedisUrl()).toBe('redis://127.0.0.1:6379');
  });

  it('reads TEST_DATABASE_URL and TEST_REDIS_URL', () => {
    process.env['TEST_DATABASE_URL'] = 'postgres://ci@db:5432/postgres';
    process.env['TEST_REDIS_URL'] = 'redis://cache:6379/2';
    expect(testDatabaseUrlBase()).toBe('postgres://ci@db:5432/postgres');
    expect(testRedisUrl()).toBe('redis://cache:6379/2');
  });
});
