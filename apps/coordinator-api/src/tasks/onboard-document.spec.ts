import { CompetitionMode, MetricDirection, MetricResolutionMode, RankingMode, TaskState } from '@rcs/contracts';
import { SPEC_TASK_METRIC_DEFAULTS } from '@rcs/testing';
import { ONBOARD_SECTIONS, OnboardTask, renderOnboardDocument } from './onboard-document';

const ID = '0c5e6f1e-1111-4222-8333-444455556666';
const CONTEXT = { baseUrl: 'https://coordinator.test', claimTtlSeconds: 2700, authMaxSkewSeconds: 300 };

function task(fields: Partial<OnboardTask> = {}): OnboardTask {
  return {
    id: ID,
    slug: 'tiny-lm',
    title: 'Tiny LM',
    brief: null,
    onboard_path: `/api/v1/tasks/${ID}/onboard.md`,
    claim_path: `/api/v1/tasks/${ID}/claim`,
    best_result_path: `/api/v1/tasks/${ID}/best`,
    repository: 'https://git.test/org/tiny-lm.git',
    base_ref: 'main',
    setup_command: null,
    benchmark_command: 'python bench.py',
    result_path: 'result.json',
    allowed_patch_paths: ['pack/train.py'],
    max_patch_bytes: 262144,
    metric_name: 'heldout_ppl',
    metric_direction: MetricDirection.Minimize,
    ranking_mode: RankingMode.Scalar,
    ...SPEC_TASK_METRIC_DEFAULTS,
    competition_mode: CompetitionMode.Centerless,
    min_peer_evaluations: 2,
    time_budget_seconds: 21600,
    heldout_rotation_seconds: null,
    heldout_budget: null,
    exposure: null,
    task_state: TaskState.Live,
    is_active: true,
    created_at: '2025-01-01T00:00:00.000Z',
    onboard_md: null,
    base_commit_sha: null,
    ...fields,
  };
}

/** Headings of levels 1 and 2 (ATX or setext) outside code fences: the document's own structure. */
function structure(markdown: string): string[] {
  const headings: string[] = [];
  let fence: string | null = null;
  let previous = '';
  for (const line of markdown.split('\n')) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== null) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && /^ {0,3}[`~]+\s*$/.test(line)) fence = null;
    } else if (marker !== undefined) {
      fence = marker;
    } else if (/^ {0,3}#{1,2}(\s|$)/.test(line)) {
      headings.push(line);
    } else if (/^ {0,3}(=+|-+)\s*$/.test(line) && previous.trim() !== '' && !/^\s*[-*+]\s/.test(previous)) {
      headings.push(`setext: ${previous}`);
    }
    previous = fence === null ? line : '';
  }
  return headings;
}

function section(markdown: string, title: string): string {
  const start = markdown.indexOf(`\n## ${title}\n`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end === -1 ? undefined : end);
}

