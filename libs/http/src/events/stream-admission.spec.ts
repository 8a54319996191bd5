import { ErrorCode } from '@rcs/contracts';
import { StreamAdmission, StreamSlot, STREAM_RETRY_AFTER_SECONDS, tooManyStreams } from './stream-admission';

describe('StreamAdmission', () => {
  const slot = (admission: StreamAdmission, client: string): StreamSlot => {
    const admitted = admission.admit(client);
    expect('release' in admitted).toBe(true);
    return admitted as StreamSlot;
  };

  it('admits up to the per-client limit, then refuses that client only', () => {
    const admission = new StreamAdmission({ maxStreamsPerClient: 2, maxStreams: 10 });
    slot(admission, '198.51.100.1');
    slot(admission, '198.51.100.1');
    expect(admission.admit('198.51.100.1')).toEqual({ scope: 'client', limit: 2 });
    expect(slot(admission, '198.51.100.2').client).toBe('198.51.100.2');
    expect([admission.open, admission.openFor('198.51.100.1'), admission.openFor('198.51.100.2')]).toEqual([3, 2, 1]);
  });

  it('refuses every client once the process holds the total limit', () => {
    const admission = new StreamAdmission({ maxStreamsPerClient: 5, maxStreams: 3 });
    for (const client of ['a', 'b', 'c']) slot(admission, client);
    expect(admission.admit('d')).toEqual({ scope: 'total', limit: 3 });
  });

  it('frees a slot on release, once however often it is released', () => {
    const admission = new StreamAdmission({ maxStreamsPerClient: 1, maxStreams: 2 });
    const first = slot(admission, 'a');
    const other = slot(admission, 'b');
    first.release();
    first.release();
    expect([admission.open, admission.openFor('a'), admission.openFor('b')]).toEqual([1, 0, 1]);
    slot(admission, 'a');
    other.release();
    expect([admission.open, admission.openFor('b')]).toEqual([1, 0]);
  });

  it('is refused with 429 too_many_streams, Retry-After and the limit met (DECISIONS §1, §14)', () => {
    const refused = tooManyStreams({ scope: 'client', limit: 8 });
    expect([refused.status, refused.code]).toEqual([429, ErrorCode.TooManyStreams]);
    expect(refused.context).toEqual({ scope: 'client', limit: 8, retry_after_seconds: STREAM_RETRY_AFTER_SECONDS });
    expect(refused.headers).toEqual({ 'retry-after': String(STREAM_RETRY_AFTER_SECONDS) });
    expect(refused.message).toContain('8 event streams open');
  });
});
