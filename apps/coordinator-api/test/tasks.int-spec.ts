import { request as httpRequest } from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import { TaskDto, TaskStateUpdateDto } from '@rcs/contracts';
import { ONBOARD_SECTIONS } from '../src/tasks/onboard-document';
import { CoordinatorHarness, startCoordinatorForSuite } from './harness';

/** A validator-private value that must never appear in anything public. */
const SECRET = `heldout-shard-${randomBytes(8).toString('hex')}`;
const SECRET_KEY = `PRIVATE_SELECTOR_${randomBytes(4).toString('hex')}`;

const TASK_FIELDS = [
  'allowed_patch_paths',
  'base_ref',
  'benchmark_command',
  'best_result_path',
  'brief',
  'claim_path',
  'competition_mode',
  'created_at',
  'exposure',
  'hardware',
  'heldout_budget',
  'heldout_rotation_seconds',
  'id',
  'is_active',
  'max_patch_bytes',
  'metric_direction',
  'metric_name',
  'metric_resolution',
  'metric_resolution_mode',
  'min_peer_evaluations',
  'model_family',
  'onboard_path',
  'ranking_mode',
  'reference_model_id',
  'reference_parameter_count',
  'repository',
  'result_path',
  'secondary_metric_direction',
  'secondary_metric_name',
  'setup_command',
  'slug',
  'slug_compatibility_note',
  'task_state',
  'time_budget_seconds',
  'title',
];

interface Reply<T> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

interface ErrorBody {
  detail: { error: string; message: string; [key: string]: unknown };
}

interface ValidationBody {
  detail: { type: string; loc: (string | number)[]; msg: string; ctx?: Record<string, unknown> }[];
}

async function send<T>(url: string, init: RequestInit = {}): Promise<Reply<T>> {
  const response = await fetch(url, init);
  const text = await response.text();
  const json = response.headers.get('content-type')?.startsWith('application/json') ? (JSON.parse(text) as T) : (text as T);
  return { status: response.status, body: json, text, headers: response.headers };
}

/** GET with a chosen Host header, which fetch does not let a caller set. */
function getWithHost(url: string, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function slug(): string {
  return `task-${randomBytes(5).toString('hex')}`;
}

function taskBody(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    slug: slug(),
    title: 'Tiny LM compression',
    repository: 'https://git.test/research/tiny-lm.git',
    base_ref: 'main',
    benchmark_command: 'python bench.py --out result.json',
    metric_name: 'heldout_ppl',
    metric_direction: 'minimize',
    time_budget_seconds: 21600,
    ...fields,
  };
}

/** Level-1 and level-2 headings outside code fences, in order. */
function headings(markdown: string): string[] {
  const found: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== null) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) fence = null;
    } else if (marker !== undefined) {
      fence = marker;
    } else if (/^#{1,2} /.test(line)) {
      found.push(line);
    }
  }
  return found;
}

class Client {
  constructor(private readonly h: CoordinatorHarness) {}

