import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CompetitionMode, IdeaRewardDto, MetricDirection } from '@rcs/contracts';
import { IdeaRewardsRepository } from '../src/idea-rewards/idea-rewards.module';
import { CoordinatorHarness, startCoordinatorForSuite } from './harness';
import { acceptResult, closeTask, insertPendingSubmission, insertRankedTask } from './support/best-results-rows';

/** Idea rewards (DECISIONS.md §6): recorded exactly when an implementing centerless submission becomes the new best. */
describe('idea rewards', () => {
  let h: CoordinatorHarness;
  startCoordinatorForSuite({}, (started) => (h = started));

  async function get<T>(path: string): Promise<{ status: number; body: T }> {
    const response = await fetch(`${h.url}${path}`);
    return { status: response.status, body: (await response.json()) as T };
  }

  const rewardCount = async (taskId: string): Promise<number> =>
    Number(((await h.db.dataSource.query(`SELECT count(*) AS n FROM idea_rewards WHERE task_id = $1`, [taskId])) as { n: string }[])[0].n);

  /** A minimize task with `mode`; submit(hotkey, implements?) stores a pending submission carrying an idea. */
  async function competition(mode: CompetitionMode = CompetitionMode.Centerless) {
    const taskId = await insertRankedTask(h.db, { mode, metricName: 'loss', direction: MetricDirection.Minimize });
    const submit = (minerHotkey: string, implementedSubmissionId?: string) =>
      insertPendingSubmission(h.db, { taskId, minerHotkey, proposedIdea: `Idea of ${minerHotkey}.`, implementedSubmissionId });
    const accept = (submissionId: string, metric: number) => acceptResult(h, taskId, submissionId, { metric });
    return { taskId, submit, accept };
  }

  it('credits the idea author when its implementation becomes the new best, with previous, improved and improvement', async () => {
    const c = await competition();
    const idea = await c.submit('alice');
    expect((await c.accept(idea, 2.5)).ideaReward).toBeNull();
    const implementation = await c.submit('bob', idea);
    const { replaced, ideaReward } = await c.accept(implementation, 2.25);
    expect(replaced).toBe(true);
    expect(ideaReward).toMatchObject({
      taskId: c.taskId,
      improvedSubmissionId: implementation,
      ideaSubmissionId: idea,
      proposerHotkey: 'alice',
      implementerHotkey: 'bob',
      metricName: 'loss',
      previousMetricValue: 2.5,
      improvedMetricValue: 2.25,
      improvementAmount: 0.25,
    });
    const listed = await get<IdeaRewardDto[]>(`/api/v1/idea-rewards?task_id=${c.taskId}`);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      {
        id: ideaReward?.id,
        task_id: c.taskId,
        improved_submission_id: implementation,
        idea_submission_id: idea,
        proposer_hotkey: 'alice',
        implementer_hotkey: 'bob',
        metric_name: 'loss',
        previous_metric_value: 2.5,
        improved_metric_value: 2.25,
        improvement_amount: 0.25,
        created_at: ideaReward?.createdAt.toISOString(),
      },
    ]);
  });

  it('records a null improvement when the implementation is the first best of the task', async () => {
    const c = await competition();
    const idea = await c.submit('alice');
    const implementation = await c.submit('bob', idea);
    const { outcome, ideaReward } = await c.accept(implementation, 3);
    expect(outcome).toBe('first_result');
    expect(ideaReward).toMatchObject({ ideaSubmissionId: idea, previousMetricValue: null, improvedMetricValue: 3, improvementAmount: null });
  });

  it('records nothing when the implementation does not become the new best', async () => {
    const c = await competition();
    const idea = await c.submit('alice');
    await c.accept(idea, 2);
    const implementation = await c.submit('bob', idea);
    expect(await c.accept(implementation, 2.1)).toMatchObject({ replaced: false, ideaReward: null });
    expect(await rewardCount(c.taskId)).toBe(0);
  });

  it('records nothing for a new best without implemented_submission_id', async () => {
    const c = await competition();
    await c.accept(await c.submit('alice'), 2);
    expect(await c.accept(await c.submit('bob'), 1)).toMatchObject({ replaced: true, ideaReward: null });
    expect(await rewardCount(c.taskId)).toBe(0);
  });

  it('records nothing on a standard task, even for a new best that names an implemented submission', async () => {
    const c = await competition(CompetitionMode.Standard);
    const idea = await c.submit('alice');
    await c.accept(idea, 2);
    expect(await c.accept(await c.submit('bob', idea), 1)).toMatchObject({ replaced: true, ideaReward: null });
    expect(await rewardCount(c.taskId)).toBe(0);
  });

  it('records nothing once the task is closed and the best frozen', async () => {
    const c = await competition();
    const idea = await c.submit('alice');
    await c.accept(idea, 2);
    await closeTask(h.db, c.taskId);
    const late = await c.submit('bob', idea);
    expect(await c.accept(late, 1)).toMatchObject({ replaced: false, ideaReward: null });
    expect(await rewardCount(c.taskId)).toBe(0);
  });

  describe('GET /api/v1/idea-rewards', () => {
    let taskA: string;
    let taskB: string;
    let ideaA: string;
    /** Rewards in creation order: bob implements alice's idea, then carol bob's, then (task B) alice carol's. */
    let rewards: IdeaRewardDto[];

    beforeAll(async () => {
      const a = await competition();
      taskA = a.taskId;
      ideaA = await a.submit('alice');
      await a.accept(ideaA, 10);
      const byBob = await a.submit('bob', ideaA);
      await a.accept(byBob, 9);
      const byCarol = await a.submit('carol', byBob);
      await a.accept(byCarol, 8);
      const b = await competition();
      taskB = b.taskId;
      const ideaB = await b.submit('carol');
      const byAlice = await b.submit('alice', ideaB);
      await b.accept(byAlice, 5);
      rewards = (await get<IdeaRewardDto[]>(`/api/v1/idea-rewards?limit=1000`)).body.filter((r) => r.task_id === taskA || r.task_id === taskB).reverse();
      expect(rewards.map((r) => [r.proposer_hotkey, r.implementer_hotkey])).toEqual([
        ['alice', 'bob'],
        ['bob', 'carol'],
        ['carol', 'alice'],
      ]);
    });

    const ids = async (query: string): Promise<string[]> => {
      const reply = await get<IdeaRewardDto[]>(`/api/v1/idea-rewards?${query}`);
      expect(reply.status).toBe(200);
      return reply.body.map((r) => r.id);
    };

    it('lists newest first and filters by task', async () => {
      expect(await ids(`task_id=${taskA}`)).toEqual([rewards[1].id, rewards[0].id]);
      expect(await ids(`task_id=${taskB}`)).toEqual([rewards[2].id]);
    });

    it('matches submission_id against the improved submission or the idea submission', async () => {
      const bobs = rewards[0].improved_submission_id;
      expect(rewards[1].idea_submission_id).toBe(bobs);
      expect(await ids(`submission_id=${bobs}`)).toEqual([rewards[1].id, rewards[0].id]);
      expect(await ids(`submission_id=${ideaA}`)).toEqual([rewards[0].id]);
      expect(await ids(`submission_id=${rewards[2].improved_submission_id}`)).toEqual([rewards[2].id]);
    });

    it('filters by proposer and implementer, combined with AND', async () => {
      expect(await ids(`proposer_hotkey=alice&task_id=${taskA}`)).toEqual([rewards[0].id]);
      expect(await ids(`implementer_hotkey=alice&task_id=${taskB}`)).toEqual([rewards[2].id]);
      expect(await ids(`proposer_hotkey=alice&implementer_hotkey=carol&task_id=${taskA}`)).toEqual([]);
      expect(await ids(`proposer_hotkey=bob&implementer_hotkey=carol&task_id=${taskA}`)).toEqual([rewards[1].id]);
    });

    it('pages with limit and offset', async () => {
      expect(await ids(`task_id=${taskA}&limit=1`)).toEqual([rewards[1].id]);
      expect(await ids(`task_id=${taskA}&limit=1&offset=1`)).toEqual([rewards[0].id]);
    });

    it('answers an empty list for ids that name nothing, and 422 for a bad query', async () => {
      expect(await ids(`task_id=${randomUUID()}`)).toEqual([]);
      expect(await ids('task_id=not-a-uuid')).toEqual([]);
      expect(await ids('submission_id=not-a-uuid')).toEqual([]);
      const bad = await get<{ detail: { loc: string[]; type: string }[] }>('/api/v1/idea-rewards?limit=1001&sort=asc');
      expect(bad.status).toBe(422);
      expect(bad.body.detail.map((item) => [item.loc.join('.'), item.type]).sort()).toEqual([
        ['query.limit', 'less_than_equal'],
        ['query.sort', 'extra_forbidden'],
      ]);
    });

    it('IdeaRewardsRepository.listForSubmission reads the rewards a submission took part in, for the submission detail', async () => {
      const manager = h.app.get(DataSource).manager;
      const ideaRewardsForSubmission = (submissionId: string) => h.app.get(IdeaRewardsRepository).listForSubmission(manager, submissionId);
      const bobs = rewards[0].improved_submission_id;
      expect((await ideaRewardsForSubmission(bobs)).map((r) => r.id)).toEqual([rewards[1].id, rewards[0].id]);
      expect(await ideaRewardsForSubmission(randomUUID())).toEqual([]);
      expect(await ideaRewardsForSubmission('not-a-uuid')).toEqual([]);
    });
  });
});
