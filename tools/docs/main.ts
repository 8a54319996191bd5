/**
 * `npm run docs`: regenerates docs/configuration.md and docs/routes.md (their parts below the
 * generated marker). It boots every HTTP app, so it needs the test Redis (`TEST_REDIS_URL`).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '@rcs/testing';
import { generateDocs } from './generate';

void (async () => {
  for (const doc of await generateDocs()) {
    writeFileSync(join(REPO_ROOT, doc.path), doc.content);
    process.stdout.write(`docs: wrote ${doc.path}\n`);
  }
})().catch((error: unknown) => {
  process.stderr.write(`docs: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
