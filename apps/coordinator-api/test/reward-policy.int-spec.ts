import { QueueEvents } from 'bullmq';
import { RewardPolicyDto, RewardPolicyVersionDto, RewardSnapshotDto } from '@rcs/contracts';
import { CoordinatorHarness, startCoordinator, startCoordinatorForSuite } from './harness';
import { nextRebuild, rewardsQueueEvents } from './support/rewards-queue-events';

interface Reply<T> {
  status: number;
  body: T;
}

interface ErrorBody {
  detail: { error: string; message: string; [key: string]: unknown };
}

interface ValidationBody {
  detail: { type: string; loc: (string | number)[]; msg: string }[];
}

const POLICY_PATH = '/api/v1/reward-policy';
const VERSIONS_PATH = '/api/v1/reward-policy/versions';

const DEFAULT_COMPETITION = {
  enabled: true,
  weight: 1,
  target_pool_id: 'main',
  reward_scope: 'competition_only',
  scoring_mode: 'accepted_plus_best',
  accepted_reward_metric_tolerance: 1e-6,
  accepted_reward_floor_mode: 'best_population_stddev',
  accepted_reward_floor_value: null,
  accepted_reward_floor_stddevs: 2,
  accepted_reward_floor_min_samples: 3,
};

const DEFAULT_POLICY = {
  pools: [],
  validator_weights: { mode: 'local', targets: [], version_key: 1337 },
  local_competition: DEFAULT_COMPETITION,
  competition_defaults: DEFAULT_COMPETITION,
  competition_overrides: {},
};

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

class AdminClient {
  constructor(
    private readonly h: CoordinatorHarness,
    private readonly token: string | null = h.adminToken,
  ) {}

  async send<T>(method: 'GET' | 'PUT', path: string, body?: unknown): Promise<Reply<T>> {
    const headers: Record<string, string> = {};
    if (this.token !== null) headers['x-admin-token'] = this.token;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.h.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as T };
  }

  get<T = RewardPolicyDto>(path = POLICY_PATH): Promise<Reply<T>> {
    return this.send<T>('GET', path);
  }

  put<T = RewardPolicyDto>(body: unknown): Promise<Reply<T>> {
    return this.send<T>('PUT', POLICY_PATH, body);
  }

  async current(): Promise<RewardPolicyDto> {
    const reply = await this.get();
    expect(reply.status).toBe(200);
    return reply.body;
  }

  async versions(): Promise<RewardPolicyVersionDto[]> {
    const reply = await this.get<RewardPolicyVersionDto[]>(VERSIONS_PATH);
    expect(reply.status).toBe(200);
    return reply.body;
  }
}

function locs(body: ValidationBody): string[] {
  return body.detail.map((item) => item.loc.join('.')).sort();
}

