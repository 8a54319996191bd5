/** Polls `probe` until `done` holds; a bounded wait on an observable condition. */
export async function until<T>(what: string, probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined && done(value)) return value;
    if (Date.now() > deadline) throw new UntilError(`${what}: not within ${timeoutMs} ms (last: ${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export class UntilError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UntilError';
  }
}
