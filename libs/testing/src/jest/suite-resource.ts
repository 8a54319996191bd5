/** Starts a resource before the enclosing describe's tests, hands it to `use`, and closes it after them. */
export function suiteResource<T>(start: () => Promise<T>, close: (resource: T) => Promise<void>, use: (resource: T) => unknown): void {
  let resource: T | undefined;
  beforeAll(async () => {
    resource = await start();
    await use(resource);
  });
  afterAll(async () => {
    if (resource !== undefined) await close(resource);
  });
}
