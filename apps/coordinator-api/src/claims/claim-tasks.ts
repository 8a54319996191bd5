import { Injectable } from '@nestjs/common';
import type { SubmittedClaimTask } from './claims.repository';

/** How many claims and tasks the process remembers; the oldest entry gives way first. */
export const CLAIM_TASKS_LIMITS = { claims: 100_000, tasks: 1_000 } as const;

/**
 * Which task each claim opened in this process belongs to, and that task's submission rules as last
 * read: a hint that lets a submission skip reading its claim's task before its one guarded statement
 * (`SubmissionsRepository.storePendingIfUnchanged`). A claim never changes task, but the task's
 * rules and state may change at any time, so nothing here is trusted: the statement writes only if
 * the claim and the task are still as remembered, and otherwise the submission is decided afresh in
 * a transaction. Bounded; a claim opened by another replica, or forgotten, costs one read.
 */
@Injectable()
export class ClaimTasks {
  private readonly taskOfClaim = new Map<string, string>();
  private readonly tasks = new Map<string, SubmittedClaimTask>();

  constructor(private readonly limits: { claims: number; tasks: number } = CLAIM_TASKS_LIMITS) {}

  /** The claim belongs to `task`, read just now (its rules replace any older reading of the task). */
  remember(claimId: string, task: SubmittedClaimTask): void {
    this.noteTask(task);
    bounded(this.taskOfClaim, claimId, task.id, this.limits.claims);
  }

  /** A fresh reading of a task's rules, for the claims remembered on it. */
  noteTask(task: SubmittedClaimTask): void {
    bounded(this.tasks, task.id, { ...task, allowedPatchPaths: [...task.allowedPatchPaths] }, this.limits.tasks);
  }

  /** The claim's task as last read, or undefined when this process does not know it. */
  taskOf(claimId: string): SubmittedClaimTask | undefined {
    const taskId = this.taskOfClaim.get(claimId);
    return taskId === undefined ? undefined : this.tasks.get(taskId);
  }

  /** The claim was submitted on, or found not to be as remembered. */
  forget(claimId: string): void {
    this.taskOfClaim.delete(claimId);
  }

  get size(): { claims: number; tasks: number } {
    return { claims: this.taskOfClaim.size, tasks: this.tasks.size };
  }
}

/** Sets `key` as the newest entry, dropping the oldest while over `limit`. */
function bounded<V>(map: Map<string, V>, key: string, value: V, limit: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > limit) map.delete(map.keys().next().value as string);
}
