import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createScratchDatabase, localStackPlace, runScript, startLocalStack } from '@rcs/testing';
import { e2eConfig } from './config';

export interface DemoStack {
  coordinator: string;
  pool: string;
  web: string;
  weightSetter: string | null;
  adminToken: string;
  /** The demo's accepted miner: the best result, the reward snapshot and the claim package name it. */
  bestMiner: string;
  demoOutput: string;
  stop(): Promise<void>;
}

/** `npm start` (coordinator, runner, pool, weight setter and the web UI) on free ports, then `npm run demo` against it. */
export async function startDemoStack(): Promise<DemoStack> {
  const { dataDir, ports, env: place } = await localStackPlace('web-e2e');
  // The test Postgres, not the embedded one: it starts in a second where PGlite takes a minute on a busy machine.
  const [coordinatorDb, poolDb] = [await createScratchDatabase('web_e2e_coordinator'), await createScratchDatabase('web_e2e_pool')];
  const env = {
    ...place,
    COORDINATOR_DATABASE_URL: coordinatorDb.url,
    POOL_DATABASE_URL: poolDb.url,
    WEIGHT_SETTER_PORT: String(ports.weightSetter),
    REDIS_URL: e2eConfig.redisUrl,
    REDIS_KEY_PREFIX: `web-e2e-${ports.coordinator}`,
  };
  const cleanUp = async () => {
    rmSync(dataDir, { recursive: true, force: true });
    await Promise.all([coordinatorDb.drop(), poolDb.drop()]);
  };
  const stack = await startLocalStack(['coordinator-api', 'validator-runner', 'pool-service', 'weight-setter'], env).catch(async (error: unknown) => {
    await cleanUp();
    throw error;
  });
  const stop = async () => {
    await stack.stop();
    await cleanUp();
  };
  try {
    const output = stack.output();
    const web = /web UI\s+(http:\/\/\S+)/.exec(output)?.[1];
    if (!web) throw new TypeError(`the banner names no web UI URL:\n${output.slice(-2000)}`);
    const demo = await runScript(['tools/demo/main.ts', '--timeout', '180'], env);
    if (demo.code !== 0) throw new TypeError(`npm run demo failed (${demo.code}):\n${demo.output.slice(-4000)}`);
    const bestMiner = /accepted: \S+ by (\S+), observed/.exec(demo.output)?.[1];
    if (!bestMiner) throw new TypeError(`the demo names no accepted miner:\n${demo.output}`);
    const state = JSON.parse(readFileSync(join(dataDir, 'stack.json'), 'utf8')) as { coordinator_url: string; pool_url: string; admin_token: string; weight_setter_url: string | null };
    return { coordinator: state.coordinator_url, pool: state.pool_url, web, weightSetter: state.weight_setter_url, adminToken: state.admin_token, bestMiner, demoOutput: demo.output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
