import type { FindOneOptions } from 'typeorm';

/** A row lock a find takes for the rest of the transaction: `update` is FOR UPDATE, `share` FOR SHARE. */
export type RowLock = 'update' | 'share';

/** The find option that takes `lock` on the rows read; none when it is unset. */
export function rowLock(lock: RowLock | undefined): Pick<FindOneOptions, 'lock'> {
  return lock === undefined ? {} : { lock: { mode: lock === 'update' ? 'pessimistic_write' : 'pessimistic_read' } };
}
