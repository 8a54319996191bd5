import { resolve } from 'node:path';
import { canonicalSs58 } from '@rcs/auth';
import { ServiceAnswerError, type CoordinatorRoutes } from '@rcs/client';
import { SubmissionStatus, VERDICT_STATUSES, type VerificationStatus } from '@rcs/contracts';
import { verifyClaimPackage, type ClaimPackage } from '@rcs/merkle';
import { bestOrNull } from '../commands/miner';
import type { CommandContext } from '../context';
import { CliRefusedError, CliUsageError } from '../errors';
import { followEvents } from '../events/event-stream';
import { checkTaskPatch, patchOf, prepareSubmission, taskOfClaim, type PatchSource } from '../miner/submission';
import { arg, type ToolInput } from './tool-input';

/** What a tool call works with: the CLI's context (settings, key, clients) and a way to report progress. */
export interface ToolCall {
  ctx: CommandContext;
  /** A `notifications/progress` to the client when it asked for progress (a `progressToken`); else nothing. */
  progress(message: string): Promise<void>;
}

/** MCP tool annotations (hints to the client; a destructive tool changes what cannot be taken back). */
export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint: boolean;
}

export interface McpTool {
  name: string;
  description: string;
  input: ToolInput;
  annotations: ToolAnnotations;
  /** The result, JSON (or Markdown text for `onboarding`). */
  run(args: Record<string, unknown>, call: ToolCall): Promise<unknown>;
}

const READ = (title: string): ToolAnnotations => ({ title, readOnlyHint: true, openWorldHint: false });
const WRITE = (title: string, destructive: boolean): ToolAnnotations => ({ title, readOnlyHint: false, destructiveHint: destructive, idempotentHint: false, openWorldHint: false });

const TASK_ID = { type: 'string', description: 'Task id (uuid)' } as const;
const LIMIT = { type: 'integer', description: 'At most this many rows (1..1000, default 100)', minimum: 1, maximum: 1000 } as const;
const REPO = { type: 'string', description: "A clone of the task repository: its working tree is diffed against the task's base_ref (git diff --binary)" } as const;
const PATCH = { type: 'string', description: 'A unified git diff against the task base_ref (instead of repo)' } as const;
/** The longest a `watch` waits for a decision. */
const MAX_WATCH_SECONDS = 3600;

const coordinator = (call: ToolCall, signed = false): Promise<CoordinatorRoutes> => call.ctx.coordinator({ signed });

function patchSource(args: Record<string, unknown>): PatchSource {
  const repo = arg.text(args, 'repo');
  const patch = arg.text(args, 'patch');
  if (repo !== undefined && patch !== undefined) throw new CliUsageError('give repo or patch, not both');
  if (repo !== undefined) return { kind: 'tree', repo: resolve(repo) };
  return patch === undefined ? { kind: 'none' } : { kind: 'diff', patch };
}

