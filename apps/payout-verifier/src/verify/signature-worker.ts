/**
 * A signature worker thread (./signature-pool.ts): checks the recipient records it is sent with the
 * very check of the main thread (`checkRecord`) and answers one verdict byte per record (1 valid, 0 not).
 */
import { parentPort } from 'node:worker_threads';
import { cryptoReady } from '@rcs/auth';
import { checkRecord, type RecipientRecord } from './recipient-rule';

const port = parentPort;
if (port !== null) {
  const ready = cryptoReady();
  port.on('message', (batch: { id: number; records: [string, RecipientRecord][] }) => {
    void ready.then(() => {
      const verdicts = new Uint8Array(batch.records.length);
      batch.records.forEach(([hotkey, record], i) => {
        verdicts[i] = checkRecord(hotkey, record) ? 1 : 0;
      });
      port.postMessage({ id: batch.id, verdicts }, [verdicts.buffer]);
    });
  });
}
