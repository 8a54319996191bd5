import { wirePayload } from './wire-payload';

describe('wirePayload', () => {
  const event = { taskId: 't', previousMetricValue: null, leafCount: 3, changedAt: new Date('2026-11-28T16:00:00.000Z'), secret: 'x' };

  it('renames the named keys to snake_case and writes dates as ISO-8601, keeping nulls and numbers', () => {
    const payload = wirePayload(event, ['taskId', 'previousMetricValue', 'leafCount', 'changedAt']);
    expect(payload).toEqual({ task_id: 't', previous_metric_value: null, leaf_count: 3, changed_at: '2026-11-28T16:00:00.000Z' });
    // The type follows: the payload has the snake_case keys and string dates.
    const typed: { task_id: string; changed_at: string } = payload;
    expect(typed.changed_at).toBe('2026-11-28T16:00:00.000Z');
  });

  it('publishes only the named fields, in their order', () => {
    expect(JSON.stringify(wirePayload(event, ['leafCount', 'taskId']))).toBe('{"leaf_count":3,"task_id":"t"}');
  });
});
