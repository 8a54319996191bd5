import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeAddress } from '@polkadot/util-crypto';
import { keypairFromUri } from '@rcs/auth';
import { freePort, suiteTempDir } from '@rcs/testing';
import { rcs } from '../test/support/run-cli';
import { artifactDigest, ProgressBar } from './artifact/artifact-digest';
import { configFilePath, readSettings } from './config/settings';
import { EXIT } from './errors';
import { workingTreePatch } from './git/working-tree-patch';
import { loadKeypair } from './identity';

const MNEMONIC = 'bottom drive obey lake curtain smoke basket hold race lonely fit walk';

describe('rcs without a stack', () => {
  let dir = '';
  suiteTempDir('rcs-cli-', (path) => (dir = path));
  const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ HOME: join(dir, 'home'), ...extra });

  it('--help lists every command, and each group lists its own', async () => {
    const help = await rcs(['--help'], env());
    expect(help.code).toBe(EXIT.ok);
    for (const command of ['tasks', 'task <id>', 'onboard <id>', 'claim [task]', 'submit', 'status <submission>', 'watch <submission>', 'cancel <claim>', 'peer-evaluate', 'payout', 'recipient', 'validator', 'admin']) {
      expect(help.stdout).toContain(`rcs ${command}`);
    }
    expect(help.stdout).toMatch(/Exit codes: 0 success, 1 refused by the server .*, 2 usage, 3 unreachable/);
    expect((await rcs(['payout', '--help'], env())).stdout).toMatch(/rcs payout status[\s\S]*rcs payout verify[\s\S]*rcs payout claim/);
    expect((await rcs(['admin', 'task', '--help'], env())).stdout).toMatch(/create[\s\S]*pause[\s\S]*resume[\s\S]*close/);
  });

  it('exit 2 for usage: an unknown command, a missing argument, no identity, a bad config file', async () => {
    expect(await rcs(['frobnicate'], env())).toMatchObject({ code: EXIT.usage, stderr: expect.stringContaining('Unknown argument: frobnicate') });
    expect(await rcs(['claim'], env())).toMatchObject({ code: EXIT.usage, stderr: expect.stringContaining('name a task, or a work item') });
    expect(await rcs(['submit', '--claim', 'c'], env())).toMatchObject({ code: EXIT.usage, stderr: expect.stringContaining('give --summary (or a --sidecar with a summary)') });
    expect(await rcs(['claim', 'some-task'], env())).toMatchObject({ code: EXIT.usage, stderr: expect.stringContaining('no identity') });
    expect(await rcs(['admin', 'planner', 'run'], env())).toMatchObject({ code: EXIT.usage, stderr: expect.stringContaining('RCS_ADMIN_TOKEN') });
    const xdg = join(dir, 'bad-xdg');
    mkdirSync(join(xdg, 'rcs'), { recursive: true });
    writeFileSync(join(xdg, 'rcs', 'config.json'), '{"coordinator": "x"}');
    expect(await rcs(['tasks'], env({ XDG_CONFIG_HOME: xdg }))).toMatchObject({ code: EXIT.usage, stderr: expect.stringContaining('unknown keys: coordinator') });
  });

  it('exit 3 when the coordinator does not answer', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const run = await rcs(['tasks', '--url', closed], env());
    expect(run).toMatchObject({ code: EXIT.unreachable, stderr: expect.stringContaining('unreachable') });
  });

  it('reads the config file under XDG_CONFIG_HOME, else HOME; flags beat variables beat the file', () => {
    const xdg = join(dir, 'xdg');
    mkdirSync(join(xdg, 'rcs'), { recursive: true });
    writeFileSync(join(xdg, 'rcs', 'config.json'), JSON.stringify({ coordinator_url: 'http://file:1/', pool_url: 'http://pool-file:2', wallet_name: 'miner', chain: { CHAIN: 'polkadot', CHAIN_WS_URL: 'ws://node:9944' } }));
    expect(configFilePath({ XDG_CONFIG_HOME: xdg, HOME: '/nowhere' })).toBe(join(xdg, 'rcs', 'config.json'));
    expect(configFilePath({ HOME: '/home/m' })).toBe('/home/m/.config/rcs/config.json');
    const fromFile = readSettings({}, { XDG_CONFIG_HOME: xdg, HOME: '/home/m' });
    expect(fromFile).toMatchObject({ coordinatorUrl: 'http://file:1', poolUrl: 'http://pool-file:2', identity: { walletName: 'miner', walletHotkey: 'default', walletPath: '/home/m/.bittensor/wallets' } });
    expect(fromFile.chainEnv).toMatchObject({ CHAIN: 'polkadot', CHAIN_WS_URL: 'ws://node:9944' });
    const fromEnv = readSettings({}, { XDG_CONFIG_HOME: xdg, RCS_COORDINATOR_URL: 'http://env:3', BT_WALLET_NAME: 'other', CHAIN: 'dev' });
    expect(fromEnv).toMatchObject({ coordinatorUrl: 'http://env:3', identity: { walletName: 'other' }, chainEnv: { CHAIN: 'dev' } });
    expect(readSettings({ url: 'http://flag:4', walletName: 'flagged' }, { XDG_CONFIG_HOME: xdg, RCS_COORDINATOR_URL: 'http://env:3' })).toMatchObject({ coordinatorUrl: 'http://flag:4', identity: { walletName: 'flagged' } });
  });

  it("takes the running stack's chain settings from DATA_DIR/stack.json, after the environment and the file", () => {
    const dataDir = join(dir, 'data2');
    mkdirSync(dataDir, { recursive: true });
    const chain_env = { CHAIN: 'dev', NETUID: '7', REDIS_URL: 'redis://127.0.0.1:6380', DEV_CHAIN_BLOCK_TIME_MS: '1000' };
    writeFileSync(join(dataDir, 'stack.json'), JSON.stringify({ coordinator_url: 'http://127.0.0.1:9000', chain_env }));
    const base = { XDG_CONFIG_HOME: join(dir, 'no-config'), DATA_DIR: dataDir };
    // Before, a stack on other ports was paid from the default Redis and counted 12-s blocks.
    expect(readSettings({}, base).chainEnv).toEqual(chain_env);
    expect(readSettings({}, { ...base, REDIS_URL: 'redis://other:6379' }).chainEnv).toMatchObject({ REDIS_URL: 'redis://other:6379', DEV_CHAIN_BLOCK_TIME_MS: '1000' });
    expect(readSettings({}, { ...base, DATA_DIR: join(dir, 'no-stack') }).chainEnv).toEqual({ CHAIN: 'dev', NETUID: '1' });
  });

  it('loads a Bittensor wallet hotkey whose ss58Address is written with any network prefix, and refuses a mismatch', async () => {
    const canonical = (await keypairFromUri(MNEMONIC)).address;
    for (const prefix of [42, 0, 2, 94]) {
      const walletPath = join(dir, `wallets-${prefix}`);
      mkdirSync(join(walletPath, 'miner', 'hotkeys'), { recursive: true });
      writeFileSync(join(walletPath, 'miner', 'hotkeys', 'hk'), JSON.stringify({ secretPhrase: MNEMONIC, ss58Address: encodeAddress(canonical, prefix), accountId: '0x' }));
      const pair = await loadKeypair({ keyUri: null, walletFile: null, walletName: 'miner', walletHotkey: 'hk', walletPath });
      // --wallet-file: the same file by its path (BitSota's client takes a keyfile path too).
      expect((await loadKeypair({ keyUri: null, walletFile: join(walletPath, 'miner', 'hotkeys', 'hk'), walletName: null, walletHotkey: 'default', walletPath: '/nowhere' })).address).toBe(canonical);
      expect(pair.address).toBe(canonical);
    }
    const walletPath = join(dir, 'wallets-wrong');
    mkdirSync(join(walletPath, 'miner', 'hotkeys'), { recursive: true });
    writeFileSync(join(walletPath, 'miner', 'hotkeys', 'default'), JSON.stringify({ secretPhrase: MNEMONIC, ss58Address: (await keypairFromUri('//Bob')).address }));
    const run = await rcs(['claim', 't', '--wallet-name', 'miner', '--wallet-path', walletPath], env());
    expect(run).toMatchObject({ code: EXIT.usage, stderr: expect.stringContaining("not the file's ss58Address") });
    expect(run.stderr).not.toContain(MNEMONIC);
    const byFile = await rcs(['claim', 't', '--wallet-file', join(walletPath, 'miner', 'hotkeys', 'default')], env());
    expect(byFile).toMatchObject({ code: EXIT.usage, stderr: expect.stringContaining("not the file's ss58Address") });
    expect(byFile.stderr).not.toContain(MNEMONIC);
    expect(await rcs(['claim', 't', '--wallet-file', join(walletPath, 'missing')], env())).toMatchObject({ code: EXIT.usage, stderr: expect.stringContaining('cannot read the wallet file') });
    expect(await rcs(['claim', 't', '--wallet-file', 'x', '--wallet-name', 'miner'], env())).toMatchObject({ code: EXIT.usage, stderr: expect.stringContaining('give one identity') });
  });

  it('patches the working tree against the base: edits, new files and commits after it, without touching the index', async () => {
    const repo = join(dir, 'repo');
    mkdirSync(repo);
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@rcs.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: repo, encoding: 'utf8' }).trim();
    git('init', '-q');
    writeFileSync(join(repo, 'model.py'), 'SCALE = 1.0\n');
    git('add', '.');
    git('commit', '-q', '-m', 'base');
    const base = git('rev-parse', 'HEAD');
    writeFileSync(join(repo, 'model.py'), 'SCALE = 1.5\n');
    writeFileSync(join(repo, 'extra.py'), 'X = 1\n');
    const patch = await workingTreePatch(repo, base);
    expect(patch).toContain('+SCALE = 1.5');
    expect(patch).toContain('new file mode 100644');
    expect(patch).toContain('+++ b/extra.py');
    expect(git('status', '--porcelain')).toBe('M model.py\n?? extra.py');
    git('commit', '-q', '-am', 'after the base');
    expect(await workingTreePatch(repo, base)).toBe(patch);
    await expect(workingTreePatch(repo, 'f'.repeat(40))).rejects.toThrow(/is not in/);
  });

  it('hashes an artifact as a stream with a progress bar (one line when done off a terminal)', async () => {
    const file = join(dir, 'artifact.bin');
    writeFileSync(file, Buffer.alloc(5 * 1024 * 1024 + 3, 7));
    let progress = '';
    const digest = await artifactDigest(file, (total) => new ProgressBar((text) => (progress += text), false, 'sha256', total));
    const expected = execFileSync('sha256sum', [file], { encoding: 'utf8' }).split(' ')[0];
    expect(digest).toEqual({ sha256: expected, sizeBytes: 5 * 1024 * 1024 + 3 });
    // Before, a line per tenth: 11 lines in a log for one file.
    expect(progress).toBe(`sha256 [${'#'.repeat(30)}] 100%  5.0 MiB / 5.0 MiB\n`);
    let redrawn = '';
    await artifactDigest(file, (total) => new ProgressBar((text) => (redrawn += text), true, 'sha256', total));
    expect(redrawn).toMatch(/^\rsha256 \[ {30}\] {3}0% [\s\S]*\rsha256 \[#{30}\] 100% {2}5\.0 MiB \/ 5\.0 MiB\n$/);
  });
});
