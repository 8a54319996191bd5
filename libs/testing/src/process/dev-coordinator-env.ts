/**
 * The environment that runs the coordinator as its own process on a test database and Redis prefix, on the
 * dev chain with the stake check off; callers add its port, admin tokens and whatever their test is about.
 */
export function devCoordinatorEnv(databaseUrl: string, redis: { url: string; prefix: string }): Record<string, string> {
  return {
    COORDINATOR_DATABASE_URL: databaseUrl,
    REDIS_URL: redis.url,
    REDIS_KEY_PREFIX: redis.prefix,
    CHAIN: 'dev',
    NETUID: '1',
    STAKE_CHECK: 'off',
  };
}
