import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { childProcessBaseEnv } from '../config';
import { REPO_ROOT } from '../process/repo-node';

/**
 * The ternary task pack of examples/competitions as the ternary round test, `npm run demo` and `npm run deploy:check`
 * play it: the task repository an operator commits, the miners' packed artifacts made with python3, the artifacts
 * served over plain HTTP as a public host would serve them, and the create-task body of ternary/README.md.
 */
export const PACKS_DIR = join(REPO_ROOT, 'examples', 'competitions');

/** What of the packs folder the ternary task's repository holds (the other packs are not needed to replay it). */
const TERNARY_PARTS = ['lib', 'ternary', 'tools', 'README.md', '.gitignore'];

/** One way to pack the float model: pack.py's rescue fraction and scale group. */
export interface TernaryPacking {
  name: string;
  rescueFraction: string;
  scaleGroup: string;
}

/** Why python3 with NumPy cannot train and pack here, or null when it can. */
export function pythonNumpyProblem(): string | null {
  try {
    execFileSync('python3', ['-c', 'import numpy'], { env: pythonEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'python3 is not installed; on Debian: apt-get install python3 python3-numpy';
    return 'python3 cannot import NumPy; on Debian: apt-get install python3-numpy';
  }
}

/** Copies the ternary pack into `dir`, commits it as an operator would, and answers the commit (the task's base_ref). */
export function makeTernaryRepository(dir: string): string {
  for (const part of TERNARY_PARTS) cpSync(join(PACKS_DIR, part), join(dir, part), { recursive: true });
  git(dir, 'init', '-q');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'packs');
  return git(dir, 'rev-parse', 'HEAD');
}

/** The miner's side: train.py once in `minerDir`, then pack.py once per packing; answers each artifact's bytes by name. */
export function packTernaryArtifacts(repository: string, minerDir: string, packings: TernaryPacking[]): Map<string, Buffer> {
  mkdirSync(minerDir, { recursive: true });
  const py = (...args: string[]) => execFileSync('python3', args, { cwd: minerDir, env: pythonEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  py(join(repository, 'ternary', 'train.py'));
  const artifacts = new Map<string, Buffer>();
  for (const { name, rescueFraction, scaleGroup } of packings) {
    py(join(repository, 'ternary', 'pack.py'), '--out', `${name}.npz`, '--rescue-fraction', rescueFraction, '--scale-group', scaleGroup);
    artifacts.set(name, readFileSync(join(minerDir, `${name}.npz`)));
  }
  return artifacts;
}

/** The create-task body of ternary/README.md (its one JSON block), for the caller to give its repository, base ref and held-out source. */
export function ternaryTaskBody(): Record<string, unknown> {
  const readme = readFileSync(join(PACKS_DIR, 'ternary', 'README.md'), 'utf8');
  const block = /```json\n([\s\S]*?)\n```/.exec(readme);
  if (block === null) throw new TernaryPackError('ternary/README.md has no ```json block with the create-task body');
  return JSON.parse(block[1] as string) as Record<string, unknown>;
}

export class TernaryPackError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TernaryPackError';
  }
}

/** Serves the miners' artifacts over plain HTTP, as a public HTTPS host would; on loopback unless told another local address. */
export class ArtifactHost {
  private readonly files = new Map<string, Buffer>();
  private readonly server: Server = createServer((request, response) => {
    const body = this.files.get(request.url ?? '');
    if (body === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length }).end(body);
  });
  url = '';

  /** `host`: the address to listen on (default 127.0.0.1), e.g. a Docker network's gateway for a container to reach. */
  async start(host = '127.0.0.1'): Promise<void> {
    await new Promise<void>((done, fail) => {
      this.server.once('error', fail);
      this.server.listen(0, host, done);
    });
    this.url = `http://${host}:${(this.server.address() as AddressInfo).port}`;
  }

  /** Serves `body` at /`name` and answers its URL. */
  put(name: string, body: Buffer): string {
    this.files.set(`/${name}`, body);
    return `${this.url}/${name}`;
  }

  stop(): Promise<void> {
    if (!this.server.listening) return Promise.resolve();
    this.server.closeAllConnections();
    return new Promise((done) => this.server.close(() => done()));
  }
}

function git(dir: string, ...args: string[]): string {
  const identity = ['-c', 'user.name=packs', '-c', 'user.email=packs@example.invalid', '-c', 'commit.gpgsign=false'];
  return execFileSync('git', [...identity, ...args], { cwd: dir, encoding: 'utf8' }).trim();
}

/** python3 with one BLAS thread (the packs are tiny; threads only contend) and no bytecode left in the repository. */
function pythonEnv(): NodeJS.ProcessEnv {
  return { PATH: childProcessBaseEnv().PATH ?? '/usr/bin:/bin', OPENBLAS_NUM_THREADS: '1', PYTHONDONTWRITEBYTECODE: '1' };
}
