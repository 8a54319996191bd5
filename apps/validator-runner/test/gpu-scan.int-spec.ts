import { mnemonicGenerate } from '@polkadot/util-crypto';
import { BtAuthSigner, keypairFromUri } from '@rcs/auth';
import { createLogger } from '@rcs/http';
import { benchTaskBody, RunningCoordinator, startCoordinatorProcess } from '@rcs/testing';
import { CoordinatorClient } from '../src/coordinator/coordinator.client';
import { GpuCapabilities } from '../src/sandbox/accelerators';
import { call, Json } from './support/coordinator';

/**
 * The runner's own client against a running coordinator: the capabilities it declares travel in the signed
 * scan body (a GB figure with decimals included), and the coordinator leases by them.
 */
describe('the runner scan declares its GPUs', () => {
  let coordinator: RunningCoordinator;
  let validator: BtAuthSigner;
  let miner: BtAuthSigner;

  beforeAll(async () => {
    validator = new BtAuthSigner(await keypairFromUri(mnemonicGenerate()));
    miner = new BtAuthSigner(await keypairFromUri(mnemonicGenerate()));
    coordinator = await startCoordinatorProcess({ validatorHotkey: validator.hotkey, database: 'runner_gpu' });
  }, 180_000);

  afterAll(async () => {
    await coordinator?.stop();
  });

  const client = (capabilities?: GpuCapabilities) =>
    new CoordinatorClient(
      { baseUrl: coordinator.url, timeoutMs: 10_000, postAttempts: 1, postBackoffMs: 0, capabilities },
      validator,
      createLogger({ level: 'silent', name: 'gpu-scan-test', format: 'json' }),
    );

  /** A live task (with `hardware` when given) and one pending artifact submission on it; answers the submission id. */
  async function pendingOn(hardware?: Json): Promise<string> {
    const task = await call(coordinator.url, 'POST', '/api/v1/tasks', { admin: coordinator.adminToken }, benchTaskBody('https://git.test/gpu.git', 'main', hardware ? { hardware } : {}));
    expect(task.status).toBe(201);
    const taskId = (task.json as Json).id as string;
    const claim = await call(coordinator.url, 'POST', `/api/v1/tasks/${taskId}/claim`, { signer: miner }, { claim_description: 'a compressed model' });
    expect(claim.status).toBe(201);
    const submission = await call(coordinator.url, 'POST', '/api/v1/submissions', { signer: miner }, {
      claim_id: (claim.json as Json).id,
      base_ref: 'main',
      artifact_uri: 'https://cdn.test/models/model.bin',
      artifact_sha256: 'cd'.repeat(32),
      artifact_size_bytes: 2048,
      summary: 'Pruned and quantised.',
      claimed_metrics: { loss: 0.5 },
    });
    expect(submission.status).toBe(201);
    return (submission.json as Json).id as string;
  }

  it('a CPU-only runner leases the CPU job and leaves the GPU job; a runner declaring the GPU leases that', async () => {
    const gpuJob = await pendingOn({ gpu_count: 1, gpu_memory_gb: 80 });
    const cpuJob = await pendingOn();

    const cpuOnly = await client().scan(16);
    expect(cpuOnly.map((job) => job.submission_id)).toEqual([cpuJob]);
    // Declaring no GPU sends the old body: the same answer as no capabilities at all.
    expect(await client({ gpu_count: 0, gpu_memory_gb: 0 }).scan(16)).toEqual([]);
    // Too little memory on the one GPU: still nothing.
    expect(await client({ gpu_count: 1, gpu_memory_gb: 42.94 }).scan(16)).toEqual([]);

    const withGpu = await client({ gpu_count: 1, gpu_memory_gb: 85.52 }).scan(16);
    expect(withGpu.map((job) => job.submission_id)).toEqual([gpuJob]);
  }, 60_000);
});
