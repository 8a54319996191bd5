import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { ServiceAnswerError, type CoordinatorRoutes, type JsonDocument } from '@rcs/client';
import { checkPatch } from '@rcs/patch';
import { artifactDigest, ProgressBar } from '../artifact/artifact-digest';
import { asArray, asObject, type GlobalArgs, type Json } from '../context';
import { CliRefusedError, CliUsageError } from '../errors';
import { followEvents } from '../events/event-stream';
import { workingTreePatch } from '../git/working-tree-patch';
import { display, fields, table } from '../output/io';
import type { Handle } from './handle';

const PENDING = 'pending_verification';
/** Claims are listed newest first; a claim to submit on is recent, so a few pages find it. */
const CLAIM_PAGES = 10;
const CLAIM_PAGE_SIZE = 1000;

export function minerCommands(yargs: Argv<GlobalArgs>, handle: Handle): Argv<GlobalArgs> {
  return yargs
    .command(
      'tasks',
      'List competitions: state, mode, metric and current best',
      (y) =>
        y
          .option('state', { type: 'string', choices: ['live', 'paused', 'closed'], describe: 'Only tasks in this state' })
          .option('limit', { type: 'number', default: 100, describe: 'At most this many (1..1000)' }),
      handle(async (ctx, args) => {
        const api = await ctx.coordinator();
        const list = await api.tasks({ task_state: args.state, limit: args.limit });
        if (ctx.json) return ctx.print(list, () => '');
        const tasks = asArray(list.value);
        const bests = await Promise.all(tasks.map((task) => bestOrNull(api, String(task['id']))));
        const rows = tasks.map((task, i) => [
          String(task['id']),
          String(task['slug']),
          String(task['task_state']),
          String(task['competition_mode']),
          `${String(task['metric_name'])} (${String(task['metric_direction'])})`,
          bests[i] === null ? '-' : metricText(asObject(bests[i]?.value)['metric_value']),
        ]);
        ctx.io.stdout(tasks.length === 0 ? 'no tasks\n' : table(['ID', 'SLUG', 'STATE', 'MODE', 'METRIC', 'BEST'], rows));
      }),
    )
    .command(
      'task <id>',
      'Show one competition',
      (y) => y.positional('id', { type: 'string', demandOption: true, describe: 'Task id' }),
      handle(async (ctx, args) => {
        const api = await ctx.coordinator();
        const task = await api.task(args.id);
        ctx.print(task, (value) => {
          const t = asObject(value);
          return fields([
            ['id', t['id']],
            ['slug', t['slug']],
            ['title', t['title']],
            ['state', t['task_state']],
            ['mode', t['competition_mode']],
            ['metric', `${String(t['metric_name'])} (${String(t['metric_direction'])})`],
            ['repository', t['repository']],
            ['base_ref', t['base_ref']],
            ['allowed paths', (t['allowed_patch_paths'] as string[] | undefined)?.join(', ')],
            ['max patch bytes', t['max_patch_bytes']],
            ['time budget', `${String(t['time_budget_seconds'])} s`],
            // Under a held-out budget (DECISIONS §17): what the active shard has released; '-' for exact release.
            ['held-out exposure', exposureLine(t['exposure'])],
            ['onboarding', `rcs onboard ${String(t['id'])}`],
          ]);
        });
      }),
    )
    .command(
      'onboard <id>',
      "Print a competition's onboarding document (Markdown)",
      (y) => y.positional('id', { type: 'string', demandOption: true, describe: 'Task id' }),
      handle(async (ctx, args) => {
        const markdown = await (await ctx.coordinator()).onboard(args.id);
        ctx.io.stdout(markdown.endsWith('\n') ? markdown : `${markdown}\n`);
      }),
    )
    .command(
      'claim [task]',
      'Claim a live task (or an open work item with --work-item)',
      (y) =>
        y
          .positional('task', { type: 'string', describe: 'Task id' })
          .option('work-item', { type: 'string', describe: 'Claim this work item instead of a task' })
          .option('description', { type: 'string', describe: 'What you intend to try (claim_description)' })
          .option('base-submission', { type: 'string', describe: 'Build on this earlier submission of the task' })
          .check((a) => {
            if ((a.task === undefined) === (a['work-item'] === undefined)) throw new CliUsageError('name a task, or a work item with --work-item (one of them)');
            return true;
          }),
      handle(async (ctx, args) => {
        const api = await ctx.coordinator({ signed: true });
        const claim =
          args['work-item'] !== undefined
            ? await api.claimWorkItem(args['work-item'], args.description === undefined ? {} : { claim_description: args.description })
            : await api.claimTask(args.task as string, {
                claim_description: args.description ?? 'Claimed with rcs.',
                ...(args['base-submission'] === undefined ? {} : { base_submission_id: args['base-submission'] }),
              });
        ctx.print(claim, (value) => {
          const c = asObject(value);
          const disclaimer = asObject(c['participation_disclaimer']);
          const text = fields([
            ['claim', c['id']],
            ['task', c['task_id']],
            ['status', c['status']],
            ['expires', c['expires_at']],
            ['next', `rcs submit --claim ${String(c['id'])} --repo <your clone> --summary "…"`],
          ]);
          return typeof disclaimer['title'] === 'string' ? `${text}\n${disclaimer['title']}\n` : text;
        });
      }),
    )
    .command(
      'submit',
      "Submit on your claim: the patch is git diff --binary of --repo's working tree against the task's base",
      (y) =>
        y
          .option('claim', { type: 'string', demandOption: true, describe: 'Your active claim' })
          .option('task', { type: 'string', describe: "The claim's task (found from the claim when omitted)" })
          .option('repo', { type: 'string', describe: 'Your clone of the task repository (default: the current directory)' })
          .option('artifact-only', { type: 'boolean', default: false, describe: 'Send no patch, only the artifact' })
          .option('summary', { type: 'string', demandOption: true, describe: 'What you changed and why' })
          .option('metric', { type: 'array', string: true, default: [] as string[], describe: 'Claimed metric, NAME=VALUE (repeatable)' })
          .option('idea', { type: 'string', describe: 'proposed_idea (centerless tasks require one)' })
          .option('implements', { type: 'string', describe: "implemented_submission_id: another miner's idea you implemented" })
          .option('log', { type: 'string', describe: 'A file with your execution log' })
          .option('artifact', { type: 'string', describe: 'A local artifact file: its SHA-256 and size are computed here' })
          .option('artifact-uri', { type: 'string', describe: 'Where validators download the artifact (https://)' })
          .check((a) => {
            if ((a.artifact === undefined) !== (a['artifact-uri'] === undefined)) throw new CliUsageError('--artifact and --artifact-uri go together');
            return true;
          }),
      handle(async (ctx, args) => {
        const api = await ctx.coordinator({ signed: true });
        const taskId = args.task ?? (await taskOfClaim(api, args.claim));
        const task = asObject((await api.task(taskId)).value);
        const baseRef = String(task['base_ref']);
        const body: Json = { claim_id: args.claim, base_ref: baseRef, summary: args.summary, claimed_metrics: parseMetrics(args.metric) };
        if (!args['artifact-only']) {
          const repo = resolve(args.repo ?? '.');
          const patch = await workingTreePatch(repo, baseRef);
          const verdict = checkPatch(patch, { allowedPatchPaths: (task['allowed_patch_paths'] as string[] | undefined) ?? [], maxPatchBytes: Number(task['max_patch_bytes']) });
          if (!verdict.ok) throw new CliRefusedError(`the patch breaks the task's rules, nothing was sent:\n${verdict.violations.map((v) => `  ${v.type}: ${v.msg}`).join('\n')}`);
          if (patch !== '') {
            body['patch'] = patch;
            ctx.note(`patch: ${Buffer.byteLength(patch)} bytes, ${verdict.files.length} file(s) against ${baseRef}: ${verdict.files.map((f) => f.newPath ?? f.oldPath).join(', ')}`);
          }
        }
        if (args.artifact !== undefined) {
          const digest = await artifactDigest(args.artifact, (total) => new ProgressBar((text) => ctx.io.stderr(text), ctx.io.stderrIsTty, 'sha256', total));
          Object.assign(body, { artifact_uri: args['artifact-uri'], artifact_sha256: digest.sha256, artifact_size_bytes: digest.sizeBytes });
          ctx.note(`artifact: ${digest.sizeBytes} bytes, sha256 ${digest.sha256}`);
        }
        if (body['patch'] === undefined && body['artifact_uri'] === undefined) {
          throw new CliUsageError(`nothing to submit: the working tree has no changes against ${baseRef}, and no --artifact was given`);
        }
        if (args.idea !== undefined) body['proposed_idea'] = args.idea;
        if (args.implements !== undefined) body['implemented_submission_id'] = args.implements;
        if (args.log !== undefined) body['execution_log'] = readLocal(args.log, '--log');
        const submission = await api.submit(body);
        ctx.print(submission, (value) => {
          const s = asObject(value);
          return fields([
            ['submission', s['id']],
            ['status', s['status']],
            ['next', `rcs watch ${String(s['id'])}`],
          ]);
        });
      }),
    )
    .command(
      'status <submission>',
      'Show a submission of yours: status, verifications, metric',
      (y) => y.positional('submission', { type: 'string', demandOption: true }),
      handle(async (ctx, args) => {
        const api = await ctx.coordinator({ signed: true });
        const detail = await api.submissionDetail(args.submission);
        if (ctx.json) return ctx.print(detail, () => '');
        const secondary = await secondaryMetricOf(api, String(asObject(asObject(detail.value)['submission'])['task_id']));
        ctx.print(detail, (value) => humanDetail(value, secondary));
      }),
    )
    .command(
      'watch <submission>',
      'Follow the event stream until the submission is decided, then print the verdict and the best (exit 1 unless accepted)',
      (y) => y.positional('submission', { type: 'string', demandOption: true }).option('timeout', { type: 'number', default: 3600, describe: 'Give up after this many seconds' }),
      handle(async (ctx, args) => {
        const api = await ctx.coordinator({ signed: true });
        const decided = async (): Promise<boolean> => asObject((await api.submission(args.submission)).value)['status'] !== PENDING;
        if (!ctx.json) ctx.note(`watching ${args.submission} on ${ctx.settings.coordinatorUrl}/api/v1/events …`);
        await followEvents(
          `${ctx.settings.coordinatorUrl}/api/v1/events`,
          decided,
          (event) => event.event === 'decision' && asObject(JSON.parse(event.data))['submission_id'] === args.submission,
          args.timeout * 1000,
        );
        const detail = await api.submissionDetail(args.submission);
        const submission = asObject(asObject(detail.value)['submission']);
        const best = await bestOrNull(api, String(submission['task_id']));
        if (ctx.json) {
          ctx.print(detail, () => '');
          if (best !== null) ctx.print(best, () => '');
        } else {
          const secondary = await secondaryMetricOf(api, String(submission['task_id']));
          ctx.io.stdout(humanDetail(detail.value, secondary));
          const b = asObject(best?.value);
          const bestSecondary = best === null || secondary === null ? '' : `, ${secondary} = ${metricText(await bestSecondaryValue(api, String(submission['task_id']), String(b['submission_id'])))}`;
          ctx.io.stdout(
            best === null
              ? 'best:      none yet\n'
              : `best:      ${String(b['metric_name'])} = ${metricText(b['metric_value'])}${bestSecondary} by ${String(b['miner_hotkey'])} (submission ${String(b['submission_id'])})\n`,
          );
        }
        if (submission['status'] !== 'accepted') throw new CliRefusedError(`the submission was ${String(submission['status'])}`);
      }),
    )
    .command(
      'cancel <claim>',
      'Cancel your active claim (a work item it held returns to open)',
      (y) => y.positional('claim', { type: 'string', demandOption: true }),
      handle(async (ctx, args) => {
        const claim = await (await ctx.coordinator({ signed: true })).cancelClaim(args.claim);
        ctx.print(claim, (value) => fields([['claim', asObject(value)['id']], ['status', asObject(value)['status']]]));
      }),
    )
    .command(
      'peer-evaluate <submission>',
      "Post your evaluation of another miner's submission (peer_evaluation tasks)",
      (y) =>
        y
          .positional('submission', { type: 'string', demandOption: true })
          .option('status', { type: 'string', choices: ['accepted', 'rejected', 'error'], demandOption: true })
          .option('metric', { type: 'array', string: true, default: [] as string[], describe: 'Observed metric, NAME=VALUE (repeatable)' })
          .option('notes', { type: 'string' }),
      handle(async (ctx, args) => {
        const api = await ctx.coordinator({ signed: true });
        const answer = await api.peerEvaluate(args.submission, { status: args.status, observed_metrics: parseMetrics(args.metric), ...(args.notes === undefined ? {} : { notes: args.notes }) });
        ctx.print(answer, (value) => fields(Object.entries(asObject(value))));
      }),
    );
}

