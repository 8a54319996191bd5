import { rmSync } from 'node:fs';
import { localStackPlace, runScript, startLocalStack } from '@rcs/testing';

/** The "done when": `npm start` (coordinator, validator runner with the bwrap sandbox, pool) then `npm run demo`, pool round included. */
describe('npm run demo against the local stack', () => {
  it('replays an improving patch, refuses a forbidden one and keeps the best against a worse one, then plays the ternary round', async () => {
    const { dataDir, ports, env: place } = await localStackPlace('demo-stack');
    const env = {
      ...place,
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      // Its own key space, so queues of other test runs on this Redis never meet this stack's.
      REDIS_KEY_PREFIX: `demo-${ports.coordinator}`,
    };
    const stack = await startLocalStack(['coordinator-api', 'validator-runner', 'pool-service'], env);
    try {
      const demo = await runScript(['tools/demo/main.ts', '--timeout', '120'], env);
      expect(demo.output).toContain('refused: a patch to bench.py');
      expect(demo.output).toMatch(/with a worse mse; the best stays/);
      expect(demo.output).toMatch(/reward snapshot .*"score"/);
      // The ternary pack's round: the first packed model best on observed metrics, a smaller one inside the
      // 0.02-nat band replacing it, one over the rescue cap rejected with the benchmark's sentence.
      expect(demo.output).toMatch(/ternary accepted: \S+ \(first\) by \S+, observed heldout_ppl=\d+\.\d{3} compressed_bytes=6435 \(claimed 1\.01 and 1 are ignored\); the best/);
      expect(demo.output).toMatch(/ternary accepted: \S+ \(smaller\) by \S+, observed heldout_ppl=\d+\.\d{3} compressed_bytes=4285: \+0\.0[01]\d nats \(band 0\.02\), 33 % smaller → the best instead of \S+/);
      expect(demo.output).toContain('(rescue12) by');
      expect(demo.output).toMatch(/ternary rejected: .*: ineligible \(rescue_over_cap\): Ineligible: 1536 of 12800 weights \(12\.0 %\) are 4-bit rescue, over the cap of 10 %\.; the best stays/);
      expect(demo.output).toMatch(/ternary round: ok \(first accepted, smaller accepted, rescue12 rejected; [0-9.]+ s\)/);
      expect(demo.output).toMatch(/pool round: ok \(algorithm \d+ scored, result \d+ verified, sota [0-9.]+\)/);
      expect(demo.output).toContain('proof verified locally');
      expect(demo.output).toContain('second claim: 409 nothing_to_claim');
      expect(demo.output).toMatch(/claim round: ok \(epoch \d+ paid [1-9]\d*, epoch \d+ paid [1-9]\d*\)/);
      expect(demo).toMatchObject({ code: 0 });
      // Its repositories are removed at its end: no task of the demo is left live for a miner to claim (issue 37).
      expect(demo.output).toMatch(/^closed: task \S+ /m);
      expect(demo.output).toMatch(/^ternary closed: task \S+ /m);
      const tasks = (await (await fetch(`http://127.0.0.1:${ports.coordinator}/api/v1/tasks?limit=1000`)).json()) as { slug: string; task_state: string }[];
      expect(tasks.filter((task) => task.task_state !== 'closed').map((task) => task.slug)).toEqual([]);
    } finally {
      await stack.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
