import { MerkleInputError } from './errors';

export type Hex = `0x${string}`;

const HEX_OF_BYTE = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** Lower-case `0x…` spelling of bytes. */
export function toHex(bytes: Uint8Array): Hex {
  let out = '0x';
  for (let i = 0; i < bytes.length; i += 1) out += HEX_OF_BYTE[bytes[i]];
  return out as Hex;
}

/** Bytes of a `0x…` hex string (either case); `length` in bytes when given. */
export function fromHex(text: string, length?: number): Uint8Array {
  if (!/^0x(?:[0-9a-fA-F]{2})*$/.test(text)) throw new MerkleInputError(`not 0x-prefixed hex bytes: ${JSON.stringify(text.slice(0, 80))}`);
  const bytes = new Uint8Array((text.length - 2) / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(text.slice(2 + 2 * i, 4 + 2 * i), 16);
  if (length !== undefined && bytes.length !== length) throw new MerkleInputError(`expected ${length} bytes, got ${bytes.length}`);
  return bytes;
}
