/** What a server-sent event says about which data to read again (DECISIONS §14 event names). */
export const COORDINATOR_EVENTS = ['decision', 'best_changed', 'task_state', 'snapshot_rebuilt', 'exposure_changed'] as const;
export const POOL_EVENTS = ['epoch_published', 'result_verified', 'sota_changed'] as const;
export type CoordinatorEvent = (typeof COORDINATOR_EVENTS)[number];
export type PoolEvent = (typeof POOL_EVENTS)[number];

/** The task an event concerns, when its JSON data names one (`task_id`); null when it names none or is no JSON. */
export function eventTaskId(data: string): string | null {
  try {
    const parsed: unknown = JSON.parse(data);
    if (parsed !== null && typeof parsed === 'object' && 'task_id' in parsed && typeof parsed.task_id === 'string') return parsed.task_id;
  } catch {
    // not JSON: the event still says something changed
  }
  return null;
}

/** Whether a page showing `taskId` should read again: events about another task do not concern it. */
export function concernsTask(data: string, taskId: string): boolean {
  const id = eventTaskId(data);
  return id === null || id === taskId;
}