/** A metric as people read it: six significant digits (`9.98911`, not `9.989105720417284`); other values as they are. */
export function metricText(value: unknown): string {
  return typeof value === 'number' && Number.isFinite(value) && !Number.isInteger(value) ? String(Number(value.toPrecision(6))) : display(value);
}

/** The task's secondary metric (what decides inside its band), or null when it has none. */
async function secondaryMetricOf(api: CoordinatorRoutes, taskId: string): Promise<string | null> {
  const name = asObject((await api.task(taskId)).value)['secondary_metric_name'];
  return typeof name === 'string' && name !== '' ? name : null;
}

/** The secondary metric of the task's best, from the newest change of best that names that submission. */
async function bestSecondaryValue(api: CoordinatorRoutes, taskId: string, submissionId: string): Promise<unknown> {
  const changes = asArray((await api.bestHistory(taskId)).value).filter((change) => change['submission_id'] === submissionId);
  return changes.at(-1)?.['secondary_metric_value'] ?? null;
}

function humanDetail(value: unknown, secondary: string | null = null): string {
  const detail = asObject(value);
  const submission = asObject(detail['submission']);
  const verifications = asArray(detail['verifications']);
  const metric = String(detail['metric_name']);
  const lines = fields([
    ['submission', submission['id']],
    ['task', submission['task_id']],
    ['status', submission['status']],
    ['claimed', JSON.stringify(submission['claimed_metrics'] ?? {})],
  ]);
  // The secondary metric beside the primary: inside the task's band it decides the best.
  const observed = (v: Record<string, unknown>) => (secondary === null ? '' : `, ${secondary} = ${metricText(asObject(v['observed_metrics'])[secondary])}`);
  const rows = verifications.map((v) => [String(v['status']), `${metric} = ${metricText(v['metric_value'])}${observed(v)}`, String(v['validator_hotkey']), display(v['notes'])]);
  return rows.length === 0 ? lines : `${lines}${table(['VERIFICATION', 'METRIC', 'VALIDATOR', 'NOTES'], rows)}`;
}

