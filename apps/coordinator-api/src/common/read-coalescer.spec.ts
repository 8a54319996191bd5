import { ReadCoalescer } from './read-coalescer';

/** A load whose completion the test decides. */
function controlled(): { load: () => Promise<number>; finish: (index: number, value: number) => void; fail: (index: number, error: Error) => void; started: () => number } {
  const pending: { resolve: (v: number) => void; reject: (e: Error) => void }[] = [];
  return {
    load: () => new Promise<number>((resolve, reject) => pending.push({ resolve, reject })),
    finish: (index, value) => pending[index].resolve(value),
    fail: (index, error) => pending[index].reject(error),
    started: () => pending.length,
  };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('ReadCoalescer', () => {
  it('never answers a request with a read that started before it arrived; later arrivals share the next read', async () => {
    const reads = new ReadCoalescer<number>();
    const source = controlled();
    const first = reads.read('k', source.load);
    const joiners = [reads.read('k', source.load), reads.read('k', source.load)];
    expect(source.started()).toBe(1);
    source.finish(0, 1);
    expect(await first).toBe(1);
    await tick();
    expect(source.started()).toBe(2);
    // Arrived while the second read runs: waits for a third.
    const late = reads.read('k', source.load);
    source.finish(1, 2);
    expect(await Promise.all(joiners)).toEqual([2, 2]);
    await tick();
    expect(source.started()).toBe(3);
    source.finish(2, 3);
    expect(await late).toBe(3);
  });

  it('keeps keys apart, passes a failure to the requests of that read only, and starts afresh when idle', async () => {
    const reads = new ReadCoalescer<number>();
    const a = controlled();
    const b = controlled();
    const onA = reads.read('a', a.load);
    const onB = reads.read('b', b.load);
    expect([a.started(), b.started()]).toEqual([1, 1]);
    const next = reads.read('a', a.load);
    a.fail(0, new Error('boom'));
    await expect(onA).rejects.toThrow('boom');
    await tick();
    a.finish(1, 7);
    expect(await next).toBe(7);
    b.finish(0, 5);
    expect(await onB).toBe(5);
    const again = reads.read('a', a.load);
    expect(a.started()).toBe(3);
    a.finish(2, 8);
    expect(await again).toBe(8);
  });
});
