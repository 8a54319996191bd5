import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '@rcs/testing';
import { generateDocs, GENERATED_BEGIN } from './generate';

// Boots the four HTTP apps one after another (embedded Postgres, the test Redis), on a loaded machine slowly.
jest.setTimeout(900_000);

describe('the generated docs are current', () => {
  it('docs/configuration.md and docs/routes.md read as `npm run docs` writes them now', async () => {
    const stale: string[] = [];
    for (const doc of await generateDocs()) {
      const checkedIn = readFileSync(join(REPO_ROOT, doc.path), 'utf8');
      expect(checkedIn).toContain(GENERATED_BEGIN);
      if (checkedIn !== doc.content) stale.push(`${doc.path} is stale: run npm run docs`);
    }
    expect(stale).toEqual([]);
  });
});
