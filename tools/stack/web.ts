/**
 * The web UI of the local stack: builds `apps/web` when `dist/apps/web` is missing or older than its
 * sources, then serves it with a generated `config.json` (where the coordinator and the pool answer)
 * on WEB_PORT (default 8300).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { webSecurityHeaders } from './web-security';

const ROOT = join(__dirname, '..', '..');
export const WEB_DIST = join(ROOT, 'dist', 'apps', 'web');
export const DEFAULT_WEB_PORT = 8300;
const SOURCES = [
  join(ROOT, 'apps', 'web', 'index.html'),
  join(ROOT, 'apps', 'web', 'vite.config.mts'),
  join(ROOT, 'apps', 'web', 'src'),
  join(ROOT, 'apps', 'web', 'public'),
  join(ROOT, 'libs', 'merkle', 'src'),
];

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

export interface WebConfigFile {
  coordinator: string;
  pool: string;
  /** The weight setter (its /status: the weights set on chain) and the validator runner (its health), when the stack runs them. */
  weight_setter?: string | null;
  validator_runner?: string | null;
}

export interface WebServer {
  url: string;
  close(): Promise<void>;
}

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtime(join(path, name))), stat.mtimeMs);
}

/** Whether `dist/apps/web` is missing or older than a source of the app. */
export function webBuildStale(): boolean {
  const built = join(WEB_DIST, 'index.html');
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  return SOURCES.some((source) => newestMtime(source) > builtAt);
}

/**
 * Builds the app when stale; answers null, or why the build failed. Several launchers (parallel tests)
 * may build at once: each builds into its own folder and moves it into place, so none serves a half-written one.
 */
export function ensureWebBuild(): string | null {
  if (!webBuildStale()) return null;
  const own = `${WEB_DIST}.build-${process.pid}`;
  const run = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', join('apps', 'web', 'vite.config.mts'), '--outDir', own, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (run.status !== 0) {
    rmSync(own, { recursive: true, force: true });
    return `vite build failed (${run.status ?? run.signal}): ${(run.stderr || run.stdout || run.error?.message || '').trim().split('\n').slice(-3).join(' ')}`;
  }
  rmSync(WEB_DIST, { recursive: true, force: true });
  try {
    renameSync(own, WEB_DIST);
  } catch {
    // Another launcher's build of the same sources got there first.
    rmSync(own, { recursive: true, force: true });
  }
  return null;
}

/** The file under `WEB_DIST` a URL path names, or null for anything outside it. */
export function staticFile(urlPath: string): string | null {
  let path: string;
  try {
    path = decodeURIComponent(urlPath.split('?')[0]);
  } catch {
    return null;
  }
  const file = normalize(join(WEB_DIST, path === '/' ? 'index.html' : path));
  return file.startsWith(WEB_DIST + sep) ? file : null;
}

/**
 * Serves the built app and `config.json` on host:port, every answer with the web UI's security
 * headers (DECISIONS §14: its CSP allows connections to the two services of `config`); rejects when
 * the port is taken.
 */
export function serveWeb(host: string, port: number, config: WebConfigFile): Promise<WebServer> {
  const configBody = JSON.stringify(config);
  const security = webSecurityHeaders(config);
  const server: Server = createServer((request, response) => {
    for (const [name, value] of Object.entries(security)) response.setHeader(name, value);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const path = (request.url ?? '/').split('?')[0];
    if (path === '/config.json') {
      response.writeHead(200, { 'content-type': TYPES['.json'], 'cache-control': 'no-store' }).end(request.method === 'HEAD' ? undefined : configBody);
      return;
    }
    const file = staticFile(path);
    if (file === null || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    // Hashed asset names never change content; index.html must be read again after a rebuild.
    const cache = file.includes(`${sep}assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache';
    response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': cache });
    response.end(request.method === 'HEAD' ? undefined : readFileSync(file));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      const actual = typeof address === 'object' && address !== null ? address.port : port;
      resolve({ url: `http://${host}:${actual}`, close: () => new Promise<void>((done) => server.close(() => done())) });
    });
  });
}

/**
 * The stack's web UI: build when stale, then serve. Never stops the stack: answers the URL, or a line
 * saying why there is no web UI (a failed build, a busy port).
 */
export async function startWeb(host: string, portSetting: string | undefined, config: WebConfigFile): Promise<{ server: WebServer | null; line: string }> {
  const port = portSetting === undefined || portSetting === '' ? DEFAULT_WEB_PORT : Number(portSetting);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return { server: null, line: `web UI: not served (WEB_PORT=${portSetting} is no port)` };
  const buildProblem = ensureWebBuild();
  if (buildProblem) return { server: null, line: `web UI: not served (${buildProblem})` };
  try {
    const server = await serveWeb(host, port, config);
    return { server, line: server.url };
  } catch (error) {
    return { server: null, line: `web UI: not served (port ${port}: ${(error as Error).message}; set WEB_PORT)` };
  }
}
