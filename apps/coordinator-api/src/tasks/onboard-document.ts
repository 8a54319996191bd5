import { MetricDirection, MetricResolutionMode, RankingMode, TaskDto, TaskState } from '@rcs/contracts';
import { COMPETITION_MODES, isPeerEvaluated } from './competition-modes';
import { codeBlock, codeSpan, inlineText, nestMarkdown } from './markdown';

/**
 * What the onboarding document is written from: the public task plus the two public fields it
 * does not carry. Built from `TaskDto`, so validator-private fields cannot reach the document.
 */
export interface OnboardTask extends TaskDto {
  onboard_md: string | null;
  base_commit_sha: string | null;
}

export interface OnboardContext {
  /** Where miners reach this service, without a trailing slash. */
  baseUrl: string;
  claimTtlSeconds: number;
  authMaxSkewSeconds: number;
}

/** Section titles of the spec's task contract, in its order. */
export const ONBOARD_SECTIONS = [
  'Competition',
  'Model Contract',
  'Source',
  'Main Files',
  'Allowed Edit Surfaces',
  'Environment',
  'Agent API Workflow',
  'Mode Rules',
  'Hardware',
  'Competition-specific Notes',
  'Task Brief',
] as const;

type SectionTitle = (typeof ONBOARD_SECTIONS)[number];

const GLOB_SYNTAX = /[*?]/;

function better(direction: MetricDirection): string {
  switch (direction) {
    case MetricDirection.Minimize:
      return 'lower is better';
    case MetricDirection.Maximize:
      return 'higher is better';
  }
}

function stateMeaning(state: TaskState): string {
  switch (state) {
    case TaskState.Live:
      return 'open for claims and submissions';
    case TaskState.Paused:
      return 'paused: no new claims or submissions; pending verifications still complete';
    case TaskState.Closed:
      return 'closed: no new claims or submissions; the best result is final';
  }
}

function competition(task: OnboardTask): string[] {
  const secondary =
    task.secondary_metric_name === null
      ? 'none'
      : `${codeSpan(task.secondary_metric_name)}` +
        (task.secondary_metric_direction ? `, ${task.secondary_metric_direction} (${better(task.secondary_metric_direction)})` : '');
  return [
    `- Task id: ${codeSpan(task.id)}`,
    `- Slug: ${codeSpan(task.slug)}`,
    `- Title: ${inlineText(task.title)}`,
    `- Metric: ${codeSpan(task.metric_name)}, ${task.metric_direction} (${better(task.metric_direction)})`,
    `- Ranking mode: ${task.ranking_mode}`,
    `- Secondary metric: ${secondary}`,
    `- Competition mode: ${task.competition_mode}`,
    // The spec's contract states it for every task; only peer_evaluation tasks are decided by it, and the line says so.
    `- Minimum peer evaluations: ${task.min_peer_evaluations}` +
      (isPeerEvaluated(task.competition_mode) ? '' : ' (not used here: validators decide this mode; it counts only in peer_evaluation)'),
    `- Time budget: ${task.time_budget_seconds} seconds`,
    `- Task state: ${task.task_state} (${stateMeaning(task.task_state)})`,
  ];
}

function modelContract(task: OnboardTask): string[] {
  const { model_family: family, reference_model_id: modelId, reference_parameter_count: parameters } = task;
  if (family == null && modelId == null && parameters == null) {
    return ['Not a model task: no model family, reference model or reference parameter count is set.'];
  }
  return [
    `- Model family: ${family == null ? 'not stated' : codeSpan(family)}`,
    `- Reference model id: ${modelId == null ? 'not stated' : codeSpan(modelId)}`,
    `- Reference parameter count: ${parameters == null ? 'not stated' : String(parameters)}`,
  ];
}

function source(task: OnboardTask, base: string): string[] {
  const pinned = task.base_commit_sha ? ` (pinned commit ${codeSpan(task.base_commit_sha)})` : '';
  return [
    `- Repository: ${codeSpan(task.repository)}`,
    `- Base ref: ${codeSpan(task.base_ref)}${pinned}`,
    `- Task record: ${base}/api/v1/tasks/${task.id}`,
    `- Onboarding: ${base}${task.onboard_path}`,
  ];
}

