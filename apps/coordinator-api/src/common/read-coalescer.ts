/**
 * Shares one read among the requests that wait for it, without ever answering a request with data
 * read before it arrived: a request that finds a read of its key running joins the *next* read,
 * which starts when the running one ends, so every answer comes from a database snapshot taken after
 * the request came in (a write committed before it — on any replica — is always seen). Under load a
 * public route then costs one query per batch of waiting requests instead of one per request; idle,
 * it costs what it did. Keys live only while a read of them runs or waits.
 */
export class ReadCoalescer<T> {
  private readonly slots = new Map<string, { running: Promise<T> | null; next: Promise<T> | null }>();

  read(key: string, load: () => Promise<T>): Promise<T> {
    let slot = this.slots.get(key);
    if (!slot) {
      slot = { running: null, next: null };
      this.slots.set(key, slot);
    }
    const running = slot.running;
    if (running === null) return this.start(key, slot, load);
    const current = slot;
    const settled = (): void => undefined;
    current.next ??= running.then(settled, settled).then(() => {
      current.next = null;
      return this.start(key, current, load);
    });
    return current.next;
  }

  private start(key: string, slot: { running: Promise<T> | null; next: Promise<T> | null }, load: () => Promise<T>): Promise<T> {
    const running = load();
    slot.running = running;
    const done = (): void => {
      if (slot.running === running) slot.running = null;
      if (slot.running === null && slot.next === null) this.slots.delete(key);
    };
    running.then(done, done);
    return running;
  }
}