  admin<T>(method: string, path: string, body?: unknown, token: string | null = this.h.adminToken): Promise<Reply<T>> {
    const headers: Record<string, string> = {};
    if (token !== null) headers['x-admin-token'] = token;
    if (body !== undefined) headers['content-type'] = 'application/json';
    return send<T>(`${this.h.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  }

  get<T>(path: string, headers: Record<string, string> = {}): Promise<Reply<T>> {
    return send<T>(`${this.h.url}${path}`, { headers });
  }

  async createTask(fields: Record<string, unknown> = {}): Promise<TaskDto> {
    const reply = await this.admin<TaskDto>('POST', '/api/v1/tasks', taskBody(fields));
    expect(reply.status).toBe(201);
    return reply.body;
  }

  move(taskId: string, operation: string): Promise<Reply<TaskStateUpdateDto & ErrorBody>> {
    return this.admin('POST', `/api/v1/tasks/${taskId}/${operation}`);
  }
}

describe('tasks', () => {
  let h: CoordinatorHarness;
  let api: Client;

  startCoordinatorForSuite({}, (started) => {
    h = started;
    api = new Client(h);
  });

  async function storedTask(id: string): Promise<Record<string, unknown>> {
    const rows = (await h.db.dataSource.query(
      'SELECT base_commit_sha, validator_benchmark_env, onboard_md, closed_at, task_state FROM tasks WHERE id = $1',
      [id],
    )) as Record<string, unknown>[];
    return rows[0];
  }

  describe('POST /api/v1/tasks', () => {
    it('creates a live task with every default applied and no validator-private field', async () => {
      const body = taskBody({ validator_benchmark_env: { [SECRET_KEY]: SECRET } });
      const reply = await api.admin<TaskDto>('POST', '/api/v1/tasks', body);
      expect(reply.status).toBe(201);
      const task = reply.body;
      expect(Object.keys(task).sort()).toEqual(TASK_FIELDS);
      expect(task).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        slug: body.slug,
        title: 'Tiny LM compression',
        brief: null,
        onboard_path: `/api/v1/tasks/${task.id}/onboard.md`,
        claim_path: `/api/v1/tasks/${task.id}/claim`,
        best_result_path: `/api/v1/tasks/${task.id}/best`,
        repository: 'https://git.test/research/tiny-lm.git',
        base_ref: 'main',
        setup_command: null,
        benchmark_command: 'python bench.py --out result.json',
        result_path: null,
        allowed_patch_paths: [],
        max_patch_bytes: 262144,
        metric_name: 'heldout_ppl',
        metric_direction: 'minimize',
        ranking_mode: 'scalar',
        secondary_metric_name: null,
        secondary_metric_direction: null,
        metric_resolution: 0,
        metric_resolution_mode: 'absolute',
        reference_model_id: null,
        reference_parameter_count: null,
        model_family: null,
        slug_compatibility_note: null,
        hardware: null,
        competition_mode: 'centerless',
        min_peer_evaluations: 2,
        time_budget_seconds: 21600,
        heldout_rotation_seconds: null,
        heldout_budget: null,
        exposure: null,
        task_state: 'live',
        is_active: true,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      });
      expect(reply.text).not.toContain(SECRET);
      expect(reply.text).not.toContain(SECRET_KEY);
      expect(await storedTask(task.id)).toMatchObject({ validator_benchmark_env: { [SECRET_KEY]: SECRET }, base_commit_sha: null, onboard_md: null });
    });

    it('stores every optional field it is given', async () => {
      const fields = {
        brief: 'Make it small.',
        setup_command: 'pip install -e .',
        result_path: 'out/result.json',
        allowed_patch_paths: ['pack/train.py', 'src/**/*.py'],
        max_patch_bytes: 1048576,
        ranking_mode: 'pareto',
        secondary_metric_name: 'packed_bytes',
        secondary_metric_direction: 'minimize',
        metric_resolution: 0.02,
        metric_resolution_mode: 'log',
        reference_model_id: 'org/tiny-lm',
        reference_parameter_count: 124000000,
        model_family: 'gpt2',
        slug_compatibility_note: 'Formerly tiny-lm-v1.',
        competition_mode: 'peer_evaluation',
        min_peer_evaluations: 20,
        time_budget_seconds: 86400,
      };
      const task = await api.createTask(fields);
      expect(task).toMatchObject(fields);
    });

    it('pins base_commit_sha, lowercased, only when base_ref is a full SHA-1', async () => {
      const sha = 'ABCDEF0123456789abcdef0123456789ABCDEF01';
      const cases: [string, string | null][] = [
        [sha, sha.toLowerCase()],
        ['main', null],
        [sha.slice(1), null],
        [`${sha.slice(1)}g`, null],
        ['v1.2.3', null],
      ];
      for (const [baseRef, pinned] of cases) {
        const task = await api.createTask({ base_ref: baseRef });
        expect(task.base_ref).toBe(baseRef);
        expect((await storedTask(task.id)).base_commit_sha).toBe(pinned);
      }
    });

    it('answers 401 invalid_admin_token without or with a wrong admin token', async () => {
      for (const token of [null, 'wrong-token', `${h.adminToken}x`]) {
        const reply = await api.admin<ErrorBody>('POST', '/api/v1/tasks', taskBody(), token);
        expect(reply.status).toBe(401);
        expect(reply.body.detail.error).toBe('invalid_admin_token');
      }
    });

    it('answers 409 duplicate_slug for a taken slug', async () => {
      const task = await api.createTask();
      const reply = await api.admin<ErrorBody>('POST', '/api/v1/tasks', taskBody({ slug: task.slug, title: 'Another' }));
      expect(reply.status).toBe(409);
      expect(reply.body.detail).toMatchObject({ error: 'duplicate_slug', slug: task.slug });
    });

    it('lets exactly one of several concurrent creates with one slug succeed', async () => {
      const body = taskBody();
      const replies = await Promise.all(Array.from({ length: 4 }, () => api.admin<ErrorBody>('POST', '/api/v1/tasks', body)));
      expect(replies.map((reply) => reply.status).sort()).toEqual([201, 409, 409, 409]);
      expect(replies.filter((reply) => reply.status === 409).every((reply) => reply.body.detail.error === 'duplicate_slug')).toBe(true);
    });

    const violations: [string, Record<string, unknown>, { type: string; loc: (string | number)[]; ctx?: Record<string, unknown> }][] = [
      ['slug too short', { slug: 'ab' }, { type: 'string_too_short', loc: ['body', 'slug'], ctx: { min_length: 3 } }],
      ['slug too long', { slug: 's'.repeat(121) }, { type: 'string_too_long', loc: ['body', 'slug'], ctx: { max_length: 120 } }],
      ['title too long', { title: 't'.repeat(256) }, { type: 'string_too_long', loc: ['body', 'title'], ctx: { max_length: 255 } }],
      ['brief too long', { brief: 'b'.repeat(20001) }, { type: 'string_too_long', loc: ['body', 'brief'], ctx: { max_length: 20000 } }],
      ['onboard_md too long', { onboard_md: 'o'.repeat(40001) }, { type: 'string_too_long', loc: ['body', 'onboard_md'], ctx: { max_length: 40000 } }],
      ['empty repository', { repository: '' }, { type: 'string_too_short', loc: ['body', 'repository'] }],
      ['base_ref too long', { base_ref: 'r'.repeat(256) }, { type: 'string_too_long', loc: ['body', 'base_ref'], ctx: { max_length: 255 } }],
      ['max_patch_bytes 0', { max_patch_bytes: 0 }, { type: 'greater_than_equal', loc: ['body', 'max_patch_bytes'], ctx: { ge: 1 } }],
      ['max_patch_bytes 1048577', { max_patch_bytes: 1048577 }, { type: 'less_than_equal', loc: ['body', 'max_patch_bytes'], ctx: { le: 1048576 } }],
      ['time_budget_seconds 0', { time_budget_seconds: 0 }, { type: 'greater_than_equal', loc: ['body', 'time_budget_seconds'], ctx: { ge: 1 } }],
      ['time_budget_seconds 86401', { time_budget_seconds: 86401 }, { type: 'less_than_equal', loc: ['body', 'time_budget_seconds'], ctx: { le: 86400 } }],
      ['min_peer_evaluations 0', { min_peer_evaluations: 0 }, { type: 'greater_than_equal', loc: ['body', 'min_peer_evaluations'], ctx: { ge: 1 } }],
      ['min_peer_evaluations 21', { min_peer_evaluations: 21 }, { type: 'less_than_equal', loc: ['body', 'min_peer_evaluations'], ctx: { le: 20 } }],
      [
        'allowed_patch_paths with 65 items',
        { allowed_patch_paths: Array.from({ length: 65 }, (_, i) => `p${i}/*`) },
        { type: 'too_long', loc: ['body', 'allowed_patch_paths'], ctx: { max_length: 64 } },
      ],
      ['a `..` glob', { allowed_patch_paths: ['src/*', 'a/../b'] }, { type: 'repo_glob_invalid', loc: ['body', 'allowed_patch_paths', 1], ctx: { reason: 'parent_segment' } }],
      ['an absolute glob', { allowed_patch_paths: ['/etc/*'] }, { type: 'repo_glob_invalid', loc: ['body', 'allowed_patch_paths', 0], ctx: { reason: 'absolute' } }],
      ['metric_name too long', { metric_name: 'm'.repeat(121) }, { type: 'string_too_long', loc: ['body', 'metric_name'], ctx: { max_length: 120 } }],
      ['unknown metric_direction', { metric_direction: 'lower' }, { type: 'enum', loc: ['body', 'metric_direction'] }],
      ['unknown competition_mode', { competition_mode: 'solo' }, { type: 'enum', loc: ['body', 'competition_mode'] }],
      ['an unknown property', { is_active: false }, { type: 'extra_forbidden', loc: ['body', 'is_active'] }],
      [
        'validator_benchmark_env with 65 entries',
        { validator_benchmark_env: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`K${i}`, 'v'])) },
        { type: 'too_long', loc: ['body', 'validator_benchmark_env'], ctx: { max_length: 64 } },
      ],
      ['a non-string validator_benchmark_env value', { validator_benchmark_env: { SEED: 7 } }, { type: 'string_type', loc: ['body', 'validator_benchmark_env', 'SEED'] }],
      ['a missing required field', { title: undefined }, { type: 'missing', loc: ['body', 'title'] }],
    ];

    it.each(violations)('answers 422 with one item for %s', async (_name, fields, item) => {
      const reply = await api.admin<ValidationBody>('POST', '/api/v1/tasks', taskBody(fields));
      expect(reply.status).toBe(422);
      expect(reply.body.detail).toEqual([expect.objectContaining({ type: item.type, loc: item.loc, msg: expect.any(String) })]);
      if (item.ctx) expect(reply.body.detail[0].ctx).toMatchObject(item.ctx);
    });

    it('answers one 422 item per violation when several bounds are broken at once', async () => {
      const reply = await api.admin<ValidationBody>(
        'POST',
        '/api/v1/tasks',
        taskBody({ slug: 'ab', title: 't'.repeat(256), max_patch_bytes: 0, time_budget_seconds: 86401, min_peer_evaluations: 21, extra: 1 }),
      );
      expect(reply.status).toBe(422);
      expect(reply.body.detail.map((item) => item.loc.join('.')).sort()).toEqual(
        ['body.extra', 'body.max_patch_bytes', 'body.min_peer_evaluations', 'body.slug', 'body.time_budget_seconds', 'body.title'].sort(),
      );
    });
  });

  describe('admin routes without ADMIN_TOKENS', () => {
    let unconfigured: CoordinatorHarness;
    startCoordinatorForSuite({ ADMIN_TOKENS: '' }, (started) => (unconfigured = started));

    it('answers 503 admin_unconfigured to create and to every state move', async () => {
      const client = new Client(unconfigured);
      const paths = ['/api/v1/tasks', ...['pause', 'resume', 'close'].map((op) => `/api/v1/tasks/${randomUUID()}/${op}`)];
      for (const path of paths) {
        const reply = await client.admin<ErrorBody>('POST', path, path === '/api/v1/tasks' ? taskBody() : undefined, 'any-token');
        expect(reply.status).toBe(503);
        expect(reply.body.detail.error).toBe('admin_unconfigured');
      }
    });
  });

  describe('GET /api/v1/tasks and /api/v1/tasks/{task_id}', () => {
    it('lists tasks newest first, with the same representation as create', async () => {
      const first = await api.createTask();
      const second = await api.createTask();
      const third = await api.createTask();
      const reply = await api.get<TaskDto[]>('/api/v1/tasks');
      expect(reply.status).toBe(200);
      const ids = reply.body.map((task) => task.id);
      expect(ids.indexOf(third.id)).toBeLessThan(ids.indexOf(second.id));
      expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
      expect(reply.body.find((task) => task.id === second.id)).toEqual(second);
      const order = reply.body.map((task) => [task.created_at, task.id]);
      expect(order).toEqual([...order].sort((a, b) => (a[0] === b[0] ? b[1].localeCompare(a[1]) : b[0].localeCompare(a[0]))));
    });

    it('filters by task_state and pages with limit and offset', async () => {
      const paused = await api.createTask();
      expect((await api.move(paused.id, 'pause')).status).toBe(200);
      const onlyPaused = await api.get<TaskDto[]>('/api/v1/tasks?task_state=paused');
      expect(onlyPaused.body.map((task) => task.id)).toContain(paused.id);
      expect(onlyPaused.body.every((task) => task.task_state === 'paused' && !task.is_active)).toBe(true);
      const live = await api.get<TaskDto[]>('/api/v1/tasks?task_state=live');
      expect(live.body.map((task) => task.id)).not.toContain(paused.id);

      const all = (await api.get<TaskDto[]>('/api/v1/tasks')).body;
      const page = await api.get<TaskDto[]>('/api/v1/tasks?limit=2&offset=1');
      expect(page.body.map((task) => task.id)).toEqual(all.slice(1, 3).map((task) => task.id));
    });

    it('answers 422 for a bad list query', async () => {
      for (const [query, loc] of [
        ['task_state=open', 'task_state'],
        ['limit=0', 'limit'],
        ['limit=1001', 'limit'],
        ['offset=-1', 'offset'],
      ]) {
        const reply = await api.get<ValidationBody>(`/api/v1/tasks?${query}`);
        expect(reply.status).toBe(422);
        expect(reply.body.detail).toEqual([expect.objectContaining({ loc: ['query', loc] })]);
      }
    });

    it('gets one task by id', async () => {
      const task = await api.createTask();
      const reply = await api.get<TaskDto>(`/api/v1/tasks/${task.id}`);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual(task);
    });

    it.each([
      ['an unknown uuid', randomUUID()],
      ['an id that is not a uuid', 'not-a-uuid'],
      ['a numeric id', '12345'],
    ])('answers 404 task_not_found for %s', async (_name, id) => {
      for (const path of [`/api/v1/tasks/${id}`, `/api/v1/tasks/${id}/onboard.md`]) {
        const reply = await api.get<ErrorBody>(path);
        expect(reply.status).toBe(404);
        expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
        expect(reply.body.detail).toMatchObject({ error: 'task_not_found', task_id: id });
      }
    });

    it('never shows validator-private values in list, get or onboarding', async () => {
      const task = await api.createTask({ validator_benchmark_env: { [SECRET_KEY]: SECRET, DATASET_MIX: SECRET } });
      for (const path of ['/api/v1/tasks', `/api/v1/tasks/${task.id}`, `/api/v1/tasks/${task.id}/onboard.md`, '/openapi.json']) {
        const reply = await api.get(path);
        expect(reply.status).toBe(200);
        expect(reply.text).not.toContain(SECRET);
        expect(reply.text).not.toContain(SECRET_KEY);
      }
    });
  });

  describe('GET /api/v1/tasks/{task_id}/onboard.md', () => {
    it('is Markdown with every section of the task contract, in order, and this service URL from the Host', async () => {
      const task = await api.createTask({
        allowed_patch_paths: ['pack/train.py'],
        result_path: 'result.json',
        setup_command: 'pip install -e .',
        validator_benchmark_env: { [SECRET_KEY]: SECRET },
        model_family: 'gpt2',
        reference_model_id: 'org/tiny-lm',
        reference_parameter_count: 124000000,
        metric_resolution: 0.02,
        metric_resolution_mode: 'log',
        slug_compatibility_note: 'Formerly tiny-lm-v1.',
        brief: 'Make the model smaller.',
      });
      const reply = await api.get<string>(`/api/v1/tasks/${task.id}/onboard.md`);
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      const doc = reply.text;
      expect(headings(doc)).toEqual([`# ${task.title}`, ...ONBOARD_SECTIONS.map((title) => `## ${title}`)]);
      for (const fact of [
        `Task id: \`${task.id}\``,
        `Slug: \`${task.slug}\``,
        'Metric: `heldout_ppl`, minimize',
        'Ranking mode: scalar',
        'Secondary metric: none',
        'Competition mode: centerless',
        'Minimum peer evaluations: 2',
        'Time budget: 21600 seconds',
        'Model family: `gpt2`',
        'Reference model id: `org/tiny-lm`',
        'Reference parameter count: 124000000',
        'Repository: `https://git.test/research/tiny-lm.git`',
        'Base ref: `main`',
        `Task record: ${h.url}/api/v1/tasks/${task.id}`,
        `Onboarding: ${h.url}/api/v1/tasks/${task.id}/onboard.md`,
        'Files a patch may change: `pack/train.py`',
        '- `pack/train.py`',
        'Maximum patch size: 262144 bytes',
        '`*.pyc` and `*.pyo` files, files under `__pycache__/`',
        '```sh\npip install -e .\n```',
        '```sh\npython bench.py --out result.json\n```',
        'Result path: `result.json`',
        `\`GET ${h.url}/api/v1/tasks\``,
        `\`POST ${h.url}/api/v1/tasks/${task.id}/claim\``,
        `\`POST ${h.url}/api/v1/submissions\``,
        `\`GET ${h.url}/api/v1/tasks/${task.id}/best\``,
        'X-Hotkey',
        'X-Timestamp',
        'X-Signature',
        'BT-AUTH-V1',
        '`proposed_idea`',
        '`implemented_submission_id` is required',
        'Validator hardware is not stated',
        '0.02 nats',
        'Slug compatibility: Formerly tiny-lm-v1.',
        'Make the model smaller.',
      ]) {
        expect(doc).toContain(fact);
      }
      expect(doc).not.toContain(SECRET);
      expect(doc).not.toContain(SECRET_KEY);
    });

    it('takes the base URL from the Host header, ignores X-Forwarded-* from a peer that is no trusted proxy, and sends Vary', async () => {
      const task = await api.createTask();
      const viaHost = await getWithHost(`${h.url}/api/v1/tasks/${task.id}/onboard.md`, 'coordinator.internal:8000');
      expect(viaHost).toContain(`Base URL: http://coordinator.internal:8000\n`);
      expect(viaHost).toContain(`\`GET http://coordinator.internal:8000/api/v1/tasks/${task.id}/onboard.md\``);

      const spoofed = await api.get<string>(`/api/v1/tasks/${task.id}/onboard.md`, {
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'attacker.example.org',
      });
      expect(spoofed.text).toContain(`Base URL: ${h.url}\n`);
      expect(spoofed.text).not.toContain('attacker.example.org');
      expect(spoofed.headers.get('vary')).toBe('Host, X-Forwarded-Host, X-Forwarded-Proto');
    });

    it('states the rules of the task mode, and "Not a model task" and "No brief." when those are unset', async () => {
      const peer = await api.createTask({ competition_mode: 'peer_evaluation', min_peer_evaluations: 3 });
      const doc = (await api.get<string>(`/api/v1/tasks/${peer.id}/onboard.md`)).text;
      expect(doc).toContain('This task runs in mode `peer_evaluation`.');
      expect(doc).toContain('/peer-evaluate');
      expect(doc).toContain('no validator verification');
      expect(doc).toContain('reach 3 (min_peer_evaluations)');
      expect(doc).not.toContain('proposed_idea');
      expect(doc).toContain('Not a model task');
      expect(doc.trimEnd().endsWith('No brief.')).toBe(true);

      const standard = await api.createTask({ competition_mode: 'standard' });
      const standardDoc = (await api.get<string>(`/api/v1/tasks/${standard.id}/onboard.md`)).text;
      expect(standardDoc).toContain('This task runs in mode `standard`.');
      expect(standardDoc).toContain('nothing more unless the Task Brief asks');
      expect(standardDoc).not.toContain('proposed_idea');
    });

    it('uses onboard_md for the brief and keeps hostile text from changing the structure', async () => {
      const task = await api.createTask({
        title: 'Evil title\n## Mode Rules',
        brief: 'Not used.',
        onboard_md: '# Competition\nOverride?\n\nAlso\n===\n```sh\n# a shell comment\n```\n```\n## Hardware',
        benchmark_command: 'python bench.py\n```\n## Environment',
        allowed_patch_paths: ['src/`x`/*'],
      });
      const doc = (await api.get<string>(`/api/v1/tasks/${task.id}/onboard.md`)).text;
      expect(headings(doc)).toEqual(['# Evil title \\#\\# Mode Rules', ...ONBOARD_SECTIONS.map((title) => `## ${title}`)]);
      expect(doc).toContain('### Competition\nOverride?');
      expect(doc).toContain('### Also');
      expect(doc).toContain('# a shell comment');
      expect(doc).not.toContain('Not used.');
    });
  });

  describe('PUBLIC_BASE_URL', () => {
    let configured: CoordinatorHarness;
    startCoordinatorForSuite({ PUBLIC_BASE_URL: 'https://coordinator.example.net/' }, (started) => (configured = started));

    it('is the base URL of the onboarding document whatever the request says', async () => {
      const client = new Client(configured);
      const task = await client.createTask();
      const reply = await client.get<string>(`/api/v1/tasks/${task.id}/onboard.md`, { 'x-forwarded-host': 'proxy.test' });
      expect(reply.text).toContain('Base URL: https://coordinator.example.net\n');
      expect(reply.text).toContain(`Onboarding: https://coordinator.example.net/api/v1/tasks/${task.id}/onboard.md`);
      expect(reply.text).toContain('`GET https://coordinator.example.net/api/v1/tasks`');
      expect(reply.text).not.toContain('proxy.test');
      expect(reply.text).not.toContain(configured.url);
      // The document no longer depends on the request's headers.
      expect(reply.headers.get('vary')).toBeNull();
    });
  });

  describe('TRUSTED_PROXIES', () => {
    let proxied: CoordinatorHarness;
    startCoordinatorForSuite({ TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1' }, (started) => (proxied = started));

    it('believes X-Forwarded-Proto / X-Forwarded-Host from a trusted proxy, and sends Vary', async () => {
      const client = new Client(proxied);
      const task = await client.createTask();
      const reply = await client.get<string>(`/api/v1/tasks/${task.id}/onboard.md`, {
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'coordinator.example.org',
      });
      expect(reply.text).toContain('Base URL: https://coordinator.example.org\n');
      expect(reply.text).toContain(`Task record: https://coordinator.example.org/api/v1/tasks/${task.id}`);
      expect(reply.text).not.toContain(proxied.url);
      expect(reply.headers.get('vary')).toBe('Host, X-Forwarded-Host, X-Forwarded-Proto');
    });
  });

  describe('task state moves', () => {
    type State = 'live' | 'paused' | 'closed';
    const reach: Record<State, string[]> = { live: [], paused: ['pause'], closed: ['close'] };
    const table: [State, string, State | null][] = [
      ['live', 'pause', 'paused'],
      ['live', 'resume', null],
      ['live', 'close', 'closed'],
      ['paused', 'pause', null],
      ['paused', 'resume', 'live'],
      ['paused', 'close', 'closed'],
      ['closed', 'pause', null],
      ['closed', 'resume', null],
      ['closed', 'close', null],
    ];

    async function taskIn(state: State): Promise<TaskDto> {
      const task = await api.createTask();
      for (const operation of reach[state]) expect((await api.move(task.id, operation)).status).toBe(200);
      return task;
    }

    it.each(table)('%s + %s → %s', async (from, operation, to) => {
      const task = await taskIn(from);
      const reply = await api.move(task.id, operation);
      const after = (await api.get<TaskDto>(`/api/v1/tasks/${task.id}`)).body;
      if (to === null) {
        expect(reply.status).toBe(409);
        expect(reply.body.detail).toEqual({
          error: 'invalid_task_transition',
          message: expect.any(String),
          task_id: task.id,
          task_state: from,
          requested: operation,
        });
        expect(after.task_state).toBe(from);
        return;
      }
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({
        task_id: task.id,
        previous_state: from,
        task_state: to,
        is_active: to === 'live',
        updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      });
      expect(after).toMatchObject({ task_state: to, is_active: to === 'live' });
      const stored = await storedTask(task.id);
      expect(stored.closed_at === null).toBe(to !== 'closed');
    });

    it.each(['pause', 'resume', 'close'])('%s answers 404 for unknown and non-uuid ids, 401 without the admin token', async (operation) => {
      for (const id of [randomUUID(), 'nope']) {
        const reply = await api.move(id, operation);
        expect(reply.status).toBe(404);
        expect(reply.body.detail).toMatchObject({ error: 'task_not_found', task_id: id });
      }
      const task = await api.createTask();
      const unauthorised = await api.admin<ErrorBody>('POST', `/api/v1/tasks/${task.id}/${operation}`, undefined, null);
      expect(unauthorised.status).toBe(401);
      expect(unauthorised.body.detail.error).toBe('invalid_admin_token');
      expect((await api.get<TaskDto>(`/api/v1/tasks/${task.id}`)).body.task_state).toBe('live');
    });

    /** Resolves once `count` backends of this test's database wait on a lock inside a task state move. */
    async function movesWaitingOnLock(count: number): Promise<void> {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const [{ waiting }] = (await h.db.dataSource.query(
          `SELECT count(*)::int AS waiting FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%WITH previous AS%'`,
        )) as { waiting: number }[];
        if (waiting >= count) return;
        if (Date.now() > deadline) throw new Error(`only ${waiting} of ${count} state moves reached the row lock`);
      }
    }

    it('decides concurrent moves one at a time on the locked row, each on the state it really replaced', async () => {
      const task = await api.createTask();
      const holder = h.db.dataSource.createQueryRunner();
      await holder.connect();
      await holder.startTransaction();
      let pending: Promise<Reply<TaskStateUpdateDto & ErrorBody>>[] = [];
      try {
        await holder.query('SELECT 1 FROM tasks WHERE id = $1 FOR UPDATE', [task.id]);
        pending = Array.from({ length: 5 }, () => api.move(task.id, 'close'));
        await movesWaitingOnLock(5);
        // Changed after the closes began: they must decide on this state, not on what they first saw.
        await holder.query(`UPDATE tasks SET task_state = 'paused' WHERE id = $1`, [task.id]);
        await holder.commitTransaction();
      } finally {
        await holder.release();
      }
      const replies = await Promise.all(pending);
      const succeeded = replies.filter((reply) => reply.status === 200);
      expect(succeeded).toHaveLength(1);
      expect(succeeded[0].body).toMatchObject({ previous_state: 'paused', task_state: 'closed', is_active: false });
      const refused = replies.filter((reply) => reply.status !== 200);
      expect(refused.map((reply) => reply.status)).toEqual([409, 409, 409, 409]);
      expect(refused.every((reply) => reply.body.detail.task_state === 'closed')).toBe(true);
    });

    it('chains previous states when pause and close race', async () => {
      const task = await api.createTask();
      const [pause, close] = await Promise.all([api.move(task.id, 'pause'), api.move(task.id, 'close')]);
      expect(close.status).toBe(200);
      if (pause.status === 200) {
        expect([pause.body.previous_state, close.body.previous_state]).toEqual(['live', 'paused']);
      } else {
        expect(pause.status).toBe(409);
        expect(pause.body.detail.task_state).toBe('closed');
        expect(close.body.previous_state).toBe('live');
      }
      expect((await api.get<TaskDto>(`/api/v1/tasks/${task.id}`)).body.task_state).toBe('closed');
    });
  });

  describe('/openapi.json', () => {
    interface Operation {
      requestBody?: { content: Record<string, { schema: unknown }> };
      responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
      parameters?: { name: string; in: string }[];
    }
    let paths: Record<string, Record<string, Operation>>;
    let schemas: Record<string, { properties?: Record<string, unknown> }>;

    beforeAll(async () => {
      const document = (await api.get<{ paths: typeof paths; components: { schemas: typeof schemas } }>('/openapi.json')).body;
      paths = document.paths;
      schemas = document.components.schemas;
    });

    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const json = (operation: Operation, status: string) => operation.responses[status]?.content?.['application/json']?.schema;

    it('documents task creation with its body, answer and errors', () => {
      const create = paths['/api/v1/tasks'].post;
      expect(create.requestBody?.content['application/json'].schema).toEqual(ref('CreateTaskDto'));
      expect(json(create, '201')).toEqual(ref('TaskDto'));
      for (const [status, schema] of [
        ['401', 'ErrorDetailDto'],
        ['409', 'ErrorDetailDto'],
        ['422', 'ValidationErrorDto'],
        ['503', 'ErrorDetailDto'],
      ]) {
        expect(json(create, status)).toEqual(ref(schema));
      }
    });

    it('documents the list, the task and its onboarding document', () => {
      const list = paths['/api/v1/tasks'].get;
      expect(json(list, '200')).toEqual({ type: 'array', items: ref('TaskDto') });
      expect(list.parameters?.map((parameter) => parameter.name)).toEqual(expect.arrayContaining(['task_state', 'limit', 'offset']));
      const get = paths['/api/v1/tasks/{task_id}'].get;
      expect(json(get, '200')).toEqual(ref('TaskDto'));
      expect(json(get, '404')).toEqual(ref('ErrorDetailDto'));
      const onboard = paths['/api/v1/tasks/{task_id}/onboard.md'].get;
      expect(onboard.responses['200'].content?.['text/markdown']?.schema).toEqual({ type: 'string' });
      expect(onboard.parameters?.map((parameter) => parameter.name)).toContain('task_id');
    });

    it.each(['pause', 'resume', 'close'])('documents %s with its answer and errors', (operation) => {
      const move = paths[`/api/v1/tasks/{task_id}/${operation}`].post;
      expect(json(move, '200')).toEqual(ref('TaskStateUpdateDto'));
      for (const status of ['401', '404', '409', '503']) expect(json(move, status)).toEqual(ref('ErrorDetailDto'));
    });

    it('documents the hardware of a task and the capabilities of a scan or claim (our extension)', () => {
      expect(schemas.TaskDto.properties?.['hardware']).toMatchObject({ nullable: true });
      expect(schemas.CreateTaskDto.properties?.['hardware']).toMatchObject({ nullable: true, default: null });
      expect(Object.keys(schemas.TaskHardwareDto.properties ?? {}).sort()).toEqual(['gpu_count', 'gpu_memory_gb']);
      expect(schemas.ScanRequestDto.properties?.['capabilities']).toMatchObject({ nullable: true, default: null });
      expect(schemas.ValidatorJobClaimDto.properties?.['capabilities']).toMatchObject({ nullable: true, default: null });
      expect(Object.keys(schemas.ValidatorCapabilitiesDto.properties ?? {}).sort()).toEqual(['gpu_count', 'gpu_memory_gb']);
    });

    it('keeps validator_benchmark_env out of the public task schema', () => {
      expect(Object.keys(schemas.TaskDto.properties ?? {})).not.toContain('validator_benchmark_env');
      expect(Object.keys(schemas.TaskStateUpdateDto.properties ?? {}).sort()).toEqual(['is_active', 'previous_state', 'task_id', 'task_state', 'updated_at']);
    });
  });
});
