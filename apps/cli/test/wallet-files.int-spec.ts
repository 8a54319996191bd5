import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mnemonicGenerate } from '@polkadot/util-crypto';
import { keypairFromUri } from '@rcs/auth';
import { freePort } from '@rcs/testing';
import { EXIT } from '../src/errors';
import { rcs } from './support/run-cli';

/** Issue 35 item 8: `rcs` warns once, naming the file, when the wallet's hotkey file is readable by group or others. */
describe('rcs and the wallet files it reads', () => {
  let wallets: string;
  let hotkeyFile: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    wallets = mkdtempSync(join(tmpdir(), 'rcs-wallets-'));
    const mnemonic = mnemonicGenerate();
    mkdirSync(join(wallets, 'miner', 'hotkeys'), { recursive: true });
    hotkeyFile = join(wallets, 'miner', 'hotkeys', 'default');
    writeFileSync(hotkeyFile, JSON.stringify({ secretPhrase: mnemonic, ss58Address: (await keypairFromUri(mnemonic)).address }));
    // Nothing answers there: the command loads the key, then cannot reach the coordinator.
    env = { HOME: '/nonexistent-home', BT_WALLET_NAME: 'miner', BT_WALLET_PATH: wallets, RCS_COORDINATOR_URL: `http://127.0.0.1:${await freePort()}` };
  });

  afterAll(() => rmSync(wallets, { recursive: true, force: true }));

  it('warns on stderr, once, naming a hotkey file others can read', async () => {
    chmodSync(hotkeyFile, 0o644);
    const run = await rcs(['status', '0f8fad5b-d9cb-469f-a165-70867728950e'], env);
    expect(run.code).toBe(EXIT.unreachable);
    const warnings = run.stderr.split('\n').filter((line) => line.startsWith('rcs: warning:'));
    expect(warnings).toEqual([`rcs: warning: the keyfile ${hotkeyFile} is readable by its group and others (mode 0644); anyone who can read it holds the key: chmod 600 ${hotkeyFile}`]);
  });

  it('says nothing of a 0600 hotkey file', async () => {
    chmodSync(hotkeyFile, 0o600);
    const run = await rcs(['status', '0f8fad5b-d9cb-469f-a165-70867728950e'], env);
    expect(run.code).toBe(EXIT.unreachable);
    expect(run.stderr).not.toContain('warning');
  });
});
