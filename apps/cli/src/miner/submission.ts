import type { CoordinatorRoutes, SubmissionBody } from '@rcs/client';
import type { TaskDto } from '@rcs/contracts';
import { checkPatch, type PatchCheckResult } from '@rcs/patch';
import { CliRefusedError, CliUsageError } from '../errors';
import { workingTreePatch } from '../git/working-tree-patch';

/** Where a submission's patch comes from: a clone's working tree (diffed against the task's base), a diff, or none. */
export type PatchSource = { kind: 'tree'; repo: string } | { kind: 'diff'; patch: string } | { kind: 'none' };

/** What a miner submits, from flags (`rcs submit`), a sidecar, or a tool call (`rcs mcp`). */
export interface SubmissionInput {
  claimId: string;
  /** The claim's task; read from the claim (`GET /claims/{id}`) when absent. */
  taskId?: string;
  source: PatchSource;
  summary: string;
  claimedMetrics: Record<string, unknown>;
  /** Must equal the task's base_ref when given (a sidecar's): patches are replayed on the task's base. */
  baseRef?: string;
  proposedIdea?: string;
  implementedSubmissionId?: string;
  executionLog?: string;
  artifact?: { uri: string; sha256: string; sizeBytes: number };
}

export interface PreparedSubmission {
  body: SubmissionBody;
  task: TaskDto;
  /** The patch's files (new path, else old path), empty without a patch. */
  files: string[];
}

/** The task of a claim: by the public `GET /api/v1/claims/{id}` (no scanning of the claim list). */
export async function taskOfClaim(api: CoordinatorRoutes, claimId: string): Promise<string> {
  return (await api.claim(claimId)).value.task_id;
}

/** The coordinator's patch rules (`@rcs/patch`, the code the coordinator runs) on a patch, with the task's limits. */
export function checkTaskPatch(task: Pick<TaskDto, 'allowed_patch_paths' | 'max_patch_bytes'>, patch: string): PatchCheckResult {
  return checkPatch(patch, { allowedPatchPaths: task.allowed_patch_paths, maxPatchBytes: task.max_patch_bytes });
}

/** The refusal of a patch that breaks the task's rules, every rule named; nothing is sent. */
export class PatchRefusedError extends CliRefusedError {
  constructor(readonly violations: { type: string; msg: string }[]) {
    super(`the patch breaks the task's rules, nothing was sent:\n${violations.map((v) => `  ${v.type}: ${v.msg}`).join('\n')}`);
    this.name = 'PatchRefusedError';
  }
}

/** The patch of a source: a working tree diffed against `baseRef`, a diff as given, or none. */
export async function patchOf(source: PatchSource, baseRef: string): Promise<string> {
  switch (source.kind) {
    case 'tree':
      return workingTreePatch(source.repo, baseRef);
    case 'diff':
      return source.patch;
    case 'none':
      return '';
  }
}

/**
 * The body of `POST /api/v1/submissions` for `input`, refused before anything is sent when the patch breaks the
 * task's rules or there is nothing to submit. The claim's task is read from the claim when the input names none.
 */
export async function prepareSubmission(api: CoordinatorRoutes, input: SubmissionInput): Promise<PreparedSubmission> {
  const task = (await api.task(input.taskId ?? (await taskOfClaim(api, input.claimId)))).value;
  if (input.baseRef !== undefined && input.baseRef !== task.base_ref) {
    throw new CliUsageError(`base_ref ${input.baseRef} is not the task's base ${task.base_ref}: validators replay patches on the task's base`);
  }
  const body: SubmissionBody = { claim_id: input.claimId, base_ref: task.base_ref, summary: input.summary, claimed_metrics: input.claimedMetrics };
  const patch = await patchOf(input.source, task.base_ref);
  let files: string[] = [];
  if (patch !== '') {
    const verdict = checkTaskPatch(task, patch);
    if (!verdict.ok) throw new PatchRefusedError(verdict.violations);
    body.patch = patch;
    files = verdict.files.map((file) => file.newPath ?? file.oldPath ?? '');
  }
  if (input.artifact !== undefined) Object.assign(body, { artifact_uri: input.artifact.uri, artifact_sha256: input.artifact.sha256, artifact_size_bytes: input.artifact.sizeBytes });
  if (body.patch === undefined && body.artifact_uri === undefined) {
    throw new CliUsageError(`nothing to submit: ${input.source.kind === 'tree' ? `the working tree has no changes against ${task.base_ref}` : 'the patch is empty'}, and no artifact was given`);
  }
  if (input.proposedIdea !== undefined) body.proposed_idea = input.proposedIdea;
  if (input.implementedSubmissionId !== undefined) body.implemented_submission_id = input.implementedSubmissionId;
  if (input.executionLog !== undefined) body.execution_log = input.executionLog;
  return { body, task, files };
}
