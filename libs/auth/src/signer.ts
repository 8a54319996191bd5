import { Keyring } from '@polkadot/keyring';
import type { KeyringPair } from '@polkadot/keyring/types';
import { cryptoWaitReady } from '@polkadot/util-crypto';
import { canonicalBody } from './canonical-body';
import { buildMessage, splitUrl } from './message';
import { poolAuthMessage, recipientUpdateMessage } from './pool-auth';

/** A signer needs an sr25519 key (Bittensor hotkeys). */
export class SignerKeyTypeError extends Error {
  constructor(type: string) {
    super(`BT-AUTH-V1 signs with sr25519 keys, not ${type}`);
    this.name = 'SignerKeyTypeError';
  }
}

export interface SignedHeaders {
  'X-Hotkey': string;
  'X-Timestamp': string;
  'X-Signature': string;
}

export interface PoolSignedHeaders {
  'X-Key': string;
  'X-Timestamp': string;
  'X-Signature': string;
}

export interface RequestToSign {
  method: string;
  /** Path and raw query exactly as they will be sent, e.g. `/api/v1/submissions?limit=5`. */
  url: string;
  /** The exact JSON text that will be sent; its canonical form is signed. */
  body?: string;
  /** Unix seconds; defaults to now. */
  timestamp?: number | string;
}

/** The client half of BT-AUTH-V1 and of the pool messages. */
export class BtAuthSigner {
  constructor(private readonly pair: KeyringPair) {
    if (pair.type !== 'sr25519') throw new SignerKeyTypeError(pair.type);
  }

  /** SS58 address of the signing key. */
  get hotkey(): string {
    return this.pair.address;
  }

  signRequest(request: RequestToSign): SignedHeaders {
    const timestamp = String(request.timestamp ?? nowSeconds());
    const { path, query } = splitUrl(request.url);
    const message = buildMessage({
      method: request.method,
      path,
      query,
      timestamp,
      canonicalBody: canonicalBody(request.body),
    });
    return { 'X-Hotkey': this.hotkey, 'X-Timestamp': timestamp, 'X-Signature': this.sign(message) };
  }

  signPool(ts: number | string = nowSeconds()): PoolSignedHeaders {
    return this.poolHeaders(ts, poolAuthMessage(ts));
  }

  signRecipientUpdate(ts: number | string, coldkey: string): PoolSignedHeaders {
    return this.poolHeaders(ts, recipientUpdateMessage(ts, coldkey));
  }

  private poolHeaders(ts: number | string, message: string): PoolSignedHeaders {
    return { 'X-Key': this.hotkey, 'X-Timestamp': String(ts), 'X-Signature': this.sign(message) };
  }

  private sign(message: string): string {
    return `0x${Buffer.from(this.pair.sign(message)).toString('hex')}`;
  }
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** An sr25519 key pair from a mnemonic or secret URI (`//Alice`, `<mnemonic>//hard/soft`). */
export async function keypairFromUri(uri: string, ss58Format = 42): Promise<KeyringPair> {
  await cryptoWaitReady();
  return new Keyring({ type: 'sr25519', ss58Format }).addFromUri(uri);
}
