import { Injectable, Module, type BeforeApplicationShutdown } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { encodeAddress } from '@polkadot/util-crypto';
import { cryptoReady } from '@rcs/auth';
import type { SnapshotDigest } from './snapshot-digest';
import { SnapshotDigester } from './snapshot-worker';

const HOTKEY = encodeAddress(new Uint8Array(32).fill(1), 42);
const SNAPSHOT = new TextEncoder().encode(
  JSON.stringify({
    generated_at: '2026-11-28T12:00:00.000Z',
    score_ema_days: 10,
    competition_count: 1,
    reward_policy: { version: 2, pools: [], validator_weights: { mode: 'local', targets: [], version_key: 1 } },
    competitions: [{ competition_id: 'a', slug: 'a', weight: 1, miners: [{ miner_hotkey: HOTKEY, score: 1 }] }],
  }),
);

/** Stands for the queue's workers: a weights pass is digesting when the app shuts down, and `beforeApplicationShutdown` waits for it. */
@Injectable()
class RunningPass implements BeforeApplicationShutdown {
  outcome: Promise<SnapshotDigest> | null = null;
  constructor(private readonly digester: SnapshotDigester) {}

  start(): void {
    // A fresh copy: the digester moves the bytes' buffer to its worker.
    this.outcome = this.digester.digest(SNAPSHOT.slice(), [HOTKEY]);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.outcome?.catch(() => undefined);
  }
}

@Module({ providers: [SnapshotDigester, RunningPass] })
class DigesterModule {}

describe('SnapshotDigester', () => {
  beforeAll(() => cryptoReady());

  it('lets a pass that is digesting when the app shuts down end with its vector: the worker stops after the queue\'s workers', async () => {
    const app = await NestFactory.createApplicationContext(DigesterModule, { logger: false });
    const pass = app.get(RunningPass);
    pass.start();
    await app.close();
    await expect(pass.outcome).resolves.toMatchObject({ kind: 'vector', vector: { entries: [{ uid: 0, weight: 1 }] } });
  });
});
