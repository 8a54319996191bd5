import { Redis } from 'ioredis';
import { deleteKeys, testRedis, uniquePrefix } from '../test/redis';
import { RedisScript } from './redis-script';

const INCR_BY = new RedisScript(`return redis.call('INCRBY', KEYS[1], ARGV[1])`, 1);

describe('RedisScript', () => {
  const url = process.env.REDIS_URL;
  const prefix = uniquePrefix('redis-script');
  let redis: Redis;

  beforeEach(() => {
    redis = testRedis(url);
  });

  afterEach(async () => {
    await deleteKeys(redis, prefix);
    await redis.quit();
  });

  it('sends the script text only when Redis does not hold it, and its SHA1 otherwise', async () => {
    const monitor = testRedis(url);
    let watching: Redis | undefined;
    const scriptCalls: string[] = [];
    try {
      // The commands this client sends, told apart from other clients' by its address.
      const address = /(?:^|\s)addr=(\S+)/.exec(String(await redis.client('INFO')))?.[1];
      let marked: () => void = () => undefined;
      const markerSeen = new Promise<void>((resolve) => (marked = resolve));
      watching = await monitor.monitor();
      watching.on('monitor', (_time: string, args: string[], source: string) => {
        if (source !== address) return;
        const command = String(args[0]).toLowerCase();
        if (command === 'eval' || command === 'evalsha') scriptCalls.push(command);
        if (command === 'echo' && args[1] === 'redis-script-marker') marked();
      });
      await redis.script('FLUSH');
      const key = `${prefix}counter`;
      expect(await INCR_BY.run(redis, [key], [2])).toBe(2);
      expect(await INCR_BY.run(redis, [key], [3])).toBe(5);
      // MONITOR shows a client's commands in order: once it shows the marker, it has shown the calls before it.
      await redis.echo('redis-script-marker');
      await markerSeen;
      expect(scriptCalls).toEqual(['evalsha', 'eval', 'evalsha']);
    } finally {
      watching?.disconnect();
      monitor.disconnect();
    }
  });

  it('refuses a call with the wrong number of keys, and passes other errors on', async () => {
    await expect(INCR_BY.run(redis, [], [1])).rejects.toThrow('this script takes 1 key(s), got 0');
    const failing = new RedisScript(`return redis.error_reply('ERR boom')`, 0);
    await expect(failing.run(redis, [], [])).rejects.toThrow('boom');
  });
});
