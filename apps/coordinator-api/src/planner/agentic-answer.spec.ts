import { agenticDedupeKey, completionContent, normaliseTitle, parseWorkItemPlan } from './agentic-answer';
import { PlannerLlmError } from './planner-llm.error';

function reasonOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof PlannerLlmError) return error.reason;
    throw error;
  }
  throw new Error('expected a PlannerLlmError');
}

describe('parseWorkItemPlan', () => {
  it('returns trimmed items of a well-formed answer', () => {
    expect(parseWorkItemPlan('{"work_items": [{"title": " Tune LR ", "description": " Grid. ", "priority": 100}]}')).toEqual([
      { title: 'Tune LR', description: 'Grid.', priority: 100 },
    ]);
    expect(parseWorkItemPlan('{"work_items": []}')).toEqual([]);
  });

  it('accepts the bounds and counts characters, not UTF-16 units', () => {
    const title = '😀'.repeat(200);
    expect(parseWorkItemPlan(JSON.stringify({ work_items: [{ title, description: 'd'.repeat(4000), priority: 0 }] }))).toHaveLength(1);
  });

  it.each([
    ['not JSON', 'work items: none', 'the answer is not JSON'],
    ['an array', '[]', 'the answer is not an object with a work_items array'],
    ['work_items not an array', '{"work_items": {}}', 'the answer is not an object with a work_items array'],
    ['an extra top-level property', '{"work_items": [], "notes": "x"}', 'unexpected property notes'],
    ['an item that is not an object', '{"work_items": ["x"]}', 'work_items[0] is not an object'],
  ])('rejects %s', (_name, content, reason) => {
    expect(reasonOf(() => parseWorkItemPlan(content))).toBe(reason);
  });

  it('names every field problem of every item', () => {
    const content = JSON.stringify({
      work_items: [
        { title: 'ok title', description: 'ok', priority: 1 },
        { title: '  ab  ', description: '   ', priority: -1, extra: true },
        { title: 't'.repeat(201), description: 'd'.repeat(4001), priority: '5' },
        { description: 'no title', priority: 1.5 },
      ],
    });
    expect(reasonOf(() => parseWorkItemPlan(content)).split('; ')).toEqual([
      'work_items[1] has unexpected property extra',
      'work_items[1].title must be a string of 3..200 characters',
      'work_items[1].description must be a string of 1..4000 characters',
      'work_items[1].priority must be an integer 0..100',
      'work_items[2].title must be a string of 3..200 characters',
      'work_items[2].description must be a string of 1..4000 characters',
      'work_items[2].priority must be an integer 0..100',
      'work_items[3].title must be a string of 3..200 characters',
      'work_items[3].priority must be an integer 0..100',
    ]);
  });

  it('refuses more than 20 items', () => {
    const items = Array.from({ length: 21 }, (_, i) => ({ title: `Item ${i}`, description: 'x', priority: 1 }));
    expect(reasonOf(() => parseWorkItemPlan(JSON.stringify({ work_items: items })))).toBe('work_items has 21 items, at most 20 allowed');
  });
});

describe('completionContent', () => {
  it('reads choices[0].message.content', () => {
    expect(completionContent({ choices: [{ message: { role: 'assistant', content: '{}' } }] })).toBe('{}');
  });

  it.each([[null], [{}], [{ choices: [] }], [{ choices: [{ message: { content: null } }] }]])('refuses %j', (body) => {
    expect(reasonOf(() => completionContent(body))).toBe('the response has no choices[0].message.content string');
  });
});

describe('agenticDedupeKey', () => {
  it('is the same for titles differing only in case and spacing', () => {
    expect(normaliseTitle('  Tune   the LR\t')).toBe('tune the lr');
    expect(agenticDedupeKey('Tune the LR')).toBe(agenticDedupeKey(' tune  THE lr '));
    expect(agenticDedupeKey('Tune the LR')).toMatch(/^agentic:[0-9a-f]{64}$/);
    expect(agenticDedupeKey('Tune the LR')).not.toBe(agenticDedupeKey('Tune the batch size'));
  });
});
