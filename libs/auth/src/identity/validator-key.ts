import { readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { Keyring } from '@polkadot/keyring';
import type { KeyringPair } from '@polkadot/keyring/types';
import { cryptoWaitReady, mnemonicValidate } from '@polkadot/util-crypto';
import { BtAuthSigner } from '../signer';
import { CANONICAL_SS58_PREFIX, canonicalSs58 } from '../signature';

/**
 * Where a validator hotkey comes from (the runner and the weight setter read it the same way);
 * secrets stay here and in the derived key pair only.
 */
export type IdentitySource =
  | { kind: 'uri'; variable: 'VALIDATOR_MNEMONIC' | 'VALIDATOR_SECRET_URI'; uri: string }
  | { kind: 'wallet'; walletPath: string; walletName: string; hotkeyName: string };

/** The part of an app's environment reader that identity needs (`EnvReader` of `@rcs/http` fits). */
export interface IdentityEnv {
  readonly problems: string[];
  optional(name: string): string | null;
  string(name: string, fallback: string): string;
}

/** One identity source at most: `VALIDATOR_MNEMONIC`, `VALIDATOR_SECRET_URI`, or a wallet (`BT_WALLET_NAME`, `BT_WALLET_PATH`, `BT_WALLET_HOTKEY`). */
export function readValidatorIdentity(read: IdentityEnv): IdentitySource | null {
  const mnemonic = read.optional('VALIDATOR_MNEMONIC');
  const secretUri = read.optional('VALIDATOR_SECRET_URI');
  const walletName = read.optional('BT_WALLET_NAME');
  const given = [mnemonic && 'VALIDATOR_MNEMONIC', secretUri && 'VALIDATOR_SECRET_URI', walletName && 'BT_WALLET_NAME'].filter(Boolean);
  if (given.length > 1) {
    read.problems.push(`set only one validator identity: ${given.join(', ')} are all set`);
    return null;
  }
  if (mnemonic) return { kind: 'uri', variable: 'VALIDATOR_MNEMONIC', uri: mnemonic };
  if (secretUri) return { kind: 'uri', variable: 'VALIDATOR_SECRET_URI', uri: secretUri };
  if (!walletName) return null;
  return {
    kind: 'wallet',
    walletPath: resolve(expandHome(read.string('BT_WALLET_PATH', '~/.bittensor/wallets'))),
    walletName,
    hotkeyName: read.string('BT_WALLET_HOTKEY', 'default'),
  };
}

/** What to tell an operator who configured no identity. */
export const NO_VALIDATOR_IDENTITY = 'no validator identity: set VALIDATOR_MNEMONIC, VALIDATOR_SECRET_URI, or BT_WALLET_NAME (with BT_WALLET_PATH, BT_WALLET_HOTKEY)';

/** `~` and `~/…` under `home` (the process's home by default), as a shell expands a wallet path; any other path as given. */
export function expandHome(path: string, home = homedir()): string {
  if (path === '~') return home;
  return path.startsWith('~/') ? join(home, path.slice(2)) : path;
}

/** The validator hotkey could not be loaded; the message says which file or variable and why. */
export class ValidatorKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ValidatorKeyError';
  }
}

/** The fields of a Bittensor keyfile (btwallet's `serialized_keypair_to_keyfile_data`) the runner reads. */
export interface HotkeyFile {
  secretPhrase: string | null;
  secretSeed: string | null;
  ss58Address: string | null;
}

// btwallet marks encrypted keyfiles with these prefixes; hotkeys are normally stored in clear.
const ENCRYPTED_PREFIXES = ['$NACL', '$ANSIBLE_VAULT', 'gAAAAA'];
const SEED = /^0x[0-9a-fA-F]{64}$/;

