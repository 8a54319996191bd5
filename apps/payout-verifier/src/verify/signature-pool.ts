import { availableParallelism } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { cryptoReady } from '@rcs/auth';
import { checkRecord, judgedVerdict, recordKey, rememberVerdict, type RecipientRecord } from './recipient-rule';

/** Below this many unjudged records the main thread checks them itself (a worker's start costs more). */
export const WORKER_THRESHOLD = 2_000;

/** What a worker thread of this file is started with: it then checks the records it is sent (see the end of the file). */
const WORKER_ROLE = 'payout-verifier:signatures';

/** One judged record: its key (`recordKey`) and whether the miner signed it. */
export interface RecordVerdict {
  key: string;
  valid: boolean;
}

/**
 * Judges every record of `recipients` not judged yet, in parallel: split evenly over one worker thread
 * per available core (this very file, so the build emits it; the same `checkRecord` the main thread runs), each verdict
 * remembered for `signedByMiner`. Every signature is still checked, only on all cores at once. Fewer
 * than `WORKER_THRESHOLD` unjudged records are checked on the main thread. Answers the verdicts reached here.
 */
export async function prejudgeRecords(recipients: ReadonlyMap<string, readonly RecipientRecord[]>, threads = availableParallelism()): Promise<RecordVerdict[]> {
  const pending = new Map<string, [string, RecipientRecord]>();
  for (const [hotkey, records] of recipients) {
    for (const record of records) {
      const key = recordKey(hotkey, record);
      if (judgedVerdict(key) === undefined) pending.set(key, [hotkey, record]);
    }
  }
  if (pending.size < WORKER_THRESHOLD) {
    return [...pending].map(([key, [hotkey, record]]) => {
      const valid = checkRecord(hotkey, record);
      rememberVerdict(key, valid);
      return { key, valid };
    });
  }
  const keys = [...pending.keys()];
  const items = [...pending.values()];
  const count = Math.max(1, Math.min(threads, Math.ceil(items.length / WORKER_THRESHOLD)));
  const size = Math.ceil(items.length / count);
  const chunks = Array.from({ length: count }, (_, i) => i * size);
  const results = await Promise.all(chunks.map((from) => checkInWorker(items.slice(from, from + size))));
  const verdicts: RecordVerdict[] = [];
  results.forEach((chunk, c) => {
    chunk.forEach((valid, i) => {
      const key = keys[chunks[c] + i];
      rememberVerdict(key, valid === 1);
      verdicts.push({ key, valid: valid === 1 });
    });
  });
  return verdicts;
}

/** One worker thread checks `records` and ends; rejects when the worker fails. */
function checkInWorker(records: [string, RecipientRecord][]): Promise<Uint8Array> {
  const worker = new Worker(__filename, { workerData: WORKER_ROLE });
  return new Promise<Uint8Array>((resolve, reject) => {
    worker.once('message', (answer: { verdicts: Uint8Array }) => resolve(answer.verdicts));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`signature worker exited with ${code}`)));
    worker.postMessage({ records });
  }).finally(() => void worker.terminate());
}

/** In a worker thread started by `checkInWorker`: one verdict byte per record sent (1 the miner signed it, 0 not). */
if (!isMainThread && workerData === WORKER_ROLE && parentPort !== null) {
  const port = parentPort;
  const ready = cryptoReady();
  port.on('message', (batch: { records: [string, RecipientRecord][] }) => {
    void ready.then(() => {
      const verdicts = Uint8Array.from(batch.records, ([hotkey, record]) => (checkRecord(hotkey, record) ? 1 : 0));
      port.postMessage({ verdicts }, [verdicts.buffer]);
    });
  });
}
