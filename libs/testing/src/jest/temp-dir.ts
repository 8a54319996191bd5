import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Hook = (fn: () => void) => void;

/** A fresh directory under the OS temp folder, made by `before` (handed to `use`) and removed by `after`. */
function tempDirAround(before: Hook, after: Hook, prefix: string, use: (path: string) => unknown): void {
  let path: string | undefined;
  before(() => {
    path = mkdtempSync(join(tmpdir(), prefix));
    use(path);
  });
  after(() => {
    if (path) rmSync(path, { recursive: true, force: true });
  });
}

/** A scratch directory made before the enclosing describe's tests (handed to `use`) and removed after them. */
export function suiteTempDir(prefix: string, use: (path: string) => unknown): void {
  tempDirAround(beforeAll, afterAll, prefix, use);
}

/** A scratch directory made before each test of the enclosing describe (handed to `use`) and removed after it. */
export function testTempDir(prefix: string, use: (path: string) => unknown): void {
  tempDirAround(beforeEach, afterEach, prefix, use);
}
