/**
 * The bare reference of `npm run bench -- http`: Fastify + `pg` doing, per route, the minimal correct
 * work — one query per read, and for writes the BT-AUTH-V1 signature check plus the one durable
 * statement the write needs (no replay guard, no rate limit, no logging). Same database as the
 * coordinator under test, same pool size (10). With `prepared`, its two write statements are named
 * prepared statements, as the coordinator's are (planned once per connection).
 * Usage: bare-coordinator.ts <port> <postgres-url> [prepared]
 */
import Fastify, { FastifyReply, FastifyRequest } from 'fastify';
import { Pool } from 'pg';
import {
  buildMessage,
  canonicalBody,
  cryptoReady,
  decodePublicKey,
  decodeSignature,
  freshTimestamp,
  headerValue,
  HOTKEY_HEADER,
  SIGNATURE_HEADER,
  splitUrl,
  ss58OfPublicKey,
  TIMESTAMP_HEADER,
  verifyDecoded,
} from '@rcs/auth';
import { isUuid } from '@rcs/contracts';

const [port, databaseUrl, mode] = process.argv.slice(2);
/** A statement's name when writes are prepared, else undefined (pg's unnamed statement, parsed and planned each time). */
const named = (name: string): string | undefined => (mode === 'prepared' ? name : undefined);
const CLAIM_TTL_SECONDS = 2700;

const pool = new Pool({ connectionString: databaseUrl, max: 10 });
const app = Fastify({ logger: false });

app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
  try {
    done(null, { raw: body as string, json: JSON.parse(body as string) as unknown });
  } catch (error) {
    done(error as Error, undefined);
  }
});

const TASK_COLUMNS = `id, slug, title, brief, repository, base_ref, setup_command, benchmark_command, result_path, allowed_patch_paths,
  max_patch_bytes, metric_name, metric_direction, ranking_mode, secondary_metric_name, secondary_metric_direction, metric_resolution,
  metric_resolution_mode, reference_model_id, reference_parameter_count, model_family, slug_compatibility_note, competition_mode,
  min_peer_evaluations, time_budget_seconds, task_state, created_at`;

type Row = Record<string, unknown>;

function taskDto(row: Row): Row {
  const path = `/api/v1/tasks/${String(row.id)}`;
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    brief: row.brief,
    onboard_path: `${path}/onboard.md`,
    claim_path: `${path}/claim`,
    best_result_path: `${path}/best`,
    repository: row.repository,
    base_ref: row.base_ref,
    setup_command: row.setup_command,
    benchmark_command: row.benchmark_command,
    result_path: row.result_path,
    allowed_patch_paths: row.allowed_patch_paths,
    max_patch_bytes: row.max_patch_bytes,
    metric_name: row.metric_name,
    metric_direction: row.metric_direction,
    ranking_mode: row.ranking_mode,
    secondary_metric_name: row.secondary_metric_name,
    secondary_metric_direction: row.secondary_metric_direction,
    metric_resolution: row.metric_resolution,
    metric_resolution_mode: row.metric_resolution_mode,
    reference_model_id: row.reference_model_id,
    reference_parameter_count: row.reference_parameter_count === null ? null : Number(row.reference_parameter_count),
    model_family: row.model_family,
    slug_compatibility_note: row.slug_compatibility_note,
    competition_mode: row.competition_mode,
    min_peer_evaluations: row.min_peer_evaluations,
    time_budget_seconds: row.time_budget_seconds,
    task_state: row.task_state,
    is_active: row.task_state === 'live',
    created_at: (row.created_at as Date).toISOString(),
  };
}

function notFound(reply: FastifyReply, code: string): FastifyReply {
  return reply.code(404).send({ detail: { code, message: 'not found' } });
}

/** The signature check of BT-AUTH-V1: the canonical SS58 signer, or null. */
function verify(request: FastifyRequest, raw: string | undefined): string | null {
  const headers = request.headers;
  const hotkey = headerValue(headers, HOTKEY_HEADER);
  const timestamp = headerValue(headers, TIMESTAMP_HEADER);
  const signature = headerValue(headers, SIGNATURE_HEADER);
  if (hotkey === undefined || timestamp === undefined || signature === undefined) return null;
  if (freshTimestamp(timestamp, Math.floor(Date.now() / 1000), 300) === null) return null;
  const { path, query } = splitUrl(request.originalUrl);
  const message = buildMessage({ method: request.method, path, query, timestamp, canonicalBody: canonicalBody(raw) });
  const sig = decodeSignature(signature);
  const key = decodePublicKey(hotkey);
  if (sig === null || key === null || !verifyDecoded(message, sig, key)) return null;
  return ss58OfPublicKey(key);
}

