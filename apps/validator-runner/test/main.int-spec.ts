import { createTestRedis, expectServiceAnswers, freePort, runValidatorRunner, spawnService, suiteResource, TestRedis } from '@rcs/testing';

describe('validator-runner process', () => {
  let redis: TestRedis;

  suiteResource(() => createTestRedis(), (resource) => resource.cleanup(), (made) => (redis = made));

  it('boots from its entry point, serves /healthz and OpenAPI, keeps running while the coordinator is away (/readyz says so), and exits 0 on SIGTERM', async () => {
    const service = await spawnService({
      entry: 'apps/validator-runner/src/main.ts',
      portVariable: 'VALIDATOR_RUNNER_PORT',
      healthPath: '/healthz',
      env: { VALIDATOR_SECRET_URI: '//Alice', REDIS_URL: redis.url, REDIS_KEY_PREFIX: redis.prefix, COORDINATOR_URL: `http://127.0.0.1:${await freePort()}` },
    });
    try {
      await expectServiceAnswers(service, 'validator-runner', '/healthz');
      const ready = await fetch(`${service.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({
        status: 'not_ready',
        checks: { redis: { ok: true }, coordinator: { ok: false, error: expect.any(String) } },
        // SANDBOX_GPUS defaults to none: whatever GPUs the host has, none is exposed or declared.
        accelerators: {
          sandbox_gpus: 'none',
          gpus: expect.any(Array),
          capabilities: { gpu_count: 0, gpu_memory_gb: 0 },
          nvidia_smi: { status: expect.stringMatching(/^(ok|absent|failed)$/) },
        },
      });
    } finally {
      expect(await service.stop()).toBe(0);
    }
  }, 90_000);

  it('refuses a bad configuration, and a missing identity, with a clear message and exit code 1', async () => {
    await expect(
      spawnService({ entry: 'apps/validator-runner/src/main.ts', portVariable: 'VALIDATOR_RUNNER_PORT', healthPath: '/healthz', env: { LOG_LEVEL: 'loud' } }),
    ).rejects.toThrow(/LOG_LEVEL must be one of/);
    await expect(spawnService({ entry: 'apps/validator-runner/src/main.ts', portVariable: 'VALIDATOR_RUNNER_PORT', healthPath: '/healthz' })).rejects.toThrow(
      /no validator identity: set VALIDATOR_MNEMONIC, VALIDATOR_SECRET_URI, or BT_WALLET_NAME/,
    );
    const once = await runValidatorRunner(['once'], { BT_WALLET_NAME: 'nobody', BT_WALLET_PATH: '/nonexistent' });
    expect(once).toMatchObject({ code: 1, stderr: expect.stringMatching(/cannot read the hotkey file \/nonexistent\/nobody\/hotkeys\/default: ENOENT/) });
  }, 90_000);

  it('refuses to start, run or once, when SANDBOX_GPUS selects a GPU the host lacks or is not a GPU list', async () => {
    const env = { VALIDATOR_SECRET_URI: '//Alice', REDIS_URL: redis.url, REDIS_KEY_PREFIX: redis.prefix, COORDINATOR_URL: `http://127.0.0.1:${await freePort()}` };
    // No host has a 64th GPU, so the refusal does not depend on the machine the test runs on.
    await expect(
      spawnService({ entry: 'apps/validator-runner/src/main.ts', portVariable: 'VALIDATOR_RUNNER_PORT', healthPath: '/healthz', env: { ...env, SANDBOX_GPUS: '63' } }),
    ).rejects.toThrow(/SANDBOX_GPUS=63 selects GPU 63, but \/dev\/nvidia63 does not exist on this host/);
    expect(await runValidatorRunner(['once'], { ...env, SANDBOX_GPUS: '63' })).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/SANDBOX_GPUS=63 selects GPU 63, but \/dev\/nvidia63 does not exist on this host/),
    });
    await expect(
      spawnService({ entry: 'apps/validator-runner/src/main.ts', portVariable: 'VALIDATOR_RUNNER_PORT', healthPath: '/healthz', env: { ...env, SANDBOX_GPUS: 'yes' } }),
    ).rejects.toThrow(/SANDBOX_GPUS must be none, all, or a comma list of GPU device indices/);
  }, 90_000);

  it('answers usage errors with exit code 2 and --help with 0', async () => {
    expect(await runValidatorRunner(['replay'], {})).toMatchObject({ code: 2, stderr: expect.stringMatching(/replay needs --job-file FILE/) });
    expect(await runValidatorRunner(['--help'], {})).toMatchObject({ code: 0, stdout: expect.stringMatching(/replay --job-file FILE/) });
  }, 90_000);
});
