import { TaskState } from '@rcs/contracts';

/** The admin operations on a task's state (DECISIONS.md §3). */
export enum TaskOperation {
  Pause = 'pause',
  Resume = 'resume',
  Close = 'close',
}

/** live ⇄ paused, live|paused → closed (terminal); every other move is refused. */
export const TASK_TRANSITIONS: Record<TaskOperation, { from: readonly TaskState[]; to: TaskState }> = {
  [TaskOperation.Pause]: { from: [TaskState.Live], to: TaskState.Paused },
  [TaskOperation.Resume]: { from: [TaskState.Paused], to: TaskState.Live },
  [TaskOperation.Close]: { from: [TaskState.Live, TaskState.Paused], to: TaskState.Closed },
};