app.get('/healthz', async () => ({ status: 'ok' }));

app.get('/api/v1/tasks', async () => {
  const { rows } = await pool.query(`SELECT ${TASK_COLUMNS} FROM tasks ORDER BY created_at DESC, id DESC LIMIT 50`);
  return rows.map(taskDto);
});

app.get<{ Params: { id: string } }>('/api/v1/tasks/:id', async (request, reply) => {
  if (!isUuid(request.params.id)) return notFound(reply, 'task_not_found');
  const { rows } = await pool.query(`SELECT ${TASK_COLUMNS} FROM tasks WHERE id = $1`, [request.params.id]);
  return rows.length === 0 ? notFound(reply, 'task_not_found') : taskDto(rows[0] as Row);
});

app.get<{ Params: { id: string } }>('/api/v1/tasks/:id/best', async (request, reply) => {
  if (!isUuid(request.params.id)) return notFound(reply, 'task_not_found');
  const { rows } = await pool.query(
    `SELECT t.id AS task, b.submission_id, b.metric_name, b.metric_direction, b.metric_value, b.miner_hotkey, b.updated_at
     FROM tasks t LEFT JOIN best_results b ON b.task_id = t.id WHERE t.id = $1`,
    [request.params.id],
  );
  const row = rows[0] as Row | undefined;
  if (!row) return notFound(reply, 'task_not_found');
  if (row.submission_id === null) return notFound(reply, 'best_result_not_found');
  return {
    task_id: row.task,
    submission_id: row.submission_id,
    metric_name: row.metric_name,
    metric_direction: row.metric_direction,
    metric_unit: null,
    metric_value: row.metric_value,
    miner_hotkey: row.miner_hotkey,
    updated_at: (row.updated_at as Date).toISOString(),
  };
});

// A miner's results page in one statement: the page of miner_task_results, each row's best by one index probe.
const MINER_RESULTS = `
SELECT t.id AS task_id, t.slug AS task_slug, t.title AS task_title, t.task_state, t.metric_name, t.metric_direction, m.accepted, m.latest_decided_at,
       top.id AS best_submission_id, top.verified_metric_value AS best_metric_value, top.decided_at AS best_decided_at, b.miner_hotkey = $1 AS holds_best
FROM miner_task_results m JOIN tasks t ON t.id = m.task_id LEFT JOIN best_results b ON b.task_id = t.id
CROSS JOIN LATERAL (
  (SELECT s.id, s.verified_metric_value, s.decided_at FROM submissions s WHERE t.metric_direction = 'minimize' AND s.miner_hotkey = $1 AND s.task_id = m.task_id
     AND s.status = 'accepted' ORDER BY s.verified_metric_value ASC NULLS LAST, s.decided_at, s.id LIMIT 1)
  UNION ALL
  (SELECT s.id, s.verified_metric_value, s.decided_at FROM submissions s WHERE t.metric_direction = 'maximize' AND s.miner_hotkey = $1 AND s.task_id = m.task_id
     AND s.status = 'accepted' ORDER BY s.verified_metric_value DESC NULLS LAST, s.decided_at, s.id LIMIT 1)) top
WHERE m.miner_hotkey = $1 ORDER BY m.latest_decided_at DESC, m.task_id DESC LIMIT 100`;

app.get<{ Params: { hotkey: string } }>('/api/v1/miners/:hotkey/results', async (request, reply) => {
  const key = decodePublicKey(request.params.hotkey);
  if (key === null) return reply.code(422).send({ detail: [{ type: 'ss58_invalid', loc: ['path', 'hotkey'], msg: 'not a valid SS58 address' }] });
  const hotkey = ss58OfPublicKey(key);
  const { rows } = await pool.query(MINER_RESULTS, [hotkey]);
  return {
    hotkey,
    competitions: (rows as Row[]).map((row) => ({
      task_id: row.task_id,
      task_slug: row.task_slug,
      task_title: row.task_title,
      task_state: row.task_state,
      metric_name: row.metric_name,
      metric_direction: row.metric_direction,
      accepted: row.accepted,
      best: { submission_id: row.best_submission_id, metric_value: row.best_metric_value, decided_at: (row.best_decided_at as Date).toISOString() },
      latest_decided_at: (row.latest_decided_at as Date).toISOString(),
      holds_best: row.holds_best === true,
    })),
  };
});

