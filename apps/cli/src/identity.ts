import type { KeyringPair } from '@polkadot/keyring/types';
import {
  BtAuthSigner,
  hotkeyFilePath,
  type KeyfileWarn,
  keypairFromHotkeyFilePath,
  loadValidatorKeypair,
  ValidatorKeyError,
} from '@rcs/auth';
import type { IdentitySettings } from './config/settings';
import { CliUsageError } from './errors';

/** What to tell someone who configured no identity. */
export const NO_IDENTITY =
  'no identity: pass --wallet-name (with --wallet-hotkey, --wallet-path; or BT_WALLET_NAME, BT_WALLET_HOTKEY, BT_WALLET_PATH) for a Bittensor wallet, --wallet-file (RCS_WALLET_FILE) for one hotkey file, or set RCS_KEY_URI for a development key';

/**
 * The hotkey that signs: a Bittensor wallet's hotkey file (read as the validator runner reads it, any SS58
 * prefix in its `ss58Address`) or a secret URI. The secret never appears in an error message. Only the hotkey file is
 * read (never the coldkey); `warn` hears, once, that it is readable by group or others.
 */
export async function loadKeypair(identity: IdentitySettings, warn?: KeyfileWarn): Promise<KeyringPair> {
  const given = [identity.keyUri !== null, identity.walletName !== null, identity.walletFile !== null].filter(Boolean).length;
  if (given > 1) throw new CliUsageError('give one identity: --key-uri (RCS_KEY_URI), --wallet-name (BT_WALLET_NAME) or --wallet-file (RCS_WALLET_FILE)');
  try {
    // `--wallet-file`: a hotkey file read as the wallet layout's is (the same warning, the same checks), wherever it lies.
    if (identity.walletFile !== null) return await keypairFromHotkeyFilePath(identity.walletFile, warn, 'wallet file');
    if (identity.keyUri !== null) return await loadValidatorKeypair({ kind: 'uri', variable: 'VALIDATOR_SECRET_URI', uri: identity.keyUri });
    if (identity.walletName !== null) {
      return await loadValidatorKeypair({ kind: 'wallet', walletName: identity.walletName, hotkeyName: identity.walletHotkey, walletPath: identity.walletPath }, warn);
    }
  } catch (error) {
    if (!(error instanceof ValidatorKeyError)) throw error;
    // The runner's message names its own variable for a URI; ours names the flag.
    throw new CliUsageError(identity.keyUri !== null ? '--key-uri (RCS_KEY_URI) is not a valid mnemonic or secret URI' : error.message);
  }
  throw new CliUsageError(NO_IDENTITY);
}

export async function loadSigner(identity: IdentitySettings): Promise<BtAuthSigner> {
  return new BtAuthSigner(await loadKeypair(identity));
}

/** Where the wallet's hotkey file is, for messages. */
export function walletHotkeyPath(identity: IdentitySettings): string | null {
  if (identity.walletFile !== null) return identity.walletFile;
  return identity.walletName === null ? null : hotkeyFilePath({ kind: 'wallet', walletName: identity.walletName, hotkeyName: identity.walletHotkey, walletPath: identity.walletPath });
}
