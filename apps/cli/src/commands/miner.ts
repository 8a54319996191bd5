import type { Argv } from 'yargs';
import { ServiceAnswerError, type CoordinatorRoutes, type JsonDocument } from '@rcs/client';
import { SubmissionStatus, VERDICT_STATUSES, type BestResultDto, type SubmissionDetailDto, type TaskExposureDto, type VerificationStatus } from '@rcs/contracts';
import type { GlobalArgs } from '../context';
import { CliRefusedError, CliUsageError } from '../errors';
import { followEvents } from '../events/event-stream';
import { display, fields, table } from '../output/io';
import type { Handle } from './handle';
import { parseMetrics, submitCommand } from './submit';

export function minerCommands(yargs: Argv<GlobalArgs>, handle: Handle): Argv<GlobalArgs> {
  const claiming = yargs
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
        const tasks = list.value;
        const bests = await Promise.all(tasks.map((task) => bestOrNull(api, task.id)));
        const rows = tasks.map((task, i) => [
          task.id,
          task.slug,
          task.task_state,
          task.competition_mode,
          `${task.metric_name} (${task.metric_direction})`,
          metricText(bests[i]?.value.metric_value ?? null),
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
        ctx.print(task, (t) =>
          fields([
            ['id', t.id],
            ['slug', t.slug],
            ['title', t.title],
            ['state', t.task_state],
            ['mode', t.competition_mode],
            ['metric', `${t.metric_name} (${t.metric_direction})`],
            ['repository', t.repository],
            ['base_ref', t.base_ref],
            ['allowed paths', t.allowed_patch_paths.join(', ')],
            ['max patch bytes', t.max_patch_bytes],
            ['time budget', `${t.time_budget_seconds} s`],
            // Under a held-out budget (DECISIONS §17): what the active shard has released; '-' for exact release.
            ['held-out exposure', exposureLine(t.exposure)],
            ['onboarding', `rcs onboard ${t.id}`],
          ]),
        );
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
      'ideas <task>',
      "List a task's ideas (centerless): what you can implement with rcs submit --implements <submission>",
      (y) =>
        y
          .positional('task', { type: 'string', demandOption: true, describe: 'Task id' })
          .option('limit', { type: 'number', default: 100, describe: 'At most this many (1..1000)' }),
      handle(async (ctx, args) => {
        const ideas = await (await ctx.coordinator()).taskIdeas(args.task, { limit: args.limit });
        ctx.print(ideas, (rows) =>
          rows.length === 0
            ? 'no ideas yet\n'
            : table(
                ['SUBMISSION', 'MINER', 'STATUS', 'IDEA'],
                rows.map((idea) => [idea.submission_id, idea.miner_hotkey, idea.status, idea.proposed_idea]),
              ),
        );
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
        ctx.print(claim, (c) => {
          const text = fields([
            ['claim', c.id],
            ['task', c.task_id],
            ['status', c.status],
            ['expires', c.expires_at],
            ['next', `rcs submit --claim ${c.id} --repo <your clone> --summary "…"`],
          ]);
          return c.participation_disclaimer === undefined ? text : `${text}\n${c.participation_disclaimer.title}\n`;
        });
      }),
    );
  return submitCommand(claiming, handle)
    .command(
      'status <submission>',
      'Show a submission of yours: status, verifications, metric',
      (y) => y.positional('submission', { type: 'string', demandOption: true }),
      handle(async (ctx, args) => {
        const api = await ctx.coordinator({ signed: true });
        const detail = await api.submissionDetail(args.submission);
        if (ctx.json) return ctx.print(detail, () => '');
        const secondary = await secondaryMetricOf(api, detail.value.submission.task_id);
        ctx.print(detail, (value) => humanDetail(value, secondary));
      }),
    )
    .command(
      'watch <submission>',
      'Follow the event stream until the submission is decided, then print the verdict and the best (exit 1 unless accepted)',
      (y) => y.positional('submission', { type: 'string', demandOption: true }).option('timeout', { type: 'number', default: 3600, describe: 'Give up after this many seconds' }),
      handle(async (ctx, args) => {
        const api = await ctx.coordinator({ signed: true });
        const decided = async (): Promise<boolean> => (await api.submission(args.submission)).value.status !== SubmissionStatus.PendingVerification;
        if (!ctx.json) ctx.note(`watching ${args.submission} on ${ctx.settings.coordinatorUrl}/api/v1/events …`);
        await followEvents(
          `${ctx.settings.coordinatorUrl}/api/v1/events`,
          decided,
          (event) => event.event === 'decision' && (JSON.parse(event.data) as { submission_id?: unknown }).submission_id === args.submission,
          args.timeout * 1000,
        );
        const detail = await api.submissionDetail(args.submission);
        const submission = detail.value.submission;
        const best = await bestOrNull(api, submission.task_id);
        if (ctx.json) {
          ctx.print(detail, () => '');
          if (best !== null) ctx.print(best, () => '');
        } else {
          const secondary = await secondaryMetricOf(api, submission.task_id);
          ctx.io.stdout(humanDetail(detail.value, secondary));
          ctx.io.stdout(best === null ? 'best:      none yet\n' : `best:      ${await bestLine(api, best.value, secondary)}\n`);
        }
        if (submission.status !== SubmissionStatus.Accepted) throw new CliRefusedError(`the submission was ${submission.status}`);
      }),
    )
    .command(
      'cancel <claim>',
      'Cancel your active claim (a work item it held returns to open)',
      (y) => y.positional('claim', { type: 'string', demandOption: true }),
      handle(async (ctx, args) => {
        const claim = await (await ctx.coordinator({ signed: true })).cancelClaim(args.claim);
        ctx.print(claim, (c) => fields([['claim', c.id], ['status', c.status]]));
      }),
    )
    .command(
      'peer-evaluate <submission>',
      "Post your evaluation of another miner's submission (peer_evaluation tasks)",
      (y) =>
        y
          .positional('submission', { type: 'string', demandOption: true })
          .option('status', { type: 'string', choices: VERDICT_STATUSES, demandOption: true, coerce: (status: string) => status as VerificationStatus })
          .option('metric', { type: 'array', string: true, default: [] as string[], describe: 'Observed metric, NAME=VALUE (repeatable)' })
          .option('notes', { type: 'string' }),
      handle(async (ctx, args) => {
        const api = await ctx.coordinator({ signed: true });
        const answer = await api.peerEvaluate(args.submission, { status: args.status, observed_metrics: parseMetrics(args.metric), ...(args.notes === undefined ? {} : { notes: args.notes }) });
        ctx.print(answer, (value) => fields(Object.entries(value)));
      }),
    );
}

/** A metric as people read it: six significant digits (`9.98911`, not `9.989105720417284`); other values as they are. */
export function metricText(value: unknown): string {
  return typeof value === 'number' && Number.isFinite(value) && !Number.isInteger(value) ? String(Number(value.toPrecision(6))) : display(value);
}

/** The task's secondary metric (what decides inside its band), or null when it has none. */
async function secondaryMetricOf(api: CoordinatorRoutes, taskId: string): Promise<string | null> {
  const name = (await api.task(taskId)).value.secondary_metric_name;
  return typeof name === 'string' && name !== '' ? name : null;
}

/** The secondary metric of the task's best, from the newest change of best that names that submission. */
async function bestSecondaryValue(api: CoordinatorRoutes, taskId: string, submissionId: string): Promise<unknown> {
  const changes = (await api.bestHistory(taskId)).value.filter((change) => change.submission_id === submissionId);
  return changes.at(-1)?.secondary_metric_value ?? null;
}

/** `loss = 0.625, model_bytes = 13 by <hotkey> (submission <id>)`: the best as `rcs watch` prints it. */
export async function bestLine(api: CoordinatorRoutes, best: BestResultDto, secondary: string | null): Promise<string> {
  const bestSecondary = secondary === null ? '' : `, ${secondary} = ${metricText(await bestSecondaryValue(api, best.task_id, best.submission_id))}`;
  return `${best.metric_name} = ${metricText(best.metric_value)}${bestSecondary} by ${best.miner_hotkey} (submission ${best.submission_id})`;
}

function humanDetail(detail: SubmissionDetailDto, secondary: string | null = null): string {
  const { submission, verifications } = detail;
  const lines = fields([
    ['submission', submission.id],
    ['task', submission.task_id],
    ['status', submission.status],
    ['claimed', JSON.stringify(submission.claimed_metrics ?? {})],
  ]);
  // The secondary metric beside the primary: inside the task's band it decides the best.
  const observed = (v: { observed_metrics: Record<string, unknown> }) => (secondary === null ? '' : `, ${secondary} = ${metricText(v.observed_metrics[secondary])}`);
  const rows = verifications.map((v) => [String(v.status), `${detail.metric_name} = ${metricText(v.metric_value)}${observed(v)}`, v.validator_hotkey, display(v.notes)]);
  return rows.length === 0 ? lines : `${lines}${table(['VERIFICATION', 'METRIC', 'VALIDATOR', 'NOTES'], rows)}`;
}

/** The task's best, or null before the first accepted result (404). */
export async function bestOrNull(api: CoordinatorRoutes, taskId: string): Promise<JsonDocument<BestResultDto> | null> {
  try {
    return await api.best(taskId);
  } catch (error) {
    if (error instanceof ServiceAnswerError && error.status === 404) return null;
    throw error;
  }
}

/** `16/32 bits spent, 1 release, open` from a task's `exposure`; undefined (printed `-`) when it has none. */
function exposureLine(exposure: TaskExposureDto | null | undefined): string | undefined {
  if (!exposure) return undefined;
  return `${exposure.spent_bits}/${exposure.budget_bits} bits spent, ${exposure.releases} ${exposure.releases === 1 ? 'release' : 'releases'}, ${exposure.status}`;
}
