import { CompetitionMode, TaskDto } from '@rcs/contracts';
import { codeSpan } from './markdown';

/** What the onboarding document's mode lines read of the task. */
export type ModeOnboardTask = Pick<TaskDto, 'metric_name' | 'min_peer_evaluations'>;

/** Everything that differs between competition modes (spec rules 4 and 5, DECISIONS.md §6). */
export interface ModeRules {
  /**
   * Who decides a pending submission: `validators` replay it (each submission gets a validator job,
   * `POST /verify` is allowed), `peers` evaluate it (`/peer-evaluate`, a consensus, `min_peer_evaluations`).
   */
  decidedBy: 'validators' | 'peers';
  /**
   * The idea rules: every submission proposes an idea and, once another miner has, names the submission
   * whose idea it implements; the planner plans work items from the ideas; an implementation that becomes
   * the best records an idea reward, which `accepted_plus_best` scoring credits.
   */
  ideas: boolean;
  /** The onboarding document's lines on the mode, below "This task runs in mode …". */
  onboarding(task: ModeOnboardTask, base: string): string[];
}

const VALIDATOR_REPLAY = [
  'A submission is stored as `pending_verification`; an allowlisted validator replays it and posts the observed result, which decides `accepted`, `rejected` or `error`.',
  "The validator's observed metric is the canonical score; claimed metrics never decide acceptance.",
];

/**
 * The rules of each competition mode. Exhaustive: a mode without rules does not compile, and every
 * mode-dependent site (the submission path, verify, peer evaluation, the submission detail, best results,
 * the planner, scoring, onboarding, the validator lease) reads this table or the lists below.
 */
export const COMPETITION_MODES: Record<CompetitionMode, ModeRules> = {
  [CompetitionMode.Standard]: {
    decidedBy: 'validators',
    ideas: false,
    onboarding: () => [
      '- A submission needs a patch (or an artifact), a summary and claimed metrics; nothing more unless the Task Brief asks for it.',
      ...VALIDATOR_REPLAY.map((rule) => `- ${rule}`),
    ],
  },
  [CompetitionMode.Centerless]: {
    decidedBy: 'validators',
    ideas: true,
    onboarding: () => [
      '- Every submission carries a fresh `proposed_idea` (up to 4000 characters): an idea later miners can implement.',
      "- Once another miner has proposed an idea on this task, `implemented_submission_id` is required: it must name another miner's earlier submission of this task that carries an idea and is not rejected.",
      "- When a submission that implements an idea becomes the new best result, the idea's author receives idea credit (an idea reward), and the new submission's idea becomes available to later miners.",
      ...VALIDATOR_REPLAY.map((rule) => `- ${rule}`),
    ],
  },
  [CompetitionMode.PeerEvaluation]: {
    decidedBy: 'peers',
    ideas: false,
    onboarding: (task, base) => [
      '- A submission needs a patch (or an artifact), a summary and claimed metrics.',
      `- Other miners evaluate pending submissions: ${codeSpan(`POST ${base}/api/v1/submissions/{submission_id}/peer-evaluate`)} (signed) with \`status\`, \`observed_metrics\` and \`notes\`; never your own submission, once per submission.`,
      '- There is no validator verification on this task; the verify route refuses it.',
      `- Consensus is reached when the accepted or the rejected evaluations reach ${task.min_peer_evaluations} (min_peer_evaluations).`,
      `- The accepted metric is the median of the accepted evaluations' observed ${codeSpan(task.metric_name)} (the mean of the middle two for an even count).`,
    ],
  },
};

/** Validators replay submissions of this mode (a validator job each); otherwise peers evaluate them. */
export function isReplayed(mode: CompetitionMode): boolean {
  return COMPETITION_MODES[mode].decidedBy === 'validators';
}

/** Peers evaluate submissions of this mode. */
export function isPeerEvaluated(mode: CompetitionMode): boolean {
  return COMPETITION_MODES[mode].decidedBy === 'peers';
}

/** The idea rules apply in this mode. */
export function hasIdeaRules(mode: CompetitionMode): boolean {
  return COMPETITION_MODES[mode].ideas;
}

function modesWhere(holds: (rules: ModeRules) => boolean): CompetitionMode[] {
  return (Object.keys(COMPETITION_MODES) as CompetitionMode[]).filter((mode) => holds(COMPETITION_MODES[mode]));
}

/** The modes validators replay, bound as a `text[]` by the SQL that picks replayable work. */
export const REPLAYED_MODES: readonly CompetitionMode[] = modesWhere((rules) => rules.decidedBy === 'validators');

/** The modes with idea rules, bound as a `text[]` by the SQL that reads ideas. */
export const IDEA_MODES: readonly CompetitionMode[] = modesWhere((rules) => rules.ideas);