/** The task's best, or null before the first accepted result (404). */
async function bestOrNull(api: CoordinatorRoutes, taskId: string): Promise<JsonDocument<unknown> | null> {
  try {
    return await api.best(taskId);
  } catch (error) {
    if (error instanceof ServiceAnswerError && error.status === 404) return null;
    throw error;
  }
}

/** The task a claim belongs to, from the public claim list (newest first). */
async function taskOfClaim(api: CoordinatorRoutes, claimId: string): Promise<string> {
  for (let page = 0; page < CLAIM_PAGES; page += 1) {
    const claims = asArray((await api.claims({ limit: CLAIM_PAGE_SIZE, offset: page * CLAIM_PAGE_SIZE })).value);
    const claim = claims.find((c) => c['id'] === claimId);
    if (claim) return String(claim['task_id']);
    if (claims.length < CLAIM_PAGE_SIZE) break;
  }
  throw new CliRefusedError(`claim ${claimId} is not among the coordinator's claims; check the id or pass --task`);
}

/** `NAME=VALUE` pairs; numbers stay numbers. */
export function parseMetrics(pairs: string[]): Record<string, number> {
  const metrics: Record<string, number> = {};
  for (const pair of pairs) {
    const match = /^([^=]+)=(.+)$/.exec(pair);
    const value = match ? Number(match[2]) : NaN;
    if (!match || !Number.isFinite(value)) throw new CliUsageError(`--metric ${pair}: expected NAME=NUMBER`);
    metrics[match[1].trim()] = value;
  }
  return metrics;
}

function readLocal(path: string, flag: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliUsageError(`cannot read ${flag} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** `16/32 bits spent, 1 release, open` from a task's `exposure`; undefined (printed `-`) when it has none. */
function exposureLine(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const e = value as Record<string, unknown>;
  return `${String(e['spent_bits'])}/${String(e['budget_bits'])} bits spent, ${String(e['releases'])} ${e['releases'] === 1 ? 'release' : 'releases'}, ${String(e['status'])}`;
}