/** The tools of DECISIONS §18, each a thin call of `@rcs/client` (or the CLI's own checks before a call). */
export const MINER_TOOLS: McpTool[] = [
  {
    name: 'list_tasks',
    description: 'List competitions (tasks): id, slug, state, mode, metric and direction, repository, base_ref, allowed patch paths.',
    input: { properties: { state: { type: 'string', description: 'Only tasks in this state', enum: ['live', 'paused', 'closed'] }, limit: LIMIT } },
    annotations: READ('List competitions'),
    run: async (args, call) => (await (await coordinator(call)).tasks({ task_state: arg.text(args, 'state'), limit: arg.int(args, 'limit') })).value,
  },
  {
    name: 'get_task',
    description: 'One competition, with everything a submission must respect (allowed_patch_paths, max_patch_bytes, base_ref, time budget).',
    input: { properties: { task_id: TASK_ID }, required: ['task_id'] },
    annotations: READ('Show a competition'),
    run: async (args, call) => (await (await coordinator(call)).task(arg.text(args, 'task_id') as string)).value,
  },
  {
    name: 'onboarding',
    description: "A competition's onboarding document (Markdown): model contract, source, allowed edit surfaces, environment, agent workflow, mode rules. Also a resource per task.",
    input: { properties: { task_id: TASK_ID }, required: ['task_id'] },
    annotations: READ('Read the onboarding document'),
    run: async (args, call) => ({ markdown: await (await coordinator(call)).onboard(arg.text(args, 'task_id') as string) }),
  },
  {
    name: 'best',
    description: "A competition's current best result (null before the first accepted one).",
    input: { properties: { task_id: TASK_ID }, required: ['task_id'] },
    annotations: READ('Current best'),
    run: async (args, call) => ({ best: (await bestOrNull(await coordinator(call), arg.text(args, 'task_id') as string))?.value ?? null }),
  },
  {
    name: 'list_ideas',
    description: "A task's proposed ideas, newest first: on a centerless task name one (submission_id) as implemented_submission_id when you submit.",
    input: { properties: { task_id: TASK_ID, limit: LIMIT }, required: ['task_id'] },
    annotations: READ('List ideas'),
    run: async (args, call) => (await (await coordinator(call)).taskIdeas(arg.text(args, 'task_id') as string, { limit: arg.int(args, 'limit') })).value,
  },
  {
    name: 'list_work_items',
    description: 'Work items (planned pieces of work on a task), filtered by task and status.',
    input: { properties: { task_id: TASK_ID, status: { type: 'string', description: 'open, claimed, completed or cancelled' }, limit: LIMIT } },
    annotations: READ('List work items'),
    run: async (args, call) => (await (await coordinator(call)).workItems({ task_id: arg.text(args, 'task_id'), status: arg.text(args, 'status'), limit: arg.int(args, 'limit') })).value,
  },
  {
    name: 'claim_task',
    description: 'Claim a live task (signed with your hotkey): one active claim per task, valid for the claim TTL. The answer carries the participation disclaimer.',
    input: {
      properties: {
        task_id: TASK_ID,
        description: { type: 'string', description: 'What you intend to try (claim_description)' },
        base_submission_id: { type: 'string', description: 'Build on this earlier submission of the task' },
      },
      required: ['task_id'],
    },
    annotations: WRITE('Claim a task', false),
    run: async (args, call) => {
      const base = arg.text(args, 'base_submission_id');
      const body = { claim_description: arg.text(args, 'description') ?? 'Claimed with rcs mcp.', ...(base === undefined ? {} : { base_submission_id: base }) };
      return (await (await coordinator(call, true)).claimTask(arg.text(args, 'task_id') as string, body)).value;
    },
  },
  {
    name: 'claim_work_item',
    description: 'Claim an open work item (signed).',
    input: { properties: { work_item_id: { type: 'string', description: 'Work item id' }, description: { type: 'string', description: 'What you intend to try' } }, required: ['work_item_id'] },
    annotations: WRITE('Claim a work item', false),
    run: async (args, call) => {
      const description = arg.text(args, 'description');
      return (await (await coordinator(call, true)).claimWorkItem(arg.text(args, 'work_item_id') as string, description === undefined ? {} : { claim_description: description })).value;
    },
  },
  {
    name: 'cancel_claim',
    description: 'Cancel your active claim (signed); a work item it held returns to open. Cannot be undone.',
    input: { properties: { claim_id: { type: 'string', description: 'Your active claim' } }, required: ['claim_id'] },
    annotations: WRITE('Cancel a claim', true),
    run: async (args, call) => (await (await coordinator(call, true)).cancelClaim(arg.text(args, 'claim_id') as string)).value,
  },
  {
    name: 'check_patch',
    description:
      "Check a patch against a task's rules (the coordinator's own patch rules: allowed paths, size, no bytecode or binary, parseable) without sending anything. " +
      'Give the task (or your claim) and a working tree (repo) or a diff (patch).',
    input: { properties: { task_id: TASK_ID, claim_id: { type: 'string', description: 'Your claim (its task is used)' }, repo: REPO, patch: PATCH } },
    annotations: READ('Check a patch'),
    run: async (args, call) => {
      const api = await coordinator(call);
      const claimId = arg.text(args, 'claim_id');
      const taskId = arg.text(args, 'task_id') ?? (claimId === undefined ? undefined : await taskOfClaim(api, claimId));
      if (taskId === undefined) throw new CliUsageError('give task_id or claim_id');
      const source = patchSource(args);
      if (source.kind === 'none') throw new CliUsageError('give repo or patch');
      const task = (await api.task(taskId)).value;
      const patch = await patchOf(source, task.base_ref);
      const verdict = checkTaskPatch(task, patch);
      return {
        ok: verdict.ok,
        task_id: task.id,
        base_ref: task.base_ref,
        patch_bytes: Buffer.byteLength(patch),
        files: verdict.files.map((file) => file.newPath ?? file.oldPath),
        violations: verdict.ok ? [] : verdict.violations.map((v) => ({ type: v.type, msg: v.msg })),
      };
    },
  },
  {
    name: 'submit',
    description:
      "Submit on your active claim (signed): a patch from a working tree (repo) or a diff (patch), and/or an artifact (https URI, SHA-256, size). The patch is checked by the task's rules first; " +
      'a patch that breaks them is refused and nothing is sent. Uses up the claim; cannot be undone.',
    input: {
      properties: {
        claim_id: { type: 'string', description: 'Your active claim' },
        summary: { type: 'string', description: 'What you changed and why' },
        claimed_metrics: { type: 'object', description: 'The metrics you measured, name → number', additionalProperties: { type: 'number' } },
        repo: REPO,
        patch: PATCH,
        artifact_uri: { type: 'string', description: 'Where validators download the artifact (https://)' },
        artifact_sha256: { type: 'string', description: 'SHA-256 of the artifact, 64 hex characters' },
        artifact_size_bytes: { type: 'integer', description: 'Size of the artifact in bytes', minimum: 1 },
        proposed_idea: { type: 'string', description: 'Your idea (centerless tasks require one)' },
        implemented_submission_id: { type: 'string', description: "Another miner's idea you implemented (see list_ideas)" },
        execution_log: { type: 'string', description: 'Your execution log' },
      },
      required: ['claim_id', 'summary'],
    },
    annotations: WRITE('Submit', true),
    run: async (args, call) => {
      const api = await coordinator(call, true);
      const uri = arg.text(args, 'artifact_uri');
      const sha256 = arg.text(args, 'artifact_sha256');
      const size = arg.int(args, 'artifact_size_bytes');
      const parts = [uri, sha256, size].filter((part) => part !== undefined).length;
      if (parts !== 0 && parts !== 3) throw new CliUsageError('artifact_uri, artifact_sha256 and artifact_size_bytes go together');
      const prepared = await prepareSubmission(api, {
        claimId: arg.text(args, 'claim_id') as string,
        source: patchSource(args),
        summary: arg.text(args, 'summary') as string,
        claimedMetrics: arg.metrics(args, 'claimed_metrics'),
        proposedIdea: arg.text(args, 'proposed_idea'),
        implementedSubmissionId: arg.text(args, 'implemented_submission_id'),
        executionLog: arg.text(args, 'execution_log'),
        artifact: parts === 3 ? { uri: uri as string, sha256: sha256 as string, sizeBytes: size as number } : undefined,
      });
      const { patch: _sent, ...submission } = (await api.submit(prepared.body)).value;
      return { ...submission, patch_files: prepared.files };
    },
  },
  {
    name: 'submission_status',
    description: 'One of your submissions (signed read): status, verifications with their metrics, peer evaluations.',
    input: { properties: { submission_id: { type: 'string', description: 'Submission id' } }, required: ['submission_id'] },
    annotations: READ('Submission status'),
    run: async (args, call) => {
      const { submission, ...rest } = (await (await coordinator(call, true)).submissionDetail(arg.text(args, 'submission_id') as string)).value;
      const { patch: _patch, ...shown } = submission;
      return { submission: shown, ...rest };
    },
  },
  {
    name: 'watch',
    description:
      "Follow the coordinator's event stream until the submission is decided; progress notifications carry each event about it (send a progressToken). " +
      'Answers the decision and the task best.',
    input: {
      properties: {
        submission_id: { type: 'string', description: 'Submission id' },
        timeout_seconds: { type: 'integer', description: `Give up after this many seconds (default 600, at most ${MAX_WATCH_SECONDS})`, minimum: 1, maximum: MAX_WATCH_SECONDS },
      },
      required: ['submission_id'],
    },
    annotations: READ('Watch a submission'),
    run: async (args, call) => {
      const id = arg.text(args, 'submission_id') as string;
      const api = await coordinator(call, true);
      const pending = async (): Promise<boolean> => (await api.submission(id)).value.status === SubmissionStatus.PendingVerification;
      await call.progress(`watching ${id}`);
      await followEvents(
        `${call.ctx.settings.coordinatorUrl}/api/v1/events`,
        async () => !(await pending()),
        (event) => {
          const data = JSON.parse(event.data) as { submission_id?: unknown };
          if (data.submission_id !== id) return false;
          void call.progress(`${event.event}: ${event.data}`);
          return event.event === 'decision';
        },
        (arg.int(args, 'timeout_seconds') ?? 600) * 1000,
      );
      const detail = (await api.submissionDetail(id)).value;
      const best = await bestOrNull(api, detail.submission.task_id);
      const { patch: _patch, ...submission } = detail.submission;
      return { status: submission.status, submission, verifications: detail.verifications, metric_name: detail.metric_name, best: best?.value ?? null };
    },
  },
  {
    name: 'peer_evaluate',
    description: "Post your evaluation of another miner's submission (peer_evaluation tasks; signed). Cannot be undone.",
    input: {
      properties: {
        submission_id: { type: 'string', description: 'The submission you evaluated' },
        status: { type: 'string', description: 'Your verdict', enum: VERDICT_STATUSES },
        observed_metrics: { type: 'object', description: 'What you measured, name → number', additionalProperties: { type: 'number' } },
        notes: { type: 'string', description: 'Notes' },
      },
      required: ['submission_id', 'status'],
    },
    annotations: WRITE('Peer-evaluate', true),
    run: async (args, call) => {
      const notes = arg.text(args, 'notes');
      const body = { status: arg.text(args, 'status') as VerificationStatus, observed_metrics: arg.metrics(args, 'observed_metrics'), ...(notes === undefined ? {} : { notes }) };
      return (await (await coordinator(call, true)).peerEvaluate(arg.text(args, 'submission_id') as string, body)).value;
    },
  },
  {
    name: 'my_rewards',
    description: 'Your accepted results and bests per competition (by your hotkey), and the reward your newest payout package holds at the pool.',
    input: { properties: {} },
    annotations: READ('My rewards'),
    run: async (_args, call) => {
      const hotkey = (await call.ctx.signer()).hotkey;
      const results = (await (await coordinator(call)).minerResults(hotkey)).value;
      const pkg = await packageOrNull(call, hotkey, null);
      return { hotkey, competitions: results.competitions, payout: pkg === null ? null : { epoch: pkg.epoch, cumulative_rao: pkg.amount, recipient_coldkey: pkg.recipient_coldkey } };
    },
  },
  {
    name: 'set_recipient',
    description: 'Set the coldkey your payouts go to (at the pool; signed by your hotkey). Replaces the previous recipient.',
    input: { properties: { coldkey: { type: 'string', description: 'SS58 coldkey' } }, required: ['coldkey'] },
    annotations: WRITE('Set payout recipient', true),
    run: async (args, call) => {
      const coldkey = arg.text(args, 'coldkey') as string;
      await (await call.ctx.pool({ signed: true })).setRecipient(coldkey);
      return { hotkey: call.ctx.signerHotkey(), recipient_coldkey: coldkey };
    },
  },
  {
    name: 'payout_status',
    description: "A hotkey's payout state at the pool (yours by default): its recipient coldkey and its newest Merkle package (epoch, cumulative amount).",
    input: { properties: { hotkey: { type: 'string', description: 'SS58 hotkey (any prefix); yours by default' } } },
    annotations: READ('Payout status'),
    run: async (args, call) => {
      const hotkey = arg.text(args, 'hotkey') ?? (await call.ctx.signer()).hotkey;
      const pool = await call.ctx.pool();
      const recipient = await notFoundAsNull(async () => (await pool.recipient(hotkey)).value);
      const pkg = await packageOrNull(call, hotkey, null);
      return { hotkey: canonicalSs58(hotkey) ?? hotkey, recipient, package: pkg };
    },
  },
  {
    name: 'build_claim',
    description:
      'The unsigned claim call for your payout package: claim_single on the claim contract with the package (checked: it is yours and its proof leads to its root). ' +
      'Nothing is signed or broadcast; sign it with your own wallet (or run rcs payout claim).',
    input: { properties: { epoch: { type: 'integer', description: 'That epoch’s package (default: the newest)', minimum: 0 } } },
    annotations: READ('Build an unsigned claim'),
    run: async (args, call) => {
      const hotkey = (await call.ctx.signer()).hotkey;
      const pkg = await packageOrNull(call, hotkey, arg.int(args, 'epoch') ?? null);
      if (pkg === null) throw new CliRefusedError(`no payout package for ${hotkey} yet`);
      const verdict = verifyClaimPackage(pkg);
      if (!verdict.ok) throw new CliRefusedError(`the pool's package does not verify: ${verdict.reason}`);
      return {
        unsigned: true,
        contract_method: 'claim_single',
        args: { data: { epoch: pkg.epoch, index: pkg.index, hotkey: pkg.hotkey, recipient_coldkey: pkg.recipient_coldkey, amount: pkg.amount, proof: pkg.proof }, transfer: true },
        root: pkg.root,
        leaf_count: pkg.leaf_count,
      };
    },
  },
  {
    name: 'disclaimer',
    description: 'The participation disclaimer every miner must read (title, text, version).',
    input: { properties: {} },
    annotations: READ('Participation disclaimer'),
    run: async (_args, call) => (await (await coordinator(call)).disclaimer()).value,
  },
];

async function notFoundAsNull<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ServiceAnswerError && error.status === 404) return null;
    throw error;
  }
}

/** The hotkey's package at the pool (of `epoch`, else the newest), null before it has one; refused when it is another's. */
async function packageOrNull(call: ToolCall, hotkey: string, epoch: number | null): Promise<ClaimPackage | null> {
  const pool = await call.ctx.pool();
  const pkg = await notFoundAsNull(async () => (await pool.claimPackage(hotkey, epoch)).value as ClaimPackage);
  if (pkg === null) return null;
  if (canonicalSs58(pkg.hotkey) !== (canonicalSs58(hotkey) ?? hotkey)) throw new CliRefusedError(`wrong_package: the pool answered the package of ${String(pkg.hotkey)} for ${hotkey}`);
  return pkg;
}
