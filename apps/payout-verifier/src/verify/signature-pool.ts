import { availableParallelism } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { cryptoReady } from '@rcs/auth';
import { checkRecord, judgedVerdict, recordKey, rememberVerdict, type RecipientRecord, type SignedFields } from './recipient-rule';

/** Below this many unjudged records the main thread checks them itself (a worker's start costs more). */
export const WORKER_THRESHOLD = 2_000;

/** What a worker thread of this file is started with: it then checks the records it is given (see the end of the file). */
const WORKER_ROLE = 'payout-verifier:signatures';

/** Records a worker claims at a time: small enough that the workers finish together, large enough that claiming costs nothing. */
const BATCH = 256;

/** Per record, the hotkey and the four fields its verdict depends on (`checkRecord`), flat: strings clone far faster than objects. */
const FIELDS = 5;

interface WorkerInput {
  role: typeof WORKER_ROLE;
  /** `FIELDS` values per record: hotkey, timestamp, signed_coldkey, recipient_coldkey, signature. */
  fields: unknown[];
  /** Int32 at 0: the next unclaimed record; then one verdict byte per record (1 signed, 0 not). */
  shared: SharedArrayBuffer;
}

/** One judged record: its key (`recordKey`) and whether the miner signed it. */
export interface RecordVerdict {
  key: string;
  valid: boolean;
}

/**
 * Judges every record of `recipients` not judged yet, in parallel on one worker thread per available
 * core (this very file, so the build emits it; the same `checkRecord` the main thread runs), each
 * verdict remembered for `signedByMiner`. Every signature is still checked, only on all cores at once.
 * The workers claim batches from a shared counter, so none waits on this thread (busy with the
 * judgement's other checks meanwhile) or on a slower worker at the end. Fewer than
 * `WORKER_THRESHOLD` unjudged records are checked on the main thread. Answers the verdicts reached here.
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
  const fields: unknown[] = [];
  for (const [hotkey, record] of pending.values()) fields.push(hotkey, record.timestamp, record.signed_coldkey, record.recipient_coldkey, record.signature);
  const shared = new SharedArrayBuffer(4 + keys.length);
  const count = Math.max(1, Math.min(threads, Math.ceil(keys.length / WORKER_THRESHOLD)));
  const input: WorkerInput = { role: WORKER_ROLE, fields, shared };
  await Promise.all(Array.from({ length: count }, () => runWorker(input)));
  const valid = new Uint8Array(shared, 4);
  return keys.map((key, i) => {
    rememberVerdict(key, valid[i] === 1);
    return { key, valid: valid[i] === 1 };
  });
}

/** One worker thread claims and checks batches until none is left, and ends; rejects when it fails. */
function runWorker(input: WorkerInput): Promise<void> {
  const worker = new Worker(__filename, { workerData: input });
  return new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`signature worker exited with ${code}`)));
  }).finally(() => void worker.terminate());
}

/** In a worker thread started by `runWorker`: claims `BATCH` records at a time, writes one verdict byte each, says when none is left. */
function checkClaimed(port: NonNullable<typeof parentPort>, input: WorkerInput): void {
  const next = new Int32Array(input.shared, 0, 1);
  const verdicts = new Uint8Array(input.shared, 4);
  const total = input.fields.length / FIELDS;
  const at = (i: number, field: number) => input.fields[i * FIELDS + field] as string;
  for (let from = Atomics.add(next, 0, BATCH); from < total; from = Atomics.add(next, 0, BATCH)) {
    for (let i = from; i < Math.min(total, from + BATCH); i += 1) {
      const record: SignedFields = { timestamp: at(i, 1), signed_coldkey: at(i, 2), recipient_coldkey: at(i, 3), signature: at(i, 4) };
      verdicts[i] = checkRecord(at(i, 0), record) ? 1 : 0;
    }
  }
  port.postMessage('done');
}

if (!isMainThread && parentPort !== null && (workerData as Partial<WorkerInput> | null)?.role === WORKER_ROLE) {
  const port = parentPort;
  void cryptoReady().then(() => checkClaimed(port, workerData as WorkerInput));
}
