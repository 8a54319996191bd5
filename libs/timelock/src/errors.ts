/**
 * Why a timelock operation refused its input:
 * - `malformed_ciphertext`: not the byte layout of a `TLECiphertext` (lengths, trailing bytes, cipher suite);
 * - `malformed_payload`: not a SCALE `WeightsTlockPayload`, or fields that cannot be encoded as one;
 * - `invalid_point`: a G1/G2 encoding that is not a canonical compressed point of the prime-order subgroup;
 * - `wrong_round`: the pulse does not open the header (another round or beacon, or a tampered `U`/`V`/`W`);
 * - `decryption_failed`: the header opened but AES-GCM refused the body (tampered body, tag or nonce).
 */
export type TimelockErrorCode = 'malformed_ciphertext' | 'malformed_payload' | 'wrong_round' | 'decryption_failed' | 'invalid_point';

export class TimelockError extends Error {
  constructor(
    readonly code: TimelockErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'TimelockError';
  }
}
