import { concernsTask, eventTaskId } from './live';

describe('live events', () => {
  it('reads the task of an event and lets events about other tasks pass by', () => {
    expect(eventTaskId('{"task_id":"t1","submission_id":"s"}')).toBe('t1');
    expect(concernsTask('{"task_id":"t1"}', 't1')).toBe(true);
    expect(concernsTask('{"task_id":"t2"}', 't1')).toBe(false);
  });

  it('treats an event without a task, or without JSON, as concerning every page', () => {
    expect(eventTaskId('{"generated_at":"x"}')).toBeNull();
    expect(eventTaskId('not json')).toBeNull();
    expect(concernsTask('', 't1')).toBe(true);
  });
});
