import { QUEUE_JOB_NAMES, QueueName } from './queues';

describe('QUEUE_JOB_NAMES', () => {
  it('lists the job names of every queue of ARCHITECTURE.md', () => {
    expect(QUEUE_JOB_NAMES).toEqual({
      'coordinator.maintenance': ['expire-claims', 'expire-leases'],
      'coordinator.rewards': ['rebuild-snapshot', 'check-snapshot'],
      'coordinator.planner': ['run', 'run-agentic'],
      'runner.replay': ['replay'],
      'weights.set': ['set-weights'],
      'pool.epochs': ['rollover', 'check'],
      'pool.maintenance': ['expire-assignments'],
    });
    expect(Object.keys(QUEUE_JOB_NAMES).sort()).toEqual(Object.values(QueueName).sort());
  });
});
