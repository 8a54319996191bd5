import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@rcs/testing';
import { Redis } from 'ioredis';
import { startRedis } from './redis';

/**
 * The Redis `npm start` runs when none answers holds the dev chain's block 0 and its claim contract
 * (epochs, claims, challenges): a restart that came back empty let a package be paid twice. It keeps
 * an append-only file under DATA_DIR/redis.
 */
describe('the local stack Redis', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'stack-redis-'));
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('comes back after a restart with what it held (the dev contract’s claims), from its append-only file', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    let server = await startRedis(url, join(dir, 'redis'));
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0 });
    try {
      await client.connect();
      expect(await client.config('GET', 'appendonly')).toEqual(['appendonly', 'yes']);
      await client.hset('rcs:dev-chain:claims', '5HotKey', '1000');
      client.disconnect();
      server.kill('SIGTERM');
      await once(server, 'exit');
      expect(readdirSync(join(dir, 'redis')).length).toBeGreaterThan(0);

      server = await startRedis(url, join(dir, 'redis'));
      await client.connect();
      expect(await client.hget('rcs:dev-chain:claims', '5HotKey')).toBe('1000');
    } finally {
      client.disconnect();
      server.kill('SIGTERM');
      await once(server, 'exit');
    }
  });
});
