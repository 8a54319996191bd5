export { TimelockError, type TimelockErrorCode } from './errors';
export { decodeWeightsPayload, encodeWeightsPayload, type WeightsTlockPayload } from './weights-payload';
export { AES_GCM_CIPHER_SUITE, parseTimelockCiphertext, serializeTimelockCiphertext, TLE_OVERHEAD_BYTES, type TimelockCiphertextParts } from './ciphertext';
export { devBeacon, QUICKNET_DST, roundIdentity, verifyPulse, type DevBeacon } from './beacon';
export { timelockDecrypt, timelockEncrypt, type EncryptRandomness } from './tlock';
