const U64_MAX = (1n << 64n) - 1n;

/** The round as a u64, from a bigint or a safe non-negative integer. */
export function roundOf(round: bigint | number): bigint {
  const value = typeof round === 'bigint' ? round : Number.isSafeInteger(round) ? BigInt(round) : -1n;
  if (value < 0n || value > U64_MAX) throw new RangeError(`a round is a u64 integer, got ${String(round)}`);
  return value;
}

/** `value` as 8 bytes, big-endian when `bigEndian`, else little-endian. */
export function u64Bytes(value: bigint, bigEndian: boolean): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, value, !bigEndian);
  return out;
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** `a ⊕ b` for two arrays of the same length. */
export function xorBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length !== b.length) throw new RangeError(`xor of ${a.length} and ${b.length} bytes`);
  const out = new Uint8Array(a.length);
  for (let i = 0; i < a.length; i += 1) out[i] = a[i] ^ b[i];
  return out;
}

/** A Uint8Array (a Buffer too), also one made in another realm (a vm context), as noble checks it. */
export function isBytes(value: unknown): value is Uint8Array {
  return value instanceof Uint8Array || (ArrayBuffer.isView(value) && value.constructor.name === 'Uint8Array');
}

/**
 * A plain Uint8Array copy of the caller's bytes. A Buffer's `slice` is a view, not a copy: noble
 * clears the flag bits of a point encoding in the copy it takes with `slice`, which for a Buffer is
 * the caller's memory, and what we hand back must not alias it either.
 */
export function ownBytes(value: Uint8Array): Uint8Array {
  return new Uint8Array(value);
}

export function assertBytes(value: Uint8Array, length: number, what: string): void {
  if (!isBytes(value) || value.length !== length) {
    throw new RangeError(`${what} must be ${length} bytes, got ${isBytes(value) ? value.length : typeof value}`);
  }
}
