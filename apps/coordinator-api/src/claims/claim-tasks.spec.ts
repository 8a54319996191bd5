import { CompetitionMode, TaskState } from '@rcs/contracts';
import { ClaimTasks } from './claim-tasks';
import type { SubmittedClaimTask } from './claims.repository';

const task = (id: string, maxPatchBytes = 1000): SubmittedClaimTask => ({
  id,
  slug: `task-${id}`,
  taskState: TaskState.Live,
  competitionMode: CompetitionMode.Standard,
  allowedPatchPaths: ['src/**'],
  maxPatchBytes,
});

describe('ClaimTasks', () => {
  it('answers the task a claim was opened on, with the task as last read', () => {
    const tasks = new ClaimTasks();
    tasks.remember('c1', task('t1'));
    tasks.remember('c2', task('t1'));
    tasks.noteTask(task('t1', 10));
    expect(tasks.taskOf('c1')).toEqual(task('t1', 10));
    expect(tasks.taskOf('c2')).toEqual(task('t1', 10));
    expect(tasks.taskOf('c3')).toBeUndefined();
    tasks.forget('c1');
    expect(tasks.taskOf('c1')).toBeUndefined();
    expect(tasks.taskOf('c2')).toEqual(task('t1', 10));
  });

  it('keeps its own copy of the rules: a caller changing its object changes nothing here', () => {
    const tasks = new ClaimTasks();
    const read = task('t1');
    tasks.remember('c1', read);
    read.allowedPatchPaths.push('**');
    expect(tasks.taskOf('c1')?.allowedPatchPaths).toEqual(['src/**']);
  });

  it('stays within its limits, dropping the oldest claims and tasks first', () => {
    const tasks = new ClaimTasks({ claims: 3, tasks: 2 });
    for (let i = 1; i <= 5; i++) tasks.remember(`c${i}`, task(`t${i % 3}`));
    expect(tasks.size).toEqual({ claims: 3, tasks: 2 });
    expect(tasks.taskOf('c1')).toBeUndefined();
    expect(tasks.taskOf('c2')).toBeUndefined();
    // c3 is on t0, which gave way to t1 and t2 (read since): unknown rather than wrong.
    expect(tasks.taskOf('c3')).toBeUndefined();
    expect(tasks.taskOf('c4')?.id).toBe('t1');
    expect(tasks.taskOf('c5')?.id).toBe('t2');
  });
});
