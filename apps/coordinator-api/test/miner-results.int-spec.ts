import { randomBytes } from 'node:crypto';
import { MinerResultsDto, SubmissionDto, TaskDto } from '@rcs/contracts';
import { accountIdToSs58, ss58ToAccountId } from '@rcs/merkle';
import { CoordinatorHarness } from './harness';
import { expectStatus, Reply } from './submissions-fixtures';
import { Cast, startValidationForSuite, ValidationClient } from './validator-jobs-fixtures';

/** GET /api/v1/miners/{hotkey}/results: a miner's accepted results per competition, public, by any SS58 spelling. */
describe('GET /api/v1/miners/{hotkey}/results', () => {
  let api: ValidationClient;
  let h: CoordinatorHarness;
  let people: Cast;
  let main: TaskDto;
  let side: TaskDto;
  const decided: Record<string, SubmissionDto> = {};
  const secret = `private-note-${randomBytes(6).toString('hex')}`;

  startValidationForSuite((setup) => ({ api, people, h } = setup));

  /** A submission by `miner` that //Alice decides with `verdict`. */
  async function decide(name: string, miner: Cast['dave'], task: TaskDto, verdict: Record<string, unknown>): Promise<void> {
    const submission = await api.pending(miner, task.id, { execution_log: secret });
    expectStatus(await api.verify(people.alice, submission.id, verdict), 200);
    decided[name] = submission;
  }

  beforeAll(async () => {
    main = await api.createTask({ title: 'Main task' });
    side = await api.createTask({ title: 'Side task', metric_name: 'score', metric_direction: 'maximize' });
    await decide('mainFirst', people.dave, main, { status: 'accepted', observed_metrics: { loss: 0.5 } });
    await decide('mainBetter', people.dave, main, { status: 'accepted', observed_metrics: { loss: 0.3 } });
    await decide('mainRejected', people.dave, main, { status: 'rejected', notes: secret });
    await decide('sideEve', people.eve, side, { status: 'accepted', observed_metrics: { score: 0.9 } });
    await decide('sideDave', people.dave, side, { status: 'accepted', observed_metrics: { score: 0.4 } });
  }, 60_000);

  const read = (hotkey: string, query = '') => api.anonymous<MinerResultsDto>('GET', `/api/v1/miners/${encodeURIComponent(hotkey)}/results${query}`);

  it('lists each competition with an accepted result: count, best by direction, latest decision, and who holds the best', async () => {
    const reply = await read(people.dave.hotkey);
    expectStatus(reply, 200);
    expect(reply.body).toEqual({
      hotkey: people.dave.hotkey,
      competitions: [
        {
          task_id: side.id,
          task_slug: side.slug,
          task_title: 'Side task',
          task_state: 'live',
          metric_name: 'score',
          metric_direction: 'maximize',
          accepted: 1,
          best: { submission_id: decided.sideDave.id, metric_value: 0.4, decided_at: expect.any(String) },
          latest_decided_at: expect.any(String),
          // Eve's 0.9 is the side task's best.
          holds_best: false,
        },
        {
          task_id: main.id,
          task_slug: main.slug,
          task_title: 'Main task',
          task_state: 'live',
          metric_name: 'loss',
          metric_direction: 'minimize',
          // The rejected one is not a result.
          accepted: 2,
          best: { submission_id: decided.mainBetter.id, metric_value: 0.3, decided_at: expect.any(String) },
          latest_decided_at: expect.any(String),
          holds_best: true,
        },
      ],
    });
    const [sideRow, mainRow] = reply.body.competitions;
    expect(Date.parse(sideRow.latest_decided_at)).toBeGreaterThanOrEqual(Date.parse(mainRow.latest_decided_at));
    expect(mainRow.latest_decided_at).toBe(mainRow.best.decided_at);
    // Nothing private: no patch, log, artifact or validator note comes with it.
    expect(reply.text).not.toContain(secret);
    expect(reply.text).not.toContain('cdn.test');
  });

  it('answers the same for any SS58 spelling, with the canonical hotkey', async () => {
    const polkadot = accountIdToSs58(ss58ToAccountId(people.dave.hotkey), 0);
    expect(polkadot).not.toBe(people.dave.hotkey);
    const [canonical, other] = [await read(people.dave.hotkey), await read(polkadot)];
    expectStatus(other, 200);
    expect(other.body).toEqual(canonical.body);
  });

  it('pages with limit and offset, and is empty for a hotkey without an accepted result', async () => {
    const first = await read(people.dave.hotkey, '?limit=1');
    expect(first.body.competitions.map((c) => c.task_id)).toEqual([side.id]);
    const second = await read(people.dave.hotkey, '?limit=1&offset=1');
    expect(second.body.competitions.map((c) => c.task_id)).toEqual([main.id]);
    const none = await read(people.charlie.hotkey);
    expectStatus(none, 200);
    expect(none.body).toEqual({ hotkey: people.charlie.hotkey, competitions: [] });
  });

  it('pages by keyset: after=<latest_decided_at>,<task_id> of the last row starts the next page there', async () => {
    const [first] = (await read(people.dave.hotkey, '?limit=1')).body.competitions;
    const next = await read(people.dave.hotkey, `?limit=1&after=${encodeURIComponent(`${first.latest_decided_at},${first.task_id}`)}`);
    expectStatus(next, 200);
    expect(next.body.competitions.map((c) => c.task_id)).toEqual([main.id]);
    const [last] = next.body.competitions;
    const end = await read(people.dave.hotkey, `?after=${encodeURIComponent(`${last.latest_decided_at},${last.task_id}`)}`);
    expect(end.body.competitions).toEqual([]);
    for (const cursor of ['yesterday', `${first.latest_decided_at}`, `${first.latest_decided_at},not-a-uuid`]) {
      const refused = await read(people.dave.hotkey, `?after=${encodeURIComponent(cursor)}`);
      expectStatus(refused, 422);
      expect((refused.body as unknown as { detail: { loc: string[] }[] }).detail[0].loc).toEqual(['query', 'after']);
    }
  });

  it('keeps its per-competition rows exact when a result stops being accepted or is removed', async () => {
    const before = (await read(people.eve.hotkey)).body.competitions;
    expect(before).toMatchObject([{ task_id: side.id, accepted: 1 }]);
    await h.db.dataSource.query(`UPDATE submissions SET status = 'rejected' WHERE id = $1`, [decided.sideEve.id]);
    expect((await read(people.eve.hotkey)).body.competitions).toEqual([]);
    await h.db.dataSource.query(`UPDATE submissions SET status = 'accepted' WHERE id = $1`, [decided.sideEve.id]);
    expect((await read(people.eve.hotkey)).body.competitions).toEqual(before);
  });

  it('refuses a hotkey that is no SS58 address, and bounds outside the limits, with 422 items', async () => {
    const malformed: Reply<unknown> = await read('not-an-address');
    expectStatus(malformed, 422);
    expect(malformed.body).toEqual({ detail: [{ type: 'ss58_invalid', loc: ['path', 'hotkey'], msg: 'Value error, not a valid SS58 address', input: 'not-an-address' }] });
    // One character changed: the checksum no longer holds.
    const flipped = `${people.dave.hotkey.slice(0, -1)}${people.dave.hotkey.endsWith('a') ? 'b' : 'a'}`;
    expectStatus(await read(flipped), 422);
    for (const query of ['?limit=0', '?limit=1001', '?offset=-1', '?sort=best']) {
      const reply = await read(people.dave.hotkey, query);
      expectStatus(reply, 422);
      expect((reply.body as unknown as { detail: { loc: string[] }[] }).detail[0].loc[0]).toBe('query');
    }
  });

  it('shares one read among concurrent requests, with an ETag and 304, and never answers from before a request came in', async () => {
    const path = `${h.url}/api/v1/miners/${encodeURIComponent(people.eve.hotkey)}/results`;
    const burst = await Promise.all(Array.from({ length: 20 }, () => fetch(path)));
    const bodies = await Promise.all(burst.map((r) => r.text()));
    expect(burst.every((r) => r.status === 200)).toBe(true);
    expect(new Set(bodies).size).toBe(1);
    const etag = burst[0].headers.get('etag') ?? '';
    expect(etag).toMatch(/^".+"$/);
    const unchanged = await fetch(path, { headers: { 'if-none-match': etag } });
    expect(unchanged.status).toBe(304);
    expect(await unchanged.text()).toBe('');
    // A decision committed before the next read is in its answer, even while a burst keeps the shared read busy.
    await decide('sideEveAgain', people.eve, side, { status: 'accepted', observed_metrics: { score: 0.95 } });
    const [after] = await Promise.all([fetch(path, { headers: { 'if-none-match': etag } }), Promise.all(Array.from({ length: 10 }, () => fetch(path)))]);
    expect(after.status).toBe(200);
    expect(((await after.json()) as MinerResultsDto).competitions).toEqual([expect.objectContaining({ task_id: side.id, accepted: 2, best: expect.objectContaining({ metric_value: 0.95 }) })]);
  });

  it('is documented in /openapi.json as a public read with MinerResultsDto', async () => {
    const document = (await (await fetch(`${h.url}/openapi.json`)).json()) as {
      paths: Record<string, { get?: { security?: unknown[]; responses: Record<string, { content?: { 'application/json'?: { schema?: { $ref?: string } } } }> } }>;
    };
    const route = document.paths['/api/v1/miners/{hotkey}/results'].get;
    expect(route?.responses['200'].content?.['application/json']?.schema?.$ref).toBe('#/components/schemas/MinerResultsDto');
    expect(Object.keys(route?.responses ?? {}).sort()).toEqual(['200', '422']);
  });
});