app.get('/api/v1/reward-snapshot', async (_request, reply) => {
  const { rows } = await pool.query(`SELECT generated_at, body FROM reward_snapshots ORDER BY generated_at DESC LIMIT 1`);
  const row = rows[0] as { generated_at: Date; body: string } | undefined;
  if (!row) return reply.code(503).send({ detail: { code: 'snapshot_missing', message: 'none' } });
  return reply.type('application/json; charset=utf-8').header('x-snapshot-generated-at', row.generated_at.toISOString()).send(row.body);
});

// The dashboard's reads as one statement (one snapshot), assembled here.
const DASHBOARD = `
WITH recent AS (
  SELECT t.id, t.slug, t.title, t.task_state, t.competition_mode, t.metric_name, t.metric_direction, t.created_at,
         b.submission_id AS best_submission_id, b.miner_hotkey AS best_miner_hotkey, b.metric_value AS best_metric_value, b.updated_at AS best_updated_at
  FROM tasks t LEFT JOIN best_results b ON b.task_id = t.id ORDER BY t.created_at DESC, t.id DESC LIMIT 200)
SELECT now() AS now,
  (SELECT json_agg(x) FROM (SELECT task_state, count(*)::int AS count FROM tasks GROUP BY task_state) x) AS states,
  (SELECT json_agg(recent) FROM recent) AS tasks,
  (SELECT json_agg(x) FROM (SELECT task_id, status, count(*)::int AS count FROM submissions WHERE task_id IN (SELECT id FROM recent) GROUP BY task_id, status) x) AS submissions,
  (SELECT json_agg(x) FROM (SELECT task_id, count(*)::int AS count FROM claims WHERE status = 'active' AND expires_at > now() AND task_id IN (SELECT id FROM recent) GROUP BY task_id) x) AS claims,
  (SELECT json_agg(x) FROM (SELECT task_id, count(*)::int AS count FROM work_items WHERE status = 'open' AND task_id IN (SELECT id FROM recent) GROUP BY task_id) x) AS work_items,
  (SELECT row_to_json(x) FROM (SELECT count(*) FILTER (WHERE status = 'pending')::int AS pending_jobs, count(*) FILTER (WHERE status = 'leased')::int AS leased_jobs,
     count(*) FILTER (WHERE status = 'leased' AND lease_expires_at < now())::int AS expired_leases,
     floor(extract(epoch FROM now() - min(created_at) FILTER (WHERE status = 'pending')))::int AS oldest_pending_age_seconds
     FROM validator_jobs WHERE status IN ('pending', 'leased')) x) AS backlog,
  (SELECT json_agg(x) FROM (SELECT s.task_id, t.slug AS task_slug, s.id AS submission_id, s.miner_hotkey, s.status, t.metric_name, s.verified_metric_value, s.decided_at
     FROM submissions s JOIN tasks t ON t.id = s.task_id WHERE s.decided_at IS NOT NULL ORDER BY s.decided_at DESC, s.id DESC LIMIT 20) x) AS decisions`;

app.get('/api/v1/dashboard', async () => {
  const { rows } = await pool.query(DASHBOARD);
  const row = rows[0] as { now: Date; states: Row[] | null; tasks: Row[] | null; submissions: Row[] | null; claims: Row[] | null; work_items: Row[] | null; backlog: Row; decisions: Row[] | null };
  const counts = { live: 0, paused: 0, closed: 0, total: 0 } as Record<string, number>;
  for (const s of row.states ?? []) {
    counts[s.task_state as string] += s.count as number;
    counts.total += s.count as number;
  }
  const byTask = (list: Row[] | null): Map<unknown, number> => new Map((list ?? []).map((r) => [r.task_id, r.count as number]));
  const claims = byTask(row.claims);
  const items = byTask(row.work_items);
  const submissions = new Map<unknown, Record<string, number>>();
  for (const s of row.submissions ?? []) {
    const entry = submissions.get(s.task_id) ?? { pending_verification: 0, accepted: 0, rejected: 0, error: 0, total: 0 };
    entry[s.status as string] += s.count as number;
    entry.total += s.count as number;
    submissions.set(s.task_id, entry);
  }
  return {
    generated_at: row.now.toISOString(),
    task_counts: counts,
    tasks: (row.tasks ?? []).map((t) => ({
      id: t.id,
      slug: t.slug,
      title: t.title,
      task_state: t.task_state,
      competition_mode: t.competition_mode,
      metric_name: t.metric_name,
      metric_direction: t.metric_direction,
      created_at: new Date(t.created_at as string).toISOString(),
      best:
        t.best_submission_id === null
          ? null
          : { submission_id: t.best_submission_id, miner_hotkey: t.best_miner_hotkey, metric_value: t.best_metric_value, updated_at: new Date(t.best_updated_at as string).toISOString() },
      submissions: submissions.get(t.id) ?? { pending_verification: 0, accepted: 0, rejected: 0, error: 0, total: 0 },
      active_claims: claims.get(t.id) ?? 0,
      open_work_items: items.get(t.id) ?? 0,
      // The bare reference leaves held-out budgets out (DECISIONS §17).
      exposure: null,
    })),
    tasks_truncated: counts.total > 200,
    validator_backlog: row.backlog,
    recent_decisions: (row.decisions ?? []).map((d) => ({ ...d, decided_at: new Date(d.decided_at as string).toISOString() })),
  };
});

