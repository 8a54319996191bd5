import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keyring } from '@polkadot/keyring';
import { u8aToHex } from '@polkadot/util';
import { cryptoWaitReady, decodeAddress, encodeAddress, mnemonicGenerate, mnemonicToMiniSecret } from '@polkadot/util-crypto';
import { loadValidatorKeypair, loadValidatorSigner, parseHotkeyFile, ValidatorKeyError } from './validator-key';

describe('validator hotkey', () => {
  let wallets: string;
  let mnemonic: string;
  let address: string;
  let seed: string;

  beforeAll(async () => {
    await cryptoWaitReady();
    wallets = mkdtempSync(join(tmpdir(), 'validator-wallets-'));
    mnemonic = mnemonicGenerate();
    const pair = new Keyring({ type: 'sr25519', ss58Format: 42 }).addFromUri(mnemonic);
    address = pair.address;
    // btwallet stores the BIP39 mini secret as secretSeed.
    seed = u8aToHex(mnemonicToMiniSecret(mnemonic));
  });

  afterAll(() => rmSync(wallets, { recursive: true, force: true }));

  /** A hotkey file as btcli writes it: `<wallets>/<name>/hotkeys/<hotkey>`. */
  function writeHotkey(name: string, fields: Record<string, unknown> | string): void {
    mkdirSync(join(wallets, name, 'hotkeys'), { recursive: true });
    writeFileSync(join(wallets, name, 'hotkeys', 'default'), typeof fields === 'string' ? fields : JSON.stringify(fields));
  }

  const wallet = (name: string) => ({ kind: 'wallet' as const, walletPath: wallets, walletName: name, hotkeyName: 'default' });

  it('signs with the key of a btcli hotkey file holding the secret phrase', async () => {
    writeHotkey('phrase', { accountId: '0x00', publicKey: '0x00', secretPhrase: mnemonic, secretSeed: seed, ss58Address: address });
    expect((await loadValidatorSigner(wallet('phrase'))).hotkey).toBe(address);
  });

  it('derives the same key from the secret seed alone', async () => {
    writeHotkey('seed', { secretSeed: seed, ss58Address: address });
    expect((await loadValidatorSigner(wallet('seed'))).hotkey).toBe(address);
  });

  it('takes a file whose ss58Address uses another network prefix, and signs and prints the canonical (prefix 42) form', async () => {
    const polkadotSpelling = encodeAddress(decodeAddress(address), 0);
    expect(polkadotSpelling).not.toBe(address);
    writeHotkey('prefix0', { secretPhrase: mnemonic, ss58Address: polkadotSpelling });
    const signer = await loadValidatorSigner(wallet('prefix0'));
    expect(signer.hotkey).toBe(address);
    expect(signer.signRequest({ method: 'POST', url: '/api/v1/validator/jobs/claim', body: '{}' })['X-Hotkey']).toBe(address);
  });

  it('refuses a file whose ss58Address is not an address, naming the field', async () => {
    writeHotkey('garbage', { secretPhrase: mnemonic, ss58Address: '0x' + 'ab'.repeat(32) });
    await expect(loadValidatorSigner(wallet('garbage'))).rejects.toThrow(/"ss58Address" 0xabab[0-9a-f]* is not an SS58 address/);
  });

  it('refuses a file whose secret does not derive its ss58Address', async () => {
    const other = new Keyring({ type: 'sr25519' }).addFromUri(mnemonicGenerate()).address;
    writeHotkey('mismatch', { secretPhrase: mnemonic, ss58Address: other });
    await expect(loadValidatorSigner(wallet('mismatch'))).rejects.toThrow(/not the file's ss58Address/);
  });

  it('refuses encrypted, public-only, malformed and missing hotkey files with the path in the message', async () => {
    writeHotkey('encrypted', '$NACL0123');
    await expect(loadValidatorSigner(wallet('encrypted'))).rejects.toThrow(/encrypted/);
    writeHotkey('public', { ss58Address: address, publicKey: '0x00' });
    await expect(loadValidatorSigner(wallet('public'))).rejects.toThrow(/neither "secretPhrase" nor "secretSeed"/);
    await expect(loadValidatorSigner(wallet('absent'))).rejects.toThrow(join(wallets, 'absent', 'hotkeys', 'default'));
    expect(() => parseHotkeyFile('{"secretSeed": "0x1234"}', 'f')).toThrow(ValidatorKeyError);
    expect(() => parseHotkeyFile('not json', 'f')).toThrow(/not JSON/);
  });

  it('loads a mnemonic or secret URI, and never quotes a bad one', async () => {
    expect((await loadValidatorSigner({ kind: 'uri', variable: 'VALIDATOR_MNEMONIC', uri: mnemonic })).hotkey).toBe(address);
    expect((await loadValidatorSigner({ kind: 'uri', variable: 'VALIDATOR_SECRET_URI', uri: '//Alice' })).hotkey).toBe('5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY');
    const bad = 'abandon abandon secret words';
    await expect(loadValidatorSigner({ kind: 'uri', variable: 'VALIDATOR_MNEMONIC', uri: bad })).rejects.toThrow(/VALIDATOR_MNEMONIC is not a valid/);
    await expect(loadValidatorSigner({ kind: 'uri', variable: 'VALIDATOR_MNEMONIC', uri: bad })).rejects.not.toThrow(/secret words/);
  });

  describe('keyfile exposure (issue 35 item 8)', () => {
    const hotkeyPath = (name: string) => join(wallets, name, 'hotkeys', 'default');

    it('warns once, naming the file, when the hotkey file is readable by group or others', async () => {
      writeHotkey('exposed', { secretPhrase: mnemonic, ss58Address: address });
      chmodSync(hotkeyPath('exposed'), 0o644);
      const warnings: string[] = [];
      const warn = (message: string) => warnings.push(message);
      expect((await loadValidatorKeypair(wallet('exposed'), warn)).address).toBe(address);
      await loadValidatorKeypair(wallet('exposed'), warn);
      expect(warnings).toEqual([
        `the keyfile ${hotkeyPath('exposed')} is readable by its group and others (mode 0644); anyone who can read it holds the key: chmod 600 ${hotkeyPath('exposed')}`,
      ]);
    });

    it('says nothing of a 0600 hotkey file, and names a group-only exposure as such', async () => {
      writeHotkey('private', { secretPhrase: mnemonic, ss58Address: address });
      chmodSync(hotkeyPath('private'), 0o600);
      writeHotkey('group', { secretPhrase: mnemonic, ss58Address: address });
      chmodSync(hotkeyPath('group'), 0o640);
      const warnings: string[] = [];
      await loadValidatorKeypair(wallet('private'), (message) => warnings.push(message));
      await loadValidatorKeypair(wallet('group'), (message) => warnings.push(message));
      expect(warnings).toEqual([expect.stringContaining(`${hotkeyPath('group')} is readable by its group (mode 0640)`)]);
    });

    it('never reads the coldkey: a wallet whose coldkey would block any reader still loads its hotkey', async () => {
      writeHotkey('fifo', { secretPhrase: mnemonic, ss58Address: address });
      chmodSync(hotkeyPath('fifo'), 0o600);
      // A named pipe with no writer: opening it for reading blocks until one comes, so a read of it would never return.
      execFileSync('mkfifo', [join(wallets, 'fifo', 'coldkey')]);
      expect((await loadValidatorKeypair(wallet('fifo'), () => undefined)).address).toBe(address);
    });
  });
});