function mainFiles(task: OnboardTask): string[] {
  const files = task.allowed_patch_paths.filter((pattern) => !GLOB_SYNTAX.test(pattern) && !pattern.endsWith('/'));
  const patterns = task.allowed_patch_paths.filter((pattern) => !files.includes(pattern));
  const lines: string[] = [];
  if (files.length > 0) lines.push(`- Files a patch may change: ${files.map(codeSpan).join(', ')}`);
  if (patterns.length > 0) lines.push(`- Editable areas (patterns): ${patterns.map(codeSpan).join(', ')}`);
  if (task.allowed_patch_paths.length === 0) lines.push('- No file may be changed by a patch on this task (see Allowed Edit Surfaces).');
  lines.push(
    task.result_path === null
      ? '- Result file: not stated by the task; the benchmark command reports the metrics.'
      : `- Result file: ${codeSpan(task.result_path)}, written by the benchmark; the validator reads ${codeSpan(task.metric_name)} from it.`,
  );
  lines.push('- Other files of the repository are not named by the task; read the repository at the base ref.');
  return lines;
}

function allowedEditSurfaces(task: OnboardTask): string[] {
  const surface =
    task.allowed_patch_paths.length === 0
      ? ['None: every patch that touches a file is refused. Submit an artifact (`artifact_uri`, `artifact_sha256`, `artifact_size_bytes`) instead.']
      : [
          'A patch may touch only paths matching these repository-relative patterns (`*` within one path segment, `**` across segments, `?` one character):',
          '',
          ...task.allowed_patch_paths.map((pattern) => `- ${codeSpan(pattern)}`),
        ];
  return [
    ...surface,
    '',
    `- Maximum patch size: ${task.max_patch_bytes} bytes (UTF-8).`,
    '- The patch is a unified git diff (`git diff --binary`); every path it touches counts: both sides of renames, creations, deletions and mode changes.',
    '- Rejected in any patch: `*.pyc` and `*.pyo` files, files under `__pycache__/`, and `GIT binary patch` hunks.',
  ];
}

function environment(task: OnboardTask): string[] {
  return [
    ...(task.setup_command === null ? ['Setup command: none.'] : ['Setup command:', '', codeBlock(task.setup_command, 'sh')]),
    '',
    'Benchmark command:',
    '',
    codeBlock(task.benchmark_command, 'sh'),
    '',
    `- Result path: ${task.result_path === null ? 'not stated' : codeSpan(task.result_path)}`,
    '- Validators run the benchmark with a validator-private environment (for example held-out data selectors). It is not published; miner code must not depend on it.',
  ];
}

function agentWorkflow(task: OnboardTask, base: string, context: OnboardContext): string[] {
  return [
    `Base URL: ${base}`,
    '',
    `1. Discover tasks: ${codeSpan(`GET ${base}/api/v1/tasks`)}.`,
    `2. Read this document: ${codeSpan(`GET ${base}${task.onboard_path}`)}.`,
    `3. Claim the task: ${codeSpan(`POST ${base}${task.claim_path}`)}, signed, with a JSON body holding \`claim_description\` (8 to 4000 characters; optional \`base_submission_id\`). A claim lasts ${context.claimTtlSeconds} seconds.`,
    `4. Run the benchmark locally against base ref ${codeSpan(task.base_ref)}; capture the patch, a summary and the claimed metrics.`,
    `5. Submit: ${codeSpan(`POST ${base}/api/v1/submissions`)}, signed, with \`claim_id\`, \`base_ref\`, \`patch\`, \`summary\`, \`claimed_metrics\` (plus artifact fields and idea fields as Mode Rules require).`,
    `6. Poll the outcome: ${codeSpan(`GET ${base}${task.best_result_path}`)} or ${codeSpan(`GET ${base}/api/v1/submissions?task_id=${task.id}`)} (signed).`,
    '',
    `Signed requests carry three headers: \`X-Hotkey\` (your SS58 hotkey), \`X-Timestamp\` (unix seconds, within ${context.authMaxSkewSeconds} seconds of the server clock) and \`X-Signature\` (hex sr25519 signature) over the BT-AUTH-V1 message, six lines joined by newlines:`,
    '',
    codeBlock(
      ['BT-AUTH-V1', '<METHOD>', '<path, without query>', '<raw query string, or empty>', '<X-Timestamp>', '<lowercase hex sha256 of the canonical JSON body>'].join('\n'),
    ),
    '',
    'The canonical body is `json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)` of the JSON sent (empty for no body). A signature is accepted once. Claims and submissions also need stake on the subnet (403 `insufficient_miner_stake` otherwise).',
    `Clients must show the participation disclaimer: ${codeSpan(`GET ${base}/api/v1/disclaimer`)}.`,
    '',
    `The \`rcs\` command-line client does steps 1 to 6 with a Bittensor wallet and prints exactly the server's JSON with \`--json\` (the stack repository's \`docs/miners.md\`, "For miners"): ${codeSpan(`RCS_COORDINATOR_URL=${base} rcs claim ${task.id}`)}, then ${codeSpan('rcs submit --claim <claim id> --repo <your clone> --summary "…"')}, then ${codeSpan('rcs watch <submission id>')}.`,
  ];
}

