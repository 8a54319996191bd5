import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, ReadStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform, TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ApiError, ErrorCode } from '@rcs/contracts';

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** Bytes received into the store's incoming folder, not yet under their name. */
export interface IncomingShard {
  tempPath: string;
  sha256: string;
  bytes: number;
}

/** 413 `body_too_large` in the §1 shape: the shard is over HELDOUT_MAX_BYTES. */
export function shardTooLarge(maxBytes: number): ApiError {
  return new ApiError(ErrorCode.BodyTooLarge, `A held-out shard may have at most ${maxBytes} bytes (HELDOUT_MAX_BYTES).`, { max_bytes: maxBytes });
}

/** Hashes and counts what passes, failing as soon as more than `maxBytes` arrive. */
class CountingHash extends Transform {
  bytes = 0;
  private readonly hash = createHash('sha256');

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      callback(shardTooLarge(this.maxBytes));
      return;
    }
    this.hash.update(chunk);
    callback(null, chunk);
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}

/**
 * HELDOUT_STORE_DIR: each shard's bytes in one file named by their SHA-256. A shard is streamed into
 * `.incoming/` and renamed into place, so a reader never sees a partial file.
 */
export class HeldoutStore {
  constructor(private readonly directory: string) {}

  private get incoming(): string {
    return join(this.directory, '.incoming');
  }

  /** The file of a shard; only ever called with a checked lowercase hex digest. */
  path(sha256: string): string {
    if (!SHA256_HEX.test(sha256)) throw new InvalidShardDigestError(sha256);
    return join(this.directory, sha256);
  }

  /** Streams the bytes into the incoming folder while hashing them; 413 past `maxBytes` (the partial file is removed). */
  async receive(source: Readable, maxBytes: number): Promise<IncomingShard> {
    await mkdir(this.incoming, { recursive: true });
    const tempPath = join(this.incoming, randomUUID());
    const counter = new CountingHash(maxBytes);
    try {
      await pipeline(source, counter, createWriteStream(tempPath, { flags: 'wx', mode: 0o600 }));
    } catch (error) {
      await this.discard(tempPath);
      throw error;
    }
    return { tempPath, sha256: counter.digest(), bytes: counter.bytes };
  }

  /** Moves received bytes under their digest (atomic; the same bytes already there are simply replaced). */
  async commit(incoming: IncomingShard): Promise<void> {
    await rename(incoming.tempPath, this.path(incoming.sha256));
  }

  async discard(tempPath: string): Promise<void> {
    await rm(tempPath, { force: true });
  }

  /** The shard's bytes and size, or null when its file is gone. */
  async open(sha256: string): Promise<{ stream: ReadStream; bytes: number } | null> {
    const path = this.path(sha256);
    try {
      const { size } = await stat(path);
      return { stream: createReadStream(path), bytes: size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async remove(sha256: string): Promise<void> {
    await rm(this.path(sha256), { force: true });
  }
}

export class InvalidShardDigestError extends Error {
  constructor(digest: string) {
    super(`not a lowercase hex SHA-256: ${digest.slice(0, 80)}`);
    this.name = 'InvalidShardDigestError';
  }
}
