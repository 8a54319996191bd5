import { BtAuthSigner } from '@rcs/auth';
import { BestResultChangeDto, BestResultDto, IdeaRewardDto, SubmissionDto, TaskDto } from '@rcs/contracts';
import { Body, errorOf, expectStatus } from './submissions-fixtures';
import { Cast, startValidationForSuite, ValidationClient } from './validator-jobs-fixtures';

/**
 * Best results and idea rewards driven over HTTP, as validators and miners drive them: a centerless
 * perplexity task with the 0.02-nat band and a compressed-size secondary metric.
 */
describe('best results and idea rewards over the validator routes', () => {
  let api: ValidationClient;
  let people: Cast;
  let task: TaskDto;

  startValidationForSuite(async (setup) => {
    ({ people, api } = setup);
    task = await api.createTask({
      competition_mode: 'centerless',
      metric_name: 'heldout_ppl',
      metric_direction: 'minimize',
      metric_resolution: 0.02,
      metric_resolution_mode: 'log',
      secondary_metric_name: 'compressed_bytes',
      secondary_metric_direction: 'minimize',
    });
  });

  async function submit(miner: BtAuthSigner, fields: Body): Promise<SubmissionDto> {
    return api.pending(miner, task.id, { proposed_idea: `An idea of ${miner.hotkey.slice(0, 8)}.`, ...fields });
  }

  /** Alice (an allowlisted validator) replays the submission and posts what she observed. */
  async function accept(submission: SubmissionDto, observed: Record<string, number>): Promise<void> {
    const job = await api.leaseOf(people.alice, submission);
    expectStatus(await api.result(people.alice, job.job_id, { status: 'accepted', observed_metrics: observed, submission_id: submission.id }), 200);
  }

  const best = async () => (await api.anonymous<BestResultDto>('GET', `/api/v1/tasks/${task.id}/best`)).body;

  it('moves the best by the observed metric under the task rule, keeps its history and credits ideas', async () => {
    expect(errorOf(await api.anonymous('GET', `/api/v1/tasks/${task.id}/best`))).toBe('best_result_not_found');

    const first = await submit(people.dave, {});
    await accept(first, { heldout_ppl: 254, compressed_bytes: 1000 });
    expect(await best()).toMatchObject({ submission_id: first.id, metric_value: 254, miner_hotkey: people.dave.hotkey, metric_unit: null });

    // Claims a huge gain, observes 250: inside the band with a bigger model, so not a new best; no idea credit.
    const claimedOnly = await submit(people.eve, { implemented_submission_id: first.id, claimed_metrics: { heldout_ppl: 100 } });
    await accept(claimedOnly, { heldout_ppl: 250, compressed_bytes: 1200 });
    expect((await best()).submission_id).toBe(first.id);

    // Inside the band with a smaller model: the new best, and Dave's idea earns credit.
    const smaller = await submit(people.ferdie, { implemented_submission_id: first.id });
    await accept(smaller, { heldout_ppl: 255, compressed_bytes: 900 });
    expect(await best()).toMatchObject({ submission_id: smaller.id, metric_value: 255 });

    // 248 clears the 0.02-nat band against 255: Ferdie's idea earns credit.
    const better = await submit(people.dave, { implemented_submission_id: smaller.id });
    await accept(better, { heldout_ppl: 248, compressed_bytes: 5000 });
    expect(await best()).toMatchObject({ submission_id: better.id, metric_value: 248, miner_hotkey: people.dave.hotkey });

    const history = await api.anonymous<BestResultChangeDto[]>('GET', `/api/v1/tasks/${task.id}/best/history`);
    expect(history.body.map((change) => [change.submission_id, change.metric_value, change.previous_submission_id, change.previous_metric_value])).toEqual([
      [first.id, 254, null, null],
      [smaller.id, 255, first.id, 254],
      [better.id, 248, smaller.id, 255],
    ]);

    const rewards = await api.anonymous<IdeaRewardDto[]>('GET', `/api/v1/idea-rewards?task_id=${task.id}`);
    expect(rewards.body.map(({ id: _id, created_at: _at, ...reward }) => reward)).toEqual([
      {
        task_id: task.id,
        improved_submission_id: better.id,
        idea_submission_id: smaller.id,
        proposer_hotkey: people.ferdie.hotkey,
        implementer_hotkey: people.dave.hotkey,
        metric_name: 'heldout_ppl',
        previous_metric_value: 255,
        improved_metric_value: 248,
        improvement_amount: 7,
      },
      {
        task_id: task.id,
        improved_submission_id: smaller.id,
        idea_submission_id: first.id,
        proposer_hotkey: people.dave.hotkey,
        implementer_hotkey: people.ferdie.hotkey,
        metric_name: 'heldout_ppl',
        previous_metric_value: 254,
        improved_metric_value: 255,
        improvement_amount: 1,
      },
    ]);
  });
});
