import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory under the OS temp folder, made before the enclosing describe's tests (handed to `use`) and removed after them. */
export function suiteTempDir(prefix: string, use: (path: string) => unknown): void {
  let path: string | undefined;
  beforeAll(() => {
    path = mkdtempSync(join(tmpdir(), prefix));
    use(path);
  });
  afterAll(() => {
    if (path) rmSync(path, { recursive: true, force: true });
  });
}

/** The same per test: a fresh directory made before each test of the enclosing describe and removed after it. */
export function testTempDir(prefix: string, use: (path: string) => unknown): void {
  let path: string | undefined;
  beforeEach(() => {
    path = mkdtempSync(join(tmpdir(), prefix));
    use(path);
  });
  afterEach(() => {
    if (path) rmSync(path, { recursive: true, force: true });
  });
}