app.get<{ Params: { id: string } }>('/api/v1/submissions/:id', async (request, reply) => {
  if (verify(request, undefined) === null) return reply.code(401).send({ detail: { code: 'invalid_signature', message: 'bad signature' } });
  if (!isUuid(request.params.id)) return notFound(reply, 'submission_not_found');
  const { rows } = await pool.query(
    `SELECT id, task_id, claim_id, miner_hotkey, base_ref, patch, summary, proposed_idea, implemented_submission_id, artifact_uri,
            artifact_sha256, artifact_size_bytes, execution_log, claimed_metrics, status, created_at, updated_at
     FROM submissions WHERE id = $1`,
    [request.params.id],
  );
  const row = rows[0] as Row | undefined;
  if (!row) return notFound(reply, 'submission_not_found');
  return {
    ...row,
    artifact_size_bytes: row.artifact_size_bytes === null ? null : Number(row.artifact_size_bytes),
    created_at: (row.created_at as Date).toISOString(),
    updated_at: (row.updated_at as Date).toISOString(),
  };
});

type Parsed = { raw: string; json: Record<string, unknown> };

app.post<{ Params: { id: string }; Body: Parsed }>('/api/v1/tasks/:id/claim', async (request, reply) => {
  const hotkey = verify(request, request.body.raw);
  if (hotkey === null) return reply.code(401).send({ detail: { code: 'invalid_signature', message: 'bad signature' } });
  if (!isUuid(request.params.id)) return notFound(reply, 'task_not_found');
  // The one statement: the task must be live, one active claim per miner and task (the partial unique index).
  const { rows } = await pool.query({
    name: named('bare_claim'),
    text: `INSERT INTO claims (task_id, miner_hotkey, claim_description, status, expires_at)
     SELECT id, $2, $3, 'active', now() + make_interval(secs => $4) FROM tasks WHERE id = $1 AND task_state = 'live'
     ON CONFLICT (task_id, miner_hotkey) WHERE status = 'active' DO NOTHING
     RETURNING id, task_id, miner_hotkey, claim_description, status, expires_at, created_at`,
    values: [request.params.id, hotkey, request.body.json.claim_description, CLAIM_TTL_SECONDS],
  });
  if (rows.length === 0) return reply.code(409).send({ detail: { code: 'duplicate_active_claim', message: 'conflict' } });
  return reply.code(201).send(rows[0]);
});

app.post<{ Body: Parsed }>('/api/v1/submissions', async (request, reply) => {
  const hotkey = verify(request, request.body.raw);
  if (hotkey === null) return reply.code(401).send({ detail: { code: 'invalid_signature', message: 'bad signature' } });
  const body = request.body.json;
  const { rows } = await pool.query({
    name: named('bare_submission'),
    text: `WITH claim AS (
       UPDATE claims SET status = 'submitted', updated_at = now()
       WHERE id = $1 AND miner_hotkey = $2 AND status = 'active' AND expires_at > now()
         AND EXISTS (SELECT 1 FROM tasks t WHERE t.id = claims.task_id AND t.task_state = 'live')
       RETURNING id, task_id
     ), submission AS (
       INSERT INTO submissions (task_id, claim_id, miner_hotkey, base_ref, patch, summary, status)
       SELECT task_id, id, $2, $3, $4, $5, 'pending_verification' FROM claim
       RETURNING id, task_id, claim_id, miner_hotkey, status, created_at
     ), job AS (
       INSERT INTO validator_jobs (submission_id, task_id, status) SELECT id, task_id, 'pending' FROM submission
     )
     SELECT * FROM submission`,
    values: [body.claim_id, hotkey, body.base_ref, body.patch, body.summary],
  });
  if (rows.length === 0) return reply.code(409).send({ detail: { code: 'claim_not_active', message: 'conflict' } });
  return reply.code(201).send(rows[0]);
});

async function main(): Promise<void> {
  await cryptoReady();
  await app.listen({ port: Number(port), host: '127.0.0.1' });
  process.once('SIGTERM', () => void app.close().then(() => pool.end()).then(() => process.exit(0)));
}

void main();