describe('reward policy', () => {
  let h: CoordinatorHarness;
  let admin: AdminClient;
  let initial: RewardPolicyDto;

  startCoordinatorForSuite({}, async (started) => {
    h = started;
    admin = new AdminClient(h);
    // Concurrent first reads all see the one version 1 stored by the first of them.
    const first = await Promise.all(Array.from({ length: 8 }, () => admin.get()));
    expect(first.map((reply) => reply.status)).toEqual(Array(8).fill(200));
    initial = first[0].body;
    expect(first.map((reply) => reply.body)).toEqual(Array(8).fill(initial));
  });

  /** PUTs `body` at the next version and answers what was stored. */
  async function putNext(body: Record<string, unknown> = {}): Promise<RewardPolicyDto> {
    const { version } = await admin.current();
    const reply = await admin.put({ ...body, version: version + 1 });
    expect(reply.status).toBe(200);
    return reply.body;
  }

  describe('GET /api/v1/reward-policy', () => {
    it('answers the spec defaults at version 1 before any PUT, stored once', async () => {
      expect(initial).toEqual({ version: 1, ...DEFAULT_POLICY, updated_at: expect.stringMatching(ISO_TIME) });
      expect(await admin.current()).toEqual(initial);
    });
  });

  describe('PUT /api/v1/reward-policy', () => {
    it('refuses version 1 (the default) while version 1 is stored: 409 stale_policy_version', async () => {
      for (const body of [{}, { version: 1 }]) {
        const reply = await admin.put<ErrorBody>(body);
        expect(reply.status).toBe(409);
        expect(reply.body.detail).toMatchObject({ error: 'stale_policy_version', version: 1, current_version: expect.any(Number) });
      }
    });

    it('stores a minimal body with every default filled in, and GET shows it', async () => {
      const before = await admin.current();
      const stored = await putNext();
      expect(stored).toEqual({ version: before.version + 1, ...DEFAULT_POLICY, updated_at: expect.stringMatching(ISO_TIME) });
      expect(Date.parse(stored.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
      expect(await admin.current()).toEqual(stored);
    });

    it('fills the defaults of pools, targets and every competition policy; an override takes the spec defaults, not competition_defaults', async () => {
      const stored = await putNext({
        pools: [{ pool_id: 'main', label: 'Main pool' }],
        validator_weights: { mode: 'targets', targets: [{ uid: 0, weight: 1 }, { hotkey: '5Fhotkey', weight: 0.5 }] },
        local_competition: { weight: 0.25 },
        competition_defaults: { weight: 5, accepted_reward_floor_mode: 'fixed', accepted_reward_floor_value: 3.5 },
        competition_overrides: { 'speedrun-a': { scoring_mode: 'best_only' }, '7d1f6c1e-8a2b-4a57-9d51-3f0e3b0e5c11': { enabled: false } },
      });
      const expected = {
        version: stored.version,
        pools: [{ pool_id: 'main', label: 'Main pool', enabled: true, contract_hotkey_mode: 'main_contract', contract_hotkey: null, contract_address: null }],
        validator_weights: {
          mode: 'targets',
          targets: [
            { uid: 0, hotkey: null, weight: 1 },
            { uid: null, hotkey: '5Fhotkey', weight: 0.5 },
          ],
          version_key: 1337,
        },
        local_competition: { ...DEFAULT_COMPETITION, weight: 0.25 },
        competition_defaults: { ...DEFAULT_COMPETITION, weight: 5, accepted_reward_floor_mode: 'fixed', accepted_reward_floor_value: 3.5 },
        competition_overrides: {
          '7d1f6c1e-8a2b-4a57-9d51-3f0e3b0e5c11': { ...DEFAULT_COMPETITION, enabled: false },
          'speedrun-a': { ...DEFAULT_COMPETITION, scoring_mode: 'best_only' },
        },
        updated_at: stored.updated_at,
      };
      expect(stored).toEqual(expected);
      const read = await admin.current();
      expect(read).toEqual(expected);
      // Overrides come back sorted by key, whatever order they were sent in.
      expect(Object.keys(read.competition_overrides)).toEqual(['7d1f6c1e-8a2b-4a57-9d51-3f0e3b0e5c11', 'speedrun-a']);
    });

    it('keeps a validator_weights.transition_policy (DECISIONS §7) as sent, and writes none when absent', async () => {
      const transition = { status: 'active', required_contract_hotkey: '5Fcontract', required_contract_weight: 0.6, remaining_weight: 0.4 };
      const stored = await putNext({ validator_weights: { mode: 'burn_uid0', transition_policy: transition } });
      expect(stored.validator_weights).toEqual({ mode: 'burn_uid0', targets: [], version_key: 1337, transition_policy: transition });
      expect((await admin.current()).validator_weights).toEqual(stored.validator_weights);
      // Without one, the document has no transition_policy key at all (existing snapshots keep their bytes).
      expect(Object.keys((await putNext()).validator_weights)).toEqual(['mode', 'targets', 'version_key']);
    });

    it('refuses a lower and an equal version with 409 stale_policy_version and the current version, storing nothing', async () => {
      const current = await putNext({ competition_defaults: { weight: 2 } });
      for (const version of [current.version, current.version - 1, 1]) {
        const reply = await admin.put<ErrorBody>({ version, competition_defaults: { weight: 9 } });
        expect(reply.status).toBe(409);
        expect(reply.body.detail).toEqual({
          error: 'stale_policy_version',
          message: expect.any(String),
          version,
          current_version: current.version,
        });
      }
      expect(await admin.current()).toEqual(current);
    });

    it('accepts a version that skips numbers', async () => {
      const { version } = await admin.current();
      const reply = await admin.put({ version: version + 10 });
      expect(reply.status).toBe(200);
      expect((await admin.current()).version).toBe(version + 10);
    });

    it('of several concurrent PUTs of one new version, exactly one wins; the others get 409', async () => {
      const { version } = await admin.current();
      const replies = await Promise.all(
        Array.from({ length: 10 }, (_, index) => admin.put<RewardPolicyDto | ErrorBody>({ version: version + 1, competition_defaults: { weight: index } })),
      );
      const winners = replies.filter((reply) => reply.status === 200);
      expect(winners).toHaveLength(1);
      expect(replies.filter((reply) => reply.status === 409).map((reply) => (reply.body as ErrorBody).detail.error)).toEqual(
        Array(9).fill('stale_policy_version'),
      );
      expect(await admin.current()).toEqual(winners[0].body);
    });

    it('concurrent PUTs of different versions never store a lower version after a higher one', async () => {
      const { version } = await admin.current();
      const offsets = [7, 3, 9, 1, 5, 10, 2, 8, 4, 6];
      const replies = await Promise.all(offsets.map((offset) => admin.put<RewardPolicyDto | ErrorBody>({ version: version + offset })));
      for (const [index, reply] of replies.entries()) {
        if (reply.status === 409) expect((reply.body as ErrorBody).detail.current_version).toBeGreaterThanOrEqual(version + offsets[index]);
        else expect(reply.status).toBe(200);
      }
      expect((await admin.current()).version).toBe(version + 10);
      // Stored in version order: the newest-first list is also newest-first by time.
      const stored = (await admin.versions()).filter((entry) => entry.version > version);
      expect(stored.map((entry) => entry.updated_at)).toEqual(stored.map((entry) => entry.updated_at).sort().reverse());
    });
  });

  describe('GET /api/v1/reward-policy/versions', () => {
    it('lists every stored version, newest first, from version 1', async () => {
      const before = await admin.versions();
      const stored = await putNext({ competition_defaults: { weight: 3 } });
      const after = await admin.versions();
      expect(after).toEqual([{ version: stored.version, updated_at: stored.updated_at }, ...before]);
      expect(after.at(-1)).toEqual({ version: 1, updated_at: initial.updated_at });
      expect(after.map((entry) => entry.version)).toEqual(after.map((entry) => entry.version).sort((a, b) => b - a));
    });
  });

  describe('validation (422, nothing stored)', () => {
    let before: RewardPolicyDto;

    beforeEach(async () => {
      before = await admin.current();
    });

    afterEach(async () => {
      expect(await admin.current()).toEqual(before);
    });

    it('rejects unknown properties at every level of the document, each with its loc', async () => {
      const reply = await admin.put<ValidationBody>({
        version: before.version + 1,
        extra: 1,
        pools: [{ pool_id: 'main', label: 'Main', extra: 1 }],
        validator_weights: { extra: 1, targets: [{ uid: 1, weight: 1, extra: 1 }] },
        local_competition: { extra: 1 },
        competition_defaults: { extra: 1 },
        competition_overrides: { 'speedrun-a': { extra: 1 } },
      });
      expect(reply.status).toBe(422);
      expect(reply.body.detail.every((item) => item.type === 'extra_forbidden')).toBe(true);
      expect(locs(reply.body)).toEqual(
        [
          'body.extra',
          'body.pools.0.extra',
          'body.validator_weights.extra',
          'body.validator_weights.targets.0.extra',
          'body.local_competition.extra',
          'body.competition_defaults.extra',
          'body.competition_overrides.speedrun-a.extra',
        ].sort(),
      );
    });

    const TARGET_POOL_121 = 'p'.repeat(121);
    const violations: [string, Record<string, unknown>, string][] = [
      ['weight < 0', { competition_defaults: { weight: -0.5 } }, 'body.competition_defaults.weight'],
      ['weight < 0 in an override', { competition_overrides: { x: { weight: -1 } } }, 'body.competition_overrides.x.weight'],
      ['pool_id of 121 characters', { pools: [{ pool_id: TARGET_POOL_121, label: 'L' }] }, 'body.pools.0.pool_id'],
      ['pool without label', { pools: [{ pool_id: 'main' }] }, 'body.pools.0.label'],
      ['target_pool_id of 121 characters', { local_competition: { target_pool_id: TARGET_POOL_121 } }, 'body.local_competition.target_pool_id'],
      ['accepted_reward_floor_min_samples 0', { competition_defaults: { accepted_reward_floor_min_samples: 0 } }, 'body.competition_defaults.accepted_reward_floor_min_samples'],
      ['accepted_reward_floor_stddevs < 0', { competition_defaults: { accepted_reward_floor_stddevs: -0.1 } }, 'body.competition_defaults.accepted_reward_floor_stddevs'],
      ['accepted_reward_metric_tolerance < 0', { local_competition: { accepted_reward_metric_tolerance: -1e-9 } }, 'body.local_competition.accepted_reward_metric_tolerance'],
      ['unknown floor mode', { competition_defaults: { accepted_reward_floor_mode: 'median' } }, 'body.competition_defaults.accepted_reward_floor_mode'],
      ['target weight 0', { validator_weights: { mode: 'targets', targets: [{ uid: 3, weight: 0 }] } }, 'body.validator_weights.targets.0.weight'],
      ['target with both uid and hotkey', { validator_weights: { targets: [{ uid: 3, hotkey: '5Fhotkey', weight: 1 }] } }, 'body.validator_weights.targets.0'],
      ['target with neither uid nor hotkey', { validator_weights: { targets: [{ weight: 1 }] } }, 'body.validator_weights.targets.0'],
      ['unknown weights mode', { validator_weights: { mode: 'all' } }, 'body.validator_weights.mode'],
      ['transition weight above 1', { validator_weights: { transition_policy: { status: 'active', required_contract_hotkey: '5F', required_contract_weight: 1.5, remaining_weight: 0 } } }, 'body.validator_weights.transition_policy.required_contract_weight'],
      ['unknown transition status', { validator_weights: { transition_policy: { status: 'paused', required_contract_hotkey: '5F', required_contract_weight: 1, remaining_weight: 0 } } }, 'body.validator_weights.transition_policy.status'],
      ['override that is not an object', { competition_overrides: { x: 5 } }, 'body.competition_overrides.x'],
      ['duplicate pool_id', { pools: [{ pool_id: 'a', label: 'A' }, { pool_id: 'a', label: 'B' }] }, 'body.pools'],
    ];

    it.each(violations)('rejects %s', async (_name, patch, loc) => {
      const reply = await admin.put<ValidationBody>({ version: before.version + 1, ...patch });
      expect(reply.status).toBe(422);
      expect(locs(reply.body)).toEqual([loc]);
    });

    it.each([0, -1, 1.5, '2', 2 ** 31, Number.MAX_SAFE_INTEGER])('rejects version %p', async (version) => {
      const reply = await admin.put<ValidationBody>({ version });
      expect(reply.status).toBe(422);
      expect(locs(reply.body)).toEqual(['body.version']);
    });
  });

  describe('after a PUT', () => {
    let other: CoordinatorHarness;
    let events: QueueEvents;

    beforeAll(async () => {
      other = await startCoordinator();
      events = await rewardsQueueEvents(other);
    });

    afterAll(async () => {
      await events.close();
      await other.close();
    });

    async function snapshot(): Promise<RewardSnapshotDto> {
      const response = await fetch(`${other.url}/api/v1/reward-snapshot`);
      expect(response.status).toBe(200);
      return (await response.json()) as RewardSnapshotDto;
    }

    it('the queued snapshot rebuild serves the new policy', async () => {
      // Nothing else runs on this coordinator: only the PUT's rebuild can move the cached snapshot off version 1.
      expect((await snapshot()).reward_policy.version).toBe(1);
      const stored = await new AdminClient(other).put({ version: 2, competition_defaults: { weight: 4 } });
      expect(stored.status).toBe(200);
      for (;;) {
        // Listens before looking, so a rebuild finishing in between is not missed.
        const rebuild = nextRebuild(events);
        const served = await snapshot();
        if (served.reward_policy.version === 2) {
          rebuild.cancel();
          const { updated_at: _updatedAt, ...policy } = stored.body;
          expect(served.reward_policy).toEqual(policy);
          return;
        }
        await rebuild.done;
      }
    });
  });

  describe('the largest storable version', () => {
    let other: CoordinatorHarness;
    startCoordinatorForSuite({}, (started) => (other = started));

    it('is 2^31 - 1 (the column is a Postgres integer): stored, and nothing can follow it', async () => {
      const client = new AdminClient(other);
      expect((await client.put({ version: 2 ** 31 - 1 })).status).toBe(200);
      const reply = await client.put<ErrorBody>({ version: 2 ** 31 - 1 });
      expect(reply.status).toBe(409);
      expect(reply.body.detail).toMatchObject({ error: 'stale_policy_version', current_version: 2 ** 31 - 1 });
    });
  });

  describe('admin auth', () => {
    const routes: ['GET' | 'PUT', string][] = [
      ['GET', POLICY_PATH],
      ['PUT', POLICY_PATH],
      ['GET', VERSIONS_PATH],
    ];

    it.each(routes)('%s %s without a valid admin token is 401 invalid_admin_token', async (method, path) => {
      for (const token of [null, 'not-the-token']) {
        const reply = await new AdminClient(h, token).send<ErrorBody>(method, path, method === 'PUT' ? { version: 1000 } : undefined);
        expect(reply.status).toBe(401);
        expect(reply.body.detail.error).toBe('invalid_admin_token');
      }
    });

    describe('without ADMIN_TOKENS', () => {
      let unconfigured: CoordinatorHarness;
      startCoordinatorForSuite({ ADMIN_TOKENS: '' }, (started) => (unconfigured = started));

      it.each(routes)('%s %s is 503 admin_unconfigured', async (method, path) => {
        const reply = await new AdminClient(unconfigured, 'any-token').send<ErrorBody>(method, path, method === 'PUT' ? { version: 2 } : undefined);
        expect(reply.status).toBe(503);
        expect(reply.body.detail.error).toBe('admin_unconfigured');
      });
    });
  });

  it('documents the routes with their request and response schemas in /openapi.json', async () => {
    const document = (await (await fetch(`${h.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>>;
    };
    const policy = document.paths[POLICY_PATH];
    expect(JSON.stringify(policy.put.requestBody)).toContain('UpdateRewardPolicyDto');
    expect(JSON.stringify(policy.put.responses['200'])).toContain('RewardPolicyDto');
    expect(Object.keys(policy.put.responses)).toEqual(expect.arrayContaining(['200', '401', '409', '422', '503']));
    expect(JSON.stringify(policy.get.responses['200'])).toContain('RewardPolicyDto');
    expect(JSON.stringify(document.paths[VERSIONS_PATH].get.responses['200'])).toContain('RewardPolicyVersionDto');
  });
});
