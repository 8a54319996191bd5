import { rmSync } from 'node:fs';
import { Redis } from 'ioredis';
import { localStackPlace, RedisCluster, runScript, startLocalStack, startRedisCluster } from '@rcs/testing';

/**
 * The round on a Redis Cluster (DECISIONS §19): the local stack (coordinator, validator runner
 * with the bwrap sandbox, pool, weight setter) with REDIS_CLUSTER_NODES set, then `npm run demo`:
 * claims and submissions, the runner's real replays and their decisions, the reward snapshot, a pool
 * epoch and a simulated claim, and the dev chain's weights, every Redis client of every app clustered.
 */
describe('a round on a Redis Cluster', () => {
  let cluster: RedisCluster;

  beforeAll(async () => {
    cluster = await startRedisCluster();
  }, 60_000);

  afterAll(async () => {
    await cluster?.destroy();
  });

  it('plays the demo round with every app on the cluster, each app keeping its keys under its hash tags', async () => {
    const { dataDir, ports, env: place } = await localStackPlace('cluster-stack');
    const prefix = `cluster-${ports.coordinator}`;
    const env = {
      ...place,
      WEIGHT_SETTER_PORT: String(ports.weightSetter),
      WEIGHTS_INTERVAL_SECONDS: '5',
      // The launcher checks that REDIS_URL answers (a node does); the apps connect to the cluster.
      REDIS_URL: `redis://127.0.0.1:${cluster.nodes[0].port}`,
      REDIS_CLUSTER_NODES: cluster.nodesVariable,
      REDIS_KEY_PREFIX: prefix,
    };
    const stack = await startLocalStack(['coordinator-api', 'validator-runner', 'pool-service', 'weight-setter'], env);
    try {
      const started = Date.now();
      const demo = await runScript(['tools/demo/main.ts', '--timeout', '150', '--weight-setter-url', `http://127.0.0.1:${ports.weightSetter}`], env);
      const roundSeconds = (Date.now() - started) / 1000;
      expect(demo.output).toContain('refused: a patch to bench.py');
      expect(demo.output).toMatch(/with a worse mse; the best stays/);
      expect(demo.output).toMatch(/reward snapshot .*"score"/);
      expect(demo.output).toMatch(/pool round: ok \(algorithm \d+ scored, result \d+ verified, sota [0-9.]+\)/);
      expect(demo.output).toMatch(/claim round: ok \(epoch \d+ paid [1-9]\d*, epoch \d+ paid [1-9]\d*\)/);
      // The weight setter set the validator's weights on the dev chain (the demo may find its next pass rate-limited).
      expect(demo.output).toMatch(/weights: last pass [^\n]*(in block \d+|weights were set at block \d+)[^\n]*: uid \d+ → [1-9]\d*/);
      expect(demo).toMatchObject({ code: 0 });

      // Every app's queues under their own tags, spread over the masters; the dev chain under one tag.
      const keys: string[][] = [];
      for (const node of cluster.nodes) {
        const client = new Redis({ host: '127.0.0.1', port: node.port });
        keys.push(await client.keys(`{${prefix}*`));
        client.disconnect();
      }
      const all = keys.flat();
      for (const app of ['coordinator', 'pool', 'validator-runner', 'weight-setter']) expect(all.some((key) => key.startsWith(`{${prefix}:${app}:`))).toBe(true);
      expect(all.some((key) => key.startsWith(`{${prefix}:devchain}:`))).toBe(true);
      expect(keys.filter((list) => list.length > 0).length).toBe(cluster.nodes.length);
      process.stdout.write(`redis cluster round: ${roundSeconds.toFixed(1)} s; keys per master ${keys.map((list) => list.length).join(' / ')}\n`);
    } finally {
      await stack.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 420_000);
});