/** Parses a hotkey file's text; refuses encrypted files and files with neither a phrase nor a seed. */
export function parseHotkeyFile(text: string, path: string): HotkeyFile {
  if (ENCRYPTED_PREFIXES.some((prefix) => text.startsWith(prefix))) {
    throw new ValidatorKeyError(`${path} is encrypted; the runner needs the hotkey in clear (as btcli writes hotkeys)`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ValidatorKeyError(`${path} is not a Bittensor keyfile (not JSON)`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new ValidatorKeyError(`${path} is not a Bittensor keyfile (not a JSON object)`);
  }
  const fields = data as Record<string, unknown>;
  const field = (name: string): string | null => (typeof fields[name] === 'string' && fields[name] !== '' ? (fields[name] as string) : null);
  const file: HotkeyFile = { secretPhrase: field('secretPhrase'), secretSeed: field('secretSeed'), ss58Address: field('ss58Address') };
  if (file.secretPhrase === null && file.secretSeed === null) {
    throw new ValidatorKeyError(`${path} holds neither "secretPhrase" nor "secretSeed"; a public-only keyfile cannot sign`);
  }
  if (file.secretPhrase !== null && !mnemonicValidate(file.secretPhrase)) {
    throw new ValidatorKeyError(`${path}: "secretPhrase" is not a valid BIP39 mnemonic`);
  }
  if (file.secretPhrase === null && !SEED.test(file.secretSeed ?? '')) {
    throw new ValidatorKeyError(`${path}: "secretSeed" must be 0x and 64 hex digits`);
  }
  return file;
}

/**
 * The sr25519 pair of a hotkey file (the phrase wins over the seed, as btwallet reads it), checked against its
 * ss58Address, which may be written with any network prefix: one key is one identity (DECISIONS.md §2 Identity).
 */
export async function keypairFromHotkeyFile(file: HotkeyFile, path: string): Promise<KeyringPair> {
  await cryptoWaitReady();
  const pair = canonicalKeyring().addFromUri((file.secretPhrase ?? file.secretSeed) as string);
  if (file.ss58Address !== null) {
    const declared = canonicalSs58(file.ss58Address);
    if (declared === null) throw new ValidatorKeyError(`${path}: "ss58Address" ${file.ss58Address} is not an SS58 address`);
    if (declared !== pair.address) throw new ValidatorKeyError(`${path}: the secret derives ${pair.address}, not the file's ss58Address ${file.ss58Address}`);
  }
  return pair;
}

/** Pairs whose address is the canonical SS58 form (prefix 42): what the runner sends as X-Hotkey and prints. */
function canonicalKeyring(): Keyring {
  return new Keyring({ type: 'sr25519', ss58Format: CANONICAL_SS58_PREFIX });
}

/** `<wallets>/<name>/hotkeys/<hotkey>`, the layout btcli writes. */
export function hotkeyFilePath(source: Extract<IdentitySource, { kind: 'wallet' }>): string {
  return join(source.walletPath, source.walletName, 'hotkeys', source.hotkeyName);
}

/** The signer of every coordinator call, from the configured identity. */
export async function loadValidatorSigner(source: IdentitySource): Promise<BtAuthSigner> {
  return new BtAuthSigner(await loadValidatorKeypair(source));
}

/** Keyfiles already warned about in this process: each is named once, however often it is read. */
const warnedKeyfiles = new Set<string>();

/** Where a keyfile warning goes: Node's process warnings (stderr) unless the caller says otherwise. */
export type KeyfileWarn = (message: string) => void;

const processWarning: KeyfileWarn = (message) => process.emitWarning(message, 'KeyfilePermissionWarning');

/**
 * Warns once per file and process when a keyfile is readable by its group or by others (btcli writes them 0600): its
 * secret is then anyone's on the machine. Nothing else is read of the file here.
 */
export async function warnIfKeyfileExposed(path: string, warn: KeyfileWarn = processWarning): Promise<void> {
  let mode: number;
  try {
    mode = (await stat(path)).mode;
  } catch {
    return; // reading it reports what is wrong
  }
  if ((mode & 0o077) === 0 || warnedKeyfiles.has(path)) return;
  warnedKeyfiles.add(path);
  const who = [(mode & 0o070) !== 0 && 'its group', (mode & 0o007) !== 0 && 'others'].filter(Boolean).join(' and ');
  warn(`the keyfile ${path} is readable by ${who} (mode ${(mode & 0o777).toString(8).padStart(4, '0')}); anyone who can read it holds the key: chmod 600 ${path}`);
}

/**
 * The validator's sr25519 key pair (coordinator calls and chain extrinsics), from the configured identity. Of a wallet
 * only the hotkey file is read (never the coldkey, which signing never needs), after a warning when it is exposed.
 */
export async function loadValidatorKeypair(source: IdentitySource, warn: KeyfileWarn = processWarning): Promise<KeyringPair> {
  await cryptoWaitReady();
  if (source.kind === 'uri') {
    // The keyring takes a short non-mnemonic as a raw seed: a mistyped mnemonic would silently be another key.
    if (source.variable === 'VALIDATOR_MNEMONIC' && !mnemonicValidate(source.uri.split('//')[0].trim())) {
      throw new ValidatorKeyError('VALIDATOR_MNEMONIC is not a valid BIP39 mnemonic');
    }
    try {
      return canonicalKeyring().addFromUri(source.uri);
    } catch (error) {
      // The keyring's message may quote the secret: name only the variable.
      throw new ValidatorKeyError(`${source.variable} is not a valid mnemonic or secret URI (${(error as Error).name})`);
    }
  }
  return keypairFromHotkeyFilePath(hotkeyFilePath(source), warn);
}

/**
 * The key pair of a Bittensor hotkey file at `path` (a wallet's, or one given on its own: `what` names it in
 * messages), after a warning when it is exposed. Every problem is a `ValidatorKeyError` that never quotes the secret.
 */
export async function keypairFromHotkeyFilePath(path: string, warn: KeyfileWarn = processWarning, what = 'hotkey file'): Promise<KeyringPair> {
  await warnIfKeyfileExposed(path, warn);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ValidatorKeyError(`cannot read the ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    return await keypairFromHotkeyFile(parseHotkeyFile(text.trim(), path), path);
  } catch (error) {
    if (error instanceof ValidatorKeyError) throw error;
    // The keyring's message may quote the secret: name only the file.
    throw new ValidatorKeyError(`${path}: the secret is not a valid mnemonic or seed (${(error as Error).name})`);
  }
}
