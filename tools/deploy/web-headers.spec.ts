import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { contentSecurityPolicy } from '../stack/web-security';

const ROOT = join(__dirname, '..', '..');
const run = promisify(execFile);

/** An nginx block: its head (`server`, `location = /config.json`), its simple directives and its blocks. */
interface Block {
  head: string;
  directives: string[];
  blocks: Block[];
}

/** Enough of nginx's syntax for these files: directives end at `;`, blocks nest in braces, `#` comments, quoted strings. */
function parseNginx(text: string): Block {
  const root: Block = { head: '', directives: [], blocks: [] };
  const stack = [root];
  let current = '';
  let quote: string | null = null;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quote) {
      current += c;
      if (c === '\\') current += text[++i];
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      quote = c;
      current += c;
    } else if (c === '#') {
      while (i < text.length && text[i] !== '\n') i += 1;
    } else if (c === ';') {
      stack[stack.length - 1].directives.push(current.trim().replace(/\s+/g, ' '));
      current = '';
    } else if (c === '{') {
      const block: Block = { head: current.trim().replace(/\s+/g, ' '), directives: [], blocks: [] };
      stack[stack.length - 1].blocks.push(block);
      stack.push(block);
      current = '';
    } else if (c === '}') {
      stack.pop();
      current = '';
    } else {
      current += c;
    }
  }
  return root;
}

function allBlocks(block: Block): Block[] {
  return [block, ...block.blocks.flatMap(allBlocks)];
}

/** The server block that serves the web UI's files. */
function webServer(file: string): Block {
  const servers = allBlocks(parseNginx(readFileSync(join(ROOT, file), 'utf8'))).filter((b) => b.head === 'server');
  const [server] = servers.filter((s) => s.directives.includes('root /usr/share/nginx/web'));
  return server;
}

const SECURITY_HEADERS = [
  `add_header Content-Security-Policy "${contentSecurityPolicy(['$connect_services'])}" always`,
  'add_header X-Content-Type-Options nosniff always',
  'add_header Referrer-Policy no-referrer always',
];

/**
 * DECISIONS §14: the web UI is served with one set of security headers by the local launcher
 * (tools/stack/web-security.ts, tested over HTTP in tools/stack/web.spec.ts) and by the gateways,
 * whose nginx files are held to the same policy here (deploy:check asks them over HTTP).
 */
describe.each([
  ['the compose gateway', 'deploy/gateway/nginx.conf'],
  ['the web image (Kubernetes)', 'deploy/docker/web-nginx.conf'],
])('the web UI headers of %s', (_name, file) => {
  it('sends the launcher\'s policy, nosniff and no-referrer on every answer', () => {
    const server = webServer(file);
    expect(server.directives.filter((d) => d.startsWith('add_header')).slice(0, 3)).toEqual(SECURITY_HEADERS);
    // An add_header inside a location replaces the server's there: the app's locations have none.
    const locations = server.blocks.filter((b) => b.head.startsWith('location') && !b.head.includes('@'));
    expect(locations.flatMap((b) => allBlocks(b).flatMap((inner) => inner.directives.filter((d) => d.startsWith('add_header'))))).toEqual([]);
  });
});

describe('the CSP connect-src of the gateways', () => {
  it('is, at the compose gateway, the two services its config.json names', () => {
    const server = webServer('deploy/gateway/nginx.conf');
    const set = server.directives.find((d) => d.startsWith('set $connect_services '));
    const config = server.blocks.find((b) => b.head === 'location = /config.json')?.directives.find((d) => d.startsWith('return 200 '));
    const body = JSON.parse(/^return 200 '(.*)'$/.exec(config ?? '')?.[1] ?? '{}') as { coordinator: string; pool: string };
    expect(set).toBe(`set $connect_services "${body.coordinator} ${body.pool}"`);
  });

  describe('in the web image, written at start from the mounted config.json (deploy/docker/web-start.sh)', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'web-start-'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    const start = async (config: string) => {
      writeFileSync(join(dir, 'config.json'), config);
      rmSync(join(dir, 'connect.conf'), { force: true });
      const env = { PATH: process.env.PATH, RCS_WEB_CONFIG: join(dir, 'config.json'), RCS_WEB_CONNECT: join(dir, 'connect.conf') };
      return run('sh', [join(ROOT, 'deploy/docker/web-start.sh'), 'cat', join(dir, 'connect.conf')], { env });
    };

    it('names the origins of the coordinator and the pool, then runs the command', async () => {
      expect(webServer('deploy/docker/web-nginx.conf').directives).toContain('include /tmp/rcs-web-connect.conf');
      const { stdout } = await start('{\n  "coordinator": "https://coordinator.example.org/",\n  "pool": "http://[::1]:8434/base"\n}\n');
      expect(stdout).toBe('set $connect_services "https://coordinator.example.org http://[::1]:8434";\n');
    });

    it.each([
      ['no pool', '{"coordinator": "https://c.example.org"}'],
      ['not http', '{"coordinator": "ftp://c.example.org", "pool": "https://p.example.org"}'],
      ['nginx syntax in the host', '{"coordinator": "https://c.example.org;evil", "pool": "https://p.example.org"}'],
      ['an escaped quote', '{"coordinator": "https://c\\" x", "pool": "https://p.example.org"}'],
    ])('refuses to start with %s', async (_case, config) => {
      await expect(start(config)).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('names no http(s) URL') as unknown });
    });
  });
});