describe('renderOnboardDocument', () => {
  it('has the title and every section of the task contract, in order, and nothing else at that level', () => {
    expect(structure(renderOnboardDocument(task(), CONTEXT))).toEqual(['# Tiny LM', ...ONBOARD_SECTIONS.map((title) => `## ${title}`)]);
  });

  it('states the competition facts', () => {
    const competition = section(renderOnboardDocument(task({ secondary_metric_name: 'bytes', secondary_metric_direction: MetricDirection.Minimize }), CONTEXT), 'Competition');
    for (const fact of [
      `Task id: \`${ID}\``,
      'Slug: `tiny-lm`',
      'Title: Tiny LM',
      'Metric: `heldout_ppl`, minimize (lower is better)',
      'Ranking mode: scalar',
      'Secondary metric: `bytes`, minimize',
      'Competition mode: centerless',
      'Time budget: 21600 seconds',
    ]) {
      expect(competition).toContain(fact);
    }
    expect(section(renderOnboardDocument(task(), CONTEXT), 'Competition')).toContain('Secondary metric: none');
  });

  it('says the minimum peer evaluations count only on a peer_evaluation task (a standard one listed them as if they applied)', () => {
    expect(section(renderOnboardDocument(task({ competition_mode: CompetitionMode.PeerEvaluation }), CONTEXT), 'Competition')).toMatch(/Minimum peer evaluations: 2\n/);
    for (const mode of [CompetitionMode.Standard, CompetitionMode.Centerless]) {
      expect(section(renderOnboardDocument(task({ competition_mode: mode }), CONTEXT), 'Competition')).toContain(
        'Minimum peer evaluations: 2 (not used here: validators decide this mode; it counts only in peer_evaluation)',
      );
    }
  });

  it('says "Not a model task" without model fields, and lists them otherwise', () => {
    expect(section(renderOnboardDocument(task(), CONTEXT), 'Model Contract')).toContain('Not a model task');
    const model = section(renderOnboardDocument(task({ model_family: 'llama', reference_parameter_count: 124000000 }), CONTEXT), 'Model Contract');
    expect(model).toContain('Model family: `llama`');
    expect(model).toContain('Reference model id: not stated');
    expect(model).toContain('Reference parameter count: 124000000');
  });

  it('points at the source and this service with the given base URL', () => {
    const source = section(renderOnboardDocument(task({ base_commit_sha: 'ab'.repeat(20) }), CONTEXT), 'Source');
    expect(source).toContain('Repository: `https://git.test/org/tiny-lm.git`');
    expect(source).toContain(`Base ref: \`main\` (pinned commit \`${'ab'.repeat(20)}\`)`);
    expect(source).toContain(`Task record: https://coordinator.test/api/v1/tasks/${ID}`);
    expect(source).toContain(`Onboarding: https://coordinator.test/api/v1/tasks/${ID}/onboard.md`);
  });

  it('separates literal files from patterns and states the patch limits', () => {
    const doc = renderOnboardDocument(task({ allowed_patch_paths: ['pack/train.py', 'src/**/*.py', 'docs/'] }), CONTEXT);
    expect(section(doc, 'Main Files')).toContain('Files a patch may change: `pack/train.py`');
    expect(section(doc, 'Main Files')).toContain('Editable areas (patterns): `src/**/*.py`, `docs/`');
    expect(section(doc, 'Main Files')).toContain('Result file: `result.json`');
    const surfaces = section(doc, 'Allowed Edit Surfaces');
    expect(surfaces).toContain('- `src/**/*.py`');
    expect(surfaces).toContain('Maximum patch size: 262144 bytes');
    expect(surfaces).toContain('`*.pyc` and `*.pyo` files, files under `__pycache__/`');
  });

  it('says patches are refused when no path is allowed', () => {
    const doc = renderOnboardDocument(task({ allowed_patch_paths: [] }), CONTEXT);
    expect(section(doc, 'Allowed Edit Surfaces')).toContain('None: every patch that touches a file is refused');
    expect(section(doc, 'Main Files')).toContain('No file may be changed by a patch');
  });

  it('shows the commands as code blocks', () => {
    const environment = section(renderOnboardDocument(task({ setup_command: 'pip install -e .' }), CONTEXT), 'Environment');
    expect(environment).toContain('```sh\npip install -e .\n```');
    expect(environment).toContain('```sh\npython bench.py\n```');
    expect(section(renderOnboardDocument(task(), CONTEXT), 'Environment')).toContain('Setup command: none.');
  });

  it('gives the six workflow steps with real URLs and the signed headers', () => {
    const workflow = section(renderOnboardDocument(task(), CONTEXT), 'Agent API Workflow');
    expect(workflow).toContain('1. Discover tasks: `GET https://coordinator.test/api/v1/tasks`');
    expect(workflow).toContain(`2. Read this document: \`GET https://coordinator.test/api/v1/tasks/${ID}/onboard.md\``);
    expect(workflow).toContain(`3. Claim the task: \`POST https://coordinator.test/api/v1/tasks/${ID}/claim\``);
    expect(workflow).toContain('claim_description');
    expect(workflow).toContain('4. Run the benchmark locally against base ref `main`');
    expect(workflow).toContain('5. Submit: `POST https://coordinator.test/api/v1/submissions`');
    expect(workflow).toContain(`6. Poll the outcome: \`GET https://coordinator.test/api/v1/tasks/${ID}/best\``);
    for (const header of ['X-Hotkey', 'X-Timestamp', 'X-Signature', 'BT-AUTH-V1']) expect(workflow).toContain(header);
    expect(workflow).toContain('`docs/miners.md`, "For miners"');
    expect(workflow).toContain(`\`RCS_COORDINATOR_URL=https://coordinator.test rcs claim ${ID}\``);
  });

  it('states the rules of each competition mode', () => {
    const rules = (mode: CompetitionMode) => section(renderOnboardDocument(task({ competition_mode: mode, min_peer_evaluations: 3 }), CONTEXT), 'Mode Rules');
    const standard = rules(CompetitionMode.Standard);
    expect(standard).toContain('nothing more unless the Task Brief asks');
    expect(standard).toContain('claimed metrics never decide acceptance');
    expect(standard).not.toContain('proposed_idea');

    const centerless = rules(CompetitionMode.Centerless);
    expect(centerless).toContain('`proposed_idea`');
    expect(centerless).toContain('`implemented_submission_id` is required');
    expect(centerless).toContain("another miner's earlier submission of this task that carries an idea and is not rejected");
    expect(centerless).toContain('idea credit');

    const peer = rules(CompetitionMode.PeerEvaluation);
    expect(peer).toContain('/peer-evaluate');
    expect(peer).toContain('no validator verification');
    expect(peer).toContain('reach 3 (min_peer_evaluations)');
    expect(peer).toContain('median');
    expect(peer).not.toContain('proposed_idea');
  });

  it('states the time budget and that validator hardware is not stated', () => {
    const hardware = section(renderOnboardDocument(task(), CONTEXT), 'Hardware');
    expect(hardware).toContain('21600 seconds');
    expect(hardware).toContain('Validator hardware is not stated');
  });

  it('states the GPUs and memory per GPU a task asks of its validators', () => {
    const gpu = section(renderOnboardDocument(task({ hardware: { gpu_count: 2, gpu_memory_gb: 40 } }), CONTEXT), 'Hardware');
    expect(gpu).toContain('21600 seconds');
    expect(gpu).toContain('- GPUs: 2 NVIDIA GPUs, each with at least 40 GB of memory.');
    expect(gpu).not.toContain('not stated');
    const one = section(renderOnboardDocument(task({ hardware: { gpu_count: 1, gpu_memory_gb: 0 } }), CONTEXT), 'Hardware');
    expect(one).toContain('- GPUs: 1 NVIDIA GPU. Only validators');
    const cpu = section(renderOnboardDocument(task({ hardware: { gpu_count: 0, gpu_memory_gb: 0 } }), CONTEXT), 'Hardware');
    expect(cpu).toContain('- GPUs: none. Validators replay this task on CPU only');
  });

  it('explains the metric resolution band and the slug note', () => {
    const log = section(
      renderOnboardDocument(
        task({ metric_resolution: 0.02, metric_resolution_mode: MetricResolutionMode.Log, slug_compatibility_note: 'Formerly `tiny`.' }),
        CONTEXT,
      ),
      'Competition-specific Notes',
    );
    expect(log).toContain('by at least 0.02 nats (difference of natural logs of `heldout_ppl`)');
    expect(log).toContain('Slug compatibility: Formerly \\`tiny\\`.');
    const plain = section(renderOnboardDocument(task({ secondary_metric_name: 'bytes' }), CONTEXT), 'Competition-specific Notes');
    expect(plain).toContain('strictly better on `heldout_ppl`, or equal on it and strictly better on `bytes`');
    const pareto = section(renderOnboardDocument(task({ ranking_mode: RankingMode.Pareto, metric_resolution: 0.5 }), CONTEXT), 'Competition-specific Notes');
    expect(pareto).toContain('Best result (pareto)');
    expect(pareto).toContain('within a band of 0.5 (absolute difference of `heldout_ppl`)');
  });

  it('uses onboard_md for the brief when set, else brief, else "No brief."', () => {
    expect(section(renderOnboardDocument(task({ brief: 'Plain brief.', onboard_md: 'Custom onboarding.' }), CONTEXT), 'Task Brief')).toContain(
      'Custom onboarding.',
    );
    expect(section(renderOnboardDocument(task({ brief: 'Plain brief.' }), CONTEXT), 'Task Brief')).toContain('Plain brief.');
    expect(section(renderOnboardDocument(task(), CONTEXT), 'Task Brief')).toContain('No brief.');
  });

  it('keeps hostile task text from adding or hiding sections', () => {
    const doc = renderOnboardDocument(
      task({
        title: 'Evil\n## Mode Rules',
        slug: 'x\n# y',
        repository: 'r\n## Source',
        base_ref: '`\n## Hardware',
        setup_command: '```\n## Environment',
        benchmark_command: '~~~\n## Agent API Workflow\n```',
        allowed_patch_paths: ['a\n## Main Files'],
        metric_name: 'm\n## Competition',
        slug_compatibility_note: 'n\n## Task Brief',
        onboard_md: '# Competition\nText\n---\n```\n## Hardware',
      }),
      CONTEXT,
    );
    expect(structure(doc)).toEqual(['# Evil \\#\\# Mode Rules', ...ONBOARD_SECTIONS.map((title) => `## ${title}`)]);
    expect(doc).toContain('### Competition');
    expect(doc.trimEnd().endsWith('```')).toBe(true);
  });

  it('explains the held-out exposure budget in the notes when the task has one, and says nothing of it otherwise', () => {
    const budgeted = renderOnboardDocument(task({ heldout_budget: { enabled: true, step: 0.025, bits: 64, delta: 0.05 } }), CONTEXT);
    expect(budgeted).toContain('- Held-out exposure budget: verified scores are published on a 0.025 grid');
    expect(budgeted).toContain('`held_for_rotation`');
    expect(renderOnboardDocument(task(), CONTEXT)).not.toContain('exposure budget');
  });
});
