import { Redis } from 'ioredis';
import { QueueName } from '@rcs/contracts';
import { JobQueue } from '@rcs/queue';
import { RedisCluster, startRedisCluster } from '@rcs/testing';
import { CoordinatorJobs } from '../src/jobs/coordinator-jobs';
import { CoordinatorHarness } from './harness';
import { expectStatus, Reply } from './submissions-fixtures';
import { until } from './support/until';
import { Cast, cast, startValidationCoordinator, ValidationClient } from './validator-jobs-fixtures';

/**
 * The coordinator on a Redis Cluster of three masters (REDIS_CLUSTER_NODES, DECISIONS §19): its
 * queues, nonces and event stream work there, and when one master's process dies mid-round it
 * answers 503 redis_unavailable, then recovers once the master is back. `nx run tools:test-cluster`.
 */

const CLAIM = { claim_description: 'Trying a change on a clustered Redis.' };

describe('coordinator on a Redis Cluster', () => {
  let cluster: RedisCluster;
  let people: Cast;
  let h: CoordinatorHarness;
  let api: ValidationClient;

  beforeAll(async () => {
    [cluster, people] = await Promise.all([startRedisCluster(), cast()]);
    h = await startValidationCoordinator(people, {
      // REDIS_URL names no server of its own here: with REDIS_CLUSTER_NODES it only gives credentials and TLS.
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_CLUSTER_NODES: cluster.nodesVariable,
    });
    api = new ValidationClient(h);
  }, 120_000);

  afterAll(async () => {
    await h?.close();
    await cluster?.destroy();
  });

  /** Every key of the cluster, by node port. */
  async function keysByNode(): Promise<Map<number, string[]>> {
    const found = new Map<number, string[]>();
    for (const node of cluster.nodes) {
      const client = new Redis({ host: '127.0.0.1', port: node.port });
      found.set(node.port, await client.keys('*'));
      client.disconnect();
    }
    return found;
  }

  it('runs a claim, a submission and its validator job on the cluster, each queue in a hash slot of its own', async () => {
    const task = await api.createTask();
    const submission = await api.pending(people.dave, task.id);
    const jobs = await api.leased(people.alice, { limit: 5 });
    expect(jobs.map((job) => job.submission_id)).toContain(submission.id);

    const keys = [...(await keysByNode()).entries()];
    const prefix = h.redis.prefix;
    // Queue keys carry their queue's tag; the nonces one tag of their own.
    const queueKeys = keys.flatMap(([, list]) => list).filter((key) => key.startsWith(`{${prefix}:coordinator:`));
    expect(queueKeys.length).toBeGreaterThan(0);
    for (const key of queueKeys) expect(key).toMatch(new RegExp(`^\\{${prefix}:coordinator:([a-z.-]+)\\}:\\1:`));
    expect(keys.flatMap(([, list]) => list).some((key) => key.startsWith(`{${prefix}:auth:replay}:`))).toBe(true);
    // The queues spread: their keys live on more than one node.
    const nodesWithQueues = keys.filter(([, list]) => list.some((key) => key.startsWith(`{${prefix}:coordinator:`)));
    expect(nodesWithQueues.length).toBeGreaterThan(1);
    const depth = await h.app.get<JobQueue<CoordinatorJobs>>(JobQueue).queue(QueueName.Rewards).getJobCounts();
    expect(depth).toEqual(expect.objectContaining({ waiting: expect.any(Number) }));
  });

  it('answers 503 redis_unavailable while a master is dead, and recovers when it returns', async () => {
    const task = await api.createTask();
    const claim = (): Promise<Reply<unknown>> => api.signed(people.dave, 'POST', `/api/v1/tasks/${task.id}/claim`, CLAIM);
    const victim = cluster.nodes[1];
    const killedAt = Date.now();
    await victim.kill();
    await cluster.untilDown();
    const down = await until('a signed write is refused', claim, (reply) => reply.status === 503);
    expect(down.body).toMatchObject({ detail: { error: 'redis_unavailable' } });
    expect(down.headers.get('retry-after')).toMatch(/^\d+$/);
    const refusedMs = Date.now() - killedAt;
    // Public reads come from the database and keep answering.
    expectStatus(await api.anonymous('GET', `/api/v1/tasks/${task.id}`), 200);

    const restartedAt = Date.now();
    await victim.start();
    const healthyMs = Date.now() - restartedAt;
    const back = await until('signed writes work again', claim, (reply) => reply.status === 201 || reply.status === 200);
    const recoveredMs = Date.now() - restartedAt;
    expect([200, 201]).toContain(back.status);
    process.stdout.write(`redis cluster: refused ${refusedMs} ms after the kill; cluster whole ${healthyMs} ms and writes back ${recoveredMs} ms after the restart\n`);
  }, 120_000);
});
