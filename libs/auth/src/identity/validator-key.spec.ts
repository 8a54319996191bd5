import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keyring } from '@polkadot/keyring';
import { u8aToHex } from '@polkadot/util';
import { cryptoWaitReady, decodeAddress, encodeAddress, mnemonicGenerate, mnemonicToMiniSecret } from '@polkadot/util-crypto';
import { loadValidatorSigner, parseHotkeyFile, ValidatorKeyError } from './validator-key';

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
});
