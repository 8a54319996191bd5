import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@rcs/http';
import { loadValidatorRunnerConfig, requireIdentity } from './config';

describe('validator runner configuration', () => {
  it('has production defaults: bwrap sandbox, https only, public hosts only, no local repositories', () => {
    const config = loadValidatorRunnerConfig({ PATH: '/usr/bin', HOME: '/root', SECRET: 'x' }, '/srv');
    expect(config).toMatchObject({
      port: 8100,
      coordinatorUrl: 'http://127.0.0.1:8000',
      identity: null,
      redisUrl: 'redis://127.0.0.1:6379',
      redisKeyPrefix: 'rcs',
      sandbox: { kind: 'bwrap', allowUnsafeNone: false, dockerImage: null, limits: { memoryBytes: 4096 * 1024 * 1024, pids: 256, cpus: 2 } },
      concurrency: 1,
      workDir: '/srv/.data/runner',
      scanIntervalSeconds: 10,
      scanLimit: 1,
      fetch: { allowInsecureHttp: false, allowPrivateAddresses: false, allowLocalSources: false, downloadTimeoutMs: 1800 * 1000, downloadMinBytesPerSecond: 64 * 1024 },
      logCapBytes: 64 * 1024,
      resultMaxBytes: 1024 * 1024,
      logFormat: 'json',
      webUrl: null,
    });
    // Every write the benchmark can make is bounded by default: file size, workspace, /tmp, /dev/shm.
    expect(config.sandbox).toMatchObject({
      limits: { fileBytes: 2048 * 1024 * 1024, tmpBytes: 1024 * 1024 * 1024, shmBytes: 256 * 1024 * 1024 },
      workspaceBytes: 10 * 1024 * 1024 * 1024,
      workspaceFs: 'auto',
      gpus: { kind: 'none' },
    });
    // git gets what a clone needs from the host, nothing else.
    expect(config.gitEnv).toEqual({ PATH: '/usr/bin', HOME: '/root' });
  });

  it('takes LOG_FORMAT pretty or json (and nothing else) and WEB_URL for the / index', () => {
    expect(loadValidatorRunnerConfig({ LOG_FORMAT: 'pretty', WEB_URL: 'http://127.0.0.1:8300/' })).toMatchObject({ logFormat: 'pretty', webUrl: 'http://127.0.0.1:8300' });
    expect(() => loadValidatorRunnerConfig({ LOG_FORMAT: 'yaml' })).toThrow(/LOG_FORMAT must be one of/);
  });

  it('reads the identity from exactly one source, expanding ~ in the wallet path', () => {
    expect(loadValidatorRunnerConfig({ VALIDATOR_SECRET_URI: '//Alice' }).identity).toEqual({ kind: 'uri', variable: 'VALIDATOR_SECRET_URI', uri: '//Alice' });
    expect(loadValidatorRunnerConfig({ BT_WALLET_NAME: 'validator' }).identity).toEqual({
      kind: 'wallet',
      walletPath: join(homedir(), '.bittensor', 'wallets'),
      walletName: 'validator',
      hotkeyName: 'default',
    });
    expect(() => loadValidatorRunnerConfig({ VALIDATOR_MNEMONIC: 'a b c', BT_WALLET_NAME: 'v' })).toThrow(/set only one validator identity: VALIDATOR_MNEMONIC, BT_WALLET_NAME/);
    expect(() => requireIdentity(loadValidatorRunnerConfig({}))).toThrow(/no validator identity/);
  });

  it('refuses SANDBOX=none without its explicit flag, and every bad value at once', () => {
    expect(loadValidatorRunnerConfig({ SANDBOX: 'none', SANDBOX_ALLOW_NONE: 'true' }).sandbox.kind).toBe('none');
    let error: unknown;
    try {
      loadValidatorRunnerConfig({ SANDBOX: 'none', RUNNER_SCAN_LIMIT: '17', RUNNER_CONCURRENCY: '0', ALLOW_PRIVATE_ARTIFACT_HOSTS: 'maybe' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'SANDBOX=none runs benchmarks unconfined; it also needs SANDBOX_ALLOW_NONE=true',
      'RUNNER_CONCURRENCY must be an integer from 1 to 64 (got "0")',
      'RUNNER_SCAN_LIMIT must be an integer from 1 to 16 (got "17")',
      'ALLOW_PRIVATE_ARTIFACT_HOSTS must be on/off or true/false (got "maybe")',
    ]);
  });

  it('refuses an unlimited file size, a file limit above the workspace quota and an unknown workspace file system', () => {
    const problems = (env: Record<string, string>): string[] => {
      try {
        loadValidatorRunnerConfig(env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problems({ SANDBOX_FILE_MB: '0' })).toEqual(['SANDBOX_FILE_MB must be an integer from 1 to 1048576 (got "0")']);
    expect(problems({ SANDBOX_FILE_MB: '64', SANDBOX_DISK_MB: '32' })).toEqual(['SANDBOX_FILE_MB (64) is larger than the workspace quota SANDBOX_DISK_MB (32)']);
    expect(problems({ SANDBOX_WORKSPACE_FS: 'xfs' })).toEqual([expect.stringMatching(/^SANDBOX_WORKSPACE_FS must be one of auto, ext4-loop, tmpfs, none/)]);
  });

  it('takes SANDBOX_GPUS as none, all, or a comma list of device indices', () => {
    const gpus = (value: string) => loadValidatorRunnerConfig({ SANDBOX_GPUS: value }).sandbox.gpus;
    expect(gpus('none')).toEqual({ kind: 'none' });
    expect(gpus('')).toEqual({ kind: 'none' });
    expect(gpus('all')).toEqual({ kind: 'all' });
    expect(gpus(' ALL ')).toEqual({ kind: 'all' });
    expect(gpus('0')).toEqual({ kind: 'indices', indices: [0] });
    expect(gpus('3, 1,63')).toEqual({ kind: 'indices', indices: [1, 3, 63] });
  });

  it('refuses a bad SANDBOX_GPUS with a message that says what it takes', () => {
    const problems = (value: string): string[] => {
      try {
        loadValidatorRunnerConfig({ SANDBOX_GPUS: value });
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    const takes = 'SANDBOX_GPUS must be none, all, or a comma list of GPU device indices 0..63 such as 0,1';
    for (const bad of ['yes', '1-2', '0,', '-1', '64', '1.5', 'gpu0', '0;1', 'all,0']) expect(problems(bad)).toEqual([`${takes} (got ${JSON.stringify(bad)})`]);
    expect(problems('0,2,0')).toEqual(['SANDBOX_GPUS names GPU 0 twice (got "0,2,0")']);
  });

  it('takes the local-stack switches and limits', () => {
    const config = loadValidatorRunnerConfig({
      COORDINATOR_URL: 'http://127.0.0.1:9000/',
      ALLOW_INSECURE_ARTIFACT_URIS: 'true',
      ALLOW_PRIVATE_ARTIFACT_HOSTS: 'true',
      ALLOW_LOCAL_REPOSITORIES: 'true',
      RUNNER_DOWNLOAD_TIMEOUT_SECONDS: '120',
      RUNNER_DOWNLOAD_MIN_BYTES_PER_SECOND: '0',
      RUNNER_WORK_DIR: '/tmp/w',
      SANDBOX_FILE_MB: '10',
      SANDBOX_DISK_MB: '64',
      SANDBOX_TMP_MB: '32',
      SANDBOX_SHM_MB: '16',
      SANDBOX_WORKSPACE_FS: 'tmpfs',
    });
    expect(config).toMatchObject({
      coordinatorUrl: 'http://127.0.0.1:9000',
      workDir: '/tmp/w',
      fetch: { allowInsecureHttp: true, allowPrivateAddresses: true, allowLocalSources: true, downloadTimeoutMs: 120 * 1000, downloadMinBytesPerSecond: 0 },
      sandbox: { limits: { fileBytes: 10 * 1024 * 1024, tmpBytes: 32 * 1024 * 1024, shmBytes: 16 * 1024 * 1024 }, workspaceBytes: 64 * 1024 * 1024, workspaceFs: 'tmpfs' },
    });
  });
});
