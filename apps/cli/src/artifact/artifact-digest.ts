import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { CliUsageError } from '../errors';

export interface ArtifactDigest {
  sha256: string;
  sizeBytes: number;
}

/** Draws `[#####     ]  42%  4.2 MiB / 10.0 MiB`; in place on a terminal, one line per 10% otherwise (logs stay short). */
export class ProgressBar {
  private lastDecile = -1;

  constructor(
    private readonly write: (text: string) => void,
    private readonly tty: boolean,
    private readonly label: string,
    private readonly total: number,
  ) {}

  update(done: number): void {
    const fraction = this.total === 0 ? 1 : done / this.total;
    const decile = Math.floor(fraction * 10);
    // Off a terminal (a log, a pipe) a bar cannot redraw itself: one line when done, not one per update.
    if (!this.tty && (fraction < 1 || decile === this.lastDecile)) return;
    this.lastDecile = decile;
    const width = 30;
    const filled = Math.round(fraction * width);
    const line = `${this.label} [${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${String(Math.floor(fraction * 100)).padStart(3)}%  ${mebibytes(done)} / ${mebibytes(this.total)}`;
    this.write(this.tty ? `\r${line}` : `${line}\n`);
  }

  finish(): void {
    if (this.tty) this.write('\n');
  }
}

function mebibytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** SHA-256 and size of a local file, read as a stream (any size), with progress on `progress`. */
export async function artifactDigest(path: string, progress: ProgressBar | ((total: number) => ProgressBar)): Promise<ArtifactDigest> {
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new CliUsageError(`--artifact ${path} is not a regular file`);
    size = stat.size;
  } catch (error) {
    if (error instanceof CliUsageError) throw error;
    throw new CliUsageError(`cannot read --artifact ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const bar = typeof progress === 'function' ? progress(size) : progress;
  const hash = createHash('sha256');
  let done = 0;
  bar.update(0);
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) {
    hash.update(chunk as Buffer);
    done += (chunk as Buffer).length;
    bar.update(done);
  }
  bar.finish();
  return { sha256: hash.digest('hex'), sizeBytes: done };
}
