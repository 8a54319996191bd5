import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:net';
import { testTempDir } from '@rcs/testing';
import { acquireStackLock, assertPortsFree, stackFiles } from './guard';

describe('stack lock', () => {
  let dataDir: string;

  testTempDir('stack-guard-', (made) => (dataDir = made));

  it('is taken once; releasing removes the lock and the state file', () => {
    const files = stackFiles({ DATA_DIR: dataDir });
    const release = acquireStackLock(files);
    expect(readFileSync(files.lock, 'utf8')).toBe(`${process.pid}\n`);
    writeFileSync(files.state, '{}');
    release();
    expect(existsSync(files.lock)).toBe(false);
    expect(existsSync(files.state)).toBe(false);
  });

  it('takes over a lock whose launcher is gone, or whose pid now belongs to another program', () => {
    const files = stackFiles({ DATA_DIR: dataDir });
    const gone = spawnSync(process.execPath, ['-e', '']).pid as number;
    for (const pid of [gone, 1]) {
      writeFileSync(files.lock, `${pid}\n`);
      const release = acquireStackLock(files);
      expect(readFileSync(files.lock, 'utf8')).toBe(`${process.pid}\n`);
      release();
    }
  });

  it('never removes a lock or state file that another launcher took over', () => {
    const files = stackFiles({ DATA_DIR: dataDir });
    const release = acquireStackLock(files);
    writeFileSync(files.lock, '999999\n');
    writeFileSync(files.state, '{"pid": 999999}');
    release();
    expect(readFileSync(files.lock, 'utf8')).toBe('999999\n');
    expect(existsSync(files.state)).toBe(true);
  });
});

describe('assertPortsFree', () => {
  it('names each busy port with its app and variable', async () => {
    const server: Server = createServer();
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const port = (server.address() as { port: number }).port;
    try {
      await expect(assertPortsFree([{ app: 'coordinator-api', variable: 'COORDINATOR_PORT', host: '127.0.0.1', port }])).rejects.toThrow(
        `something already listens on 127.0.0.1:${port} (coordinator-api, COORDINATOR_PORT)`,
      );
    } finally {
      await new Promise((done) => server.close(done));
    }
    await expect(assertPortsFree([{ app: 'coordinator-api', variable: 'COORDINATOR_PORT', host: '127.0.0.1', port }])).resolves.toBeUndefined();
  });
});
