import { InvalidResponseError } from './errors';
import { checkedAnswer, listProblems, shapeProblems } from './answer-shape';
import { claimProblems, TASK_SHAPE } from './coordinator-answers';

const TASK = {
  id: 't',
  slug: 's',
  title: 'T',
  repository: 'https://x',
  base_ref: 'main',
  allowed_patch_paths: ['src/**'],
  max_patch_bytes: 100,
  metric_name: 'loss',
  metric_direction: 'minimize',
  secondary_metric_name: null,
  competition_mode: 'standard',
  time_budget_seconds: 60,
  task_state: 'live',
  newer_field: 'tolerated',
};

describe('answers checked against the contract DTOs', () => {
  it('passes a conforming answer, unknown properties included', () => {
    expect(shapeProblems(TASK, TASK_SHAPE)).toEqual([]);
    expect(listProblems([TASK, TASK], TASK_SHAPE)).toEqual([]);
  });

  it('names every field that breaks its kind, with where it is', () => {
    expect(shapeProblems({ ...TASK, max_patch_bytes: '100', task_state: 'gone', allowed_patch_paths: [1], secondary_metric_name: 3 }, TASK_SHAPE)).toEqual([
      'allowed_patch_paths must be an array of strings',
      'max_patch_bytes must be a number',
      'secondary_metric_name must be a string or null',
      'task_state must be one of live, paused, closed',
    ]);
    expect(listProblems([TASK, { ...TASK, id: null }], TASK_SHAPE)).toEqual(['[1].id must be a string']);
    expect(listProblems({}, TASK_SHAPE)).toEqual(['the answer must be a JSON array']);
    expect(shapeProblems('x', TASK_SHAPE)).toEqual(['the answer must be a JSON object']);
  });

  it('checks a claim and, when it carries one, its participation disclaimer', () => {
    const claim = { id: 'c', task_id: 't', miner_hotkey: 'h', work_item_id: null, status: 'active', expires_at: 'now' };
    expect(claimProblems(claim)).toEqual([]);
    expect(claimProblems({ ...claim, participation_disclaimer: { code: 'c', version: '1', title: 't' } })).toEqual(['participation_disclaimer.text must be a string']);
  });

  it('throws InvalidResponseError naming the path without its query', () => {
    expect(() => checkedAnswer('/api/v1/tasks?limit=1', {}, ['id must be a string'])).toThrow(InvalidResponseError);
    expect(() => checkedAnswer('/api/v1/tasks?limit=1', {}, ['id must be a string'])).toThrow('/api/v1/tasks answered a document that breaks the contract: id must be a string');
  });
});
