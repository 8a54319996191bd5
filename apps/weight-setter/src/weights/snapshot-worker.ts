import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
// Imported for the build's module graph (the worker requires the emitted file by path) and for its types.
import type { digestSnapshot, SnapshotDigest } from './snapshot-digest';
import './snapshot-digest';

/**
 * Where `digestSnapshot` lives, as this process loads it: `.ts` under @swc-node/register or Jest, `.js` in a build.
 */
const DIGEST_MODULE = join(__dirname, `snapshot-digest${extname(__filename)}`);
/** The worker calls it by this name. */
const DIGEST_EXPORT: keyof { digestSnapshot: typeof digestSnapshot } = 'digestSnapshot';

/** The worker's whole program: it loads the module once (registering the TypeScript transform when it is source), then digests each request. */
const WORKER_PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
if (workerData.module.endsWith('.ts') && !require.extensions['.ts']) require('@swc-node/register');
const digest = require(workerData.module)[workerData.name];
parentPort.on('message', ({ id, bytes, hotkeys }) => {
  try {
    parentPort.postMessage({ id, digest: digest(bytes, hotkeys) });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
`;

type Reply = { id: number; digest: SnapshotDigest } | { id: number; error: string };

/**
 * `digestSnapshot` off the event loop (issue 35: a 200,000-entry snapshot held the loop for seconds and `/healthz`
 * went unanswered): on one worker thread kept for the process's life (started at the first pass, so each pass does
 * not load the module again), the bytes moved there rather than copied, only the vector and the summary coming back.
 */
@Injectable()
export class SnapshotDigester implements OnApplicationShutdown {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: (digest: SnapshotDigest) => void; reject: (error: Error) => void }>();

  digest(bytes: Uint8Array, hotkeys: readonly string[]): Promise<SnapshotDigest> {
    const worker = this.started();
    const id = (this.nextId += 1);
    const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
    return new Promise<SnapshotDigest>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, bytes: owned, hotkeys: [...hotkeys] }, [owned.buffer as ArrayBuffer]);
    });
  }

  /**
   * Last of the shutdown hooks: the queue's workers close in `beforeApplicationShutdown`, waiting for a running
   * weights pass, and that pass may still be digesting (terminated earlier, it failed with a WARN on every Ctrl-C
   * that met a pass).
   */
  async onApplicationShutdown(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker !== null) await worker.terminate();
  }

  private started(): Worker {
    if (this.worker !== null) return this.worker;
    const worker = new Worker(WORKER_PROGRAM, { eval: true, workerData: { module: DIGEST_MODULE, name: DIGEST_EXPORT } });
    // An idle digester never keeps the process alive.
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const waiter = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if ('digest' in reply) waiter?.resolve(reply.digest);
      else waiter?.reject(new Error(`the snapshot could not be read: ${reply.error}`));
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the snapshot worker exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }
}