function modeRules(task: OnboardTask, base: string): string[] {
  return [`This task runs in mode ${codeSpan(task.competition_mode)}.`, '', ...COMPETITION_MODES[task.competition_mode].onboarding(task, base)];
}

function hardware(task: OnboardTask): string[] {
  const budget = `- Time budget: each benchmark run must finish within ${task.time_budget_seconds} seconds.`;
  const stated = task.hardware;
  if (stated == null) {
    return [budget, '- Validator hardware is not stated by this task; do not assume an accelerator unless the Task Brief names one.'];
  }
  if (stated.gpu_count === 0) {
    return [budget, '- GPUs: none. Validators replay this task on CPU only; the benchmark must not need an accelerator.'];
  }
  const memory = stated.gpu_memory_gb > 0 ? `, each with at least ${stated.gpu_memory_gb} GB of memory` : '';
  return [
    budget,
    `- GPUs: ${stated.gpu_count} NVIDIA GPU${stated.gpu_count === 1 ? '' : 's'}${memory}. Only validators that expose at least this to their sandbox replay it.`,
    '- GB means 10^9 bytes, the unit GPUs are sold by.',
  ];
}

function bestResultRule(task: OnboardTask): string {
  const metric = codeSpan(task.metric_name);
  const band =
    task.metric_resolution_mode === MetricResolutionMode.Log
      ? `${task.metric_resolution} nats (difference of natural logs of ${metric})`
      : `${task.metric_resolution} (absolute difference of ${metric})`;
  const secondary = task.secondary_metric_name === null ? null : codeSpan(task.secondary_metric_name);
  switch (task.ranking_mode) {
    case RankingMode.Pareto:
      return `- Best result (pareto): a candidate replaces the current best only when it is at least as good on ${metric} (within a band of ${band}) and on ${secondary ?? 'the secondary metric'}, and strictly better on one of them.`;
    case RankingMode.Scalar:
      if (task.metric_resolution === 0) {
        return `- Best result: a candidate becomes the new best when it is strictly better on ${metric}${secondary ? `, or equal on it and strictly better on ${secondary}` : ''}.`;
      }
      return `- Best result: a candidate becomes the new best when it beats the current best on ${metric} by at least ${band}${secondary ? `, or is within that band and strictly better on ${secondary}` : ''}.`;
  }
}

/** The held-out exposure budget (DECISIONS §17) as a miner needs to know it; none for exact release. */
function exposureNote(task: OnboardTask): string[] {
  const budget = task.heldout_budget;
  if (!budget?.enabled) return [];
  return [
    `- Held-out exposure budget: verified scores are published on a ${budget.step} grid, and only when they beat the published best by more than ${budget.step} (your submission says \`release: improved\`); otherwise it says \`not_significant\` and the public keeps the previous best. Each held-out shard releases a limited number of results for everyone; when it is spent a significant result says \`held_for_rotation\`, the next shard takes over and the leader and held results are re-scored on it. Raw scores are published when their shard retires.`,
  ];
}

function competitionNotes(task: OnboardTask): string[] {
  return [
    bestResultRule(task),
    ...exposureNote(task),
    `- Slug compatibility: ${task.slug_compatibility_note == null ? 'none' : inlineText(task.slug_compatibility_note)}`,
  ];
}

function taskBrief(task: OnboardTask): string[] {
  const brief = (task.onboard_md ?? task.brief)?.trimEnd() ?? '';
  return [brief.trim() === '' ? 'No brief.' : nestMarkdown(brief, 2)];
}

/** The task's onboarding document (coordinator spec, "Task contract"): every section, in order. */
export function renderOnboardDocument(task: OnboardTask, context: OnboardContext): string {
  const base = context.baseUrl;
  const sections: Record<SectionTitle, string[]> = {
    Competition: competition(task),
    'Model Contract': modelContract(task),
    Source: source(task, base),
    'Main Files': mainFiles(task),
    'Allowed Edit Surfaces': allowedEditSurfaces(task),
    Environment: environment(task),
    'Agent API Workflow': agentWorkflow(task, base, context),
    'Mode Rules': modeRules(task, base),
    Hardware: hardware(task),
    'Competition-specific Notes': competitionNotes(task),
    'Task Brief': taskBrief(task),
  };
  const body = ONBOARD_SECTIONS.map((title) => `## ${title}\n\n${sections[title].join('\n')}`);
  return `# ${inlineText(task.title) || codeSpan(task.slug)}\n\n${body.join('\n\n')}\n`;
}
