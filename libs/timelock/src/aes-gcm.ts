/**
 * AES-256-GCM from the platform (`node:crypto`): the one Node API in `src`, which is why
 * tsconfig.lib.json carries Node types. The tle crate's `AESGCMStreamCipherProvider`: 12-byte
 * nonce, no associated data, output `ciphertext ‖ 16-byte tag`.
 */
import { createCipheriv, createDecipheriv } from 'node:crypto';
import { TimelockError } from './errors';

export const AES_KEY_BYTES = 32;
export const AES_NONCE_BYTES = 12;
export const AES_TAG_BYTES = 16;

export function aesGcmSeal(key: Uint8Array, nonce: Uint8Array, plaintext: Uint8Array): Uint8Array {
  const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: AES_TAG_BYTES });
  const head = cipher.update(plaintext);
  const tail = cipher.final();
  const tag = cipher.getAuthTag();
  // A plain Uint8Array, not a Buffer: callers may rely on `slice` copying.
  const out = new Uint8Array(head.length + tail.length + tag.length);
  out.set(head, 0);
  out.set(tail, head.length);
  out.set(tag, head.length + tail.length);
  return out;
}

/** The plaintext of `ciphertext ‖ tag`, or `decryption_failed` when the tag does not authenticate it. */
export function aesGcmOpen(key: Uint8Array, nonce: Uint8Array, sealed: Uint8Array): Uint8Array {
  if (sealed.length < AES_TAG_BYTES) throw new TimelockError('decryption_failed', `an AES-GCM output is at least ${AES_TAG_BYTES} bytes`);
  // authTagLength pins the tag to 16 bytes: Node would otherwise accept a truncated one.
  const decipher = createDecipheriv('aes-256-gcm', key, nonce, { authTagLength: AES_TAG_BYTES });
  decipher.setAuthTag(sealed.subarray(sealed.length - AES_TAG_BYTES));
  const head = decipher.update(sealed.subarray(0, sealed.length - AES_TAG_BYTES));
  let tail: Uint8Array;
  try {
    tail = decipher.final();
  } catch {
    throw new TimelockError('decryption_failed', 'AES-GCM refused the body: its tag does not authenticate it under the recovered key');
  }
  const out = new Uint8Array(head.length + tail.length);
  out.set(head, 0);
  out.set(tail, head.length);
  return out;
}
