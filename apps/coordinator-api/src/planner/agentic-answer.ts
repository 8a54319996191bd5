import { createHash } from 'node:crypto';
import { isRecord } from '@rcs/contracts';
import { PlannerLlmError } from './planner-llm.error';

/** Bounds on what the LLM may propose (DECISIONS.md §4 leaves them to us). */
export const AGENTIC_ANSWER_LIMITS = {
  maxItems: 20,
  title: { min: 3, max: 200 },
  description: { min: 1, max: 4000 },
  priority: { min: 0, max: 100 },
} as const;

/** One work item as the LLM proposed it, validated and trimmed. */
export interface ProposedWorkItem {
  title: string;
  description: string;
  priority: number;
}

const ITEM_KEYS = ['title', 'description', 'priority'];

/** The assistant message text of an OpenAI-compatible chat-completions response body. */
export function completionContent(body: unknown): string {
  const choices = isRecord(body) ? body['choices'] : undefined;
  const first: unknown = Array.isArray(choices) ? choices[0] : undefined;
  const message = isRecord(first) ? first['message'] : undefined;
  const content = isRecord(message) ? message['content'] : undefined;
  if (typeof content !== 'string') throw new PlannerLlmError('the response has no choices[0].message.content string');
  return content;
}

/**
 * Parses `{"work_items": [{"title", "description", "priority"}]}` strictly: any other shape, extra
 * property or out-of-bounds field rejects the whole answer, naming every problem.
 */
export function parseWorkItemPlan(content: string): ProposedWorkItem[] {
  let answer: unknown;
  try {
    answer = JSON.parse(content);
  } catch {
    throw new PlannerLlmError('the answer is not JSON');
  }
  if (!isRecord(answer) || !Array.isArray(answer['work_items'])) {
    throw new PlannerLlmError('the answer is not an object with a work_items array');
  }
  const problems = Object.keys(answer)
    .filter((key) => key !== 'work_items')
    .map((key) => `unexpected property ${key}`);
  const items: unknown[] = answer['work_items'];
  if (items.length > AGENTIC_ANSWER_LIMITS.maxItems) problems.push(`work_items has ${items.length} items, at most ${AGENTIC_ANSWER_LIMITS.maxItems} allowed`);
  const parsed = items.map((item, index) => parseItem(item, `work_items[${index}]`, problems));
  if (problems.length > 0) throw new PlannerLlmError(problems.join('; '));
  return parsed.filter((item): item is ProposedWorkItem => item !== null);
}

function parseItem(item: unknown, where: string, problems: string[]): ProposedWorkItem | null {
  if (!isRecord(item)) {
    problems.push(`${where} is not an object`);
    return null;
  }
  const before = problems.length;
  for (const key of Object.keys(item)) if (!ITEM_KEYS.includes(key)) problems.push(`${where} has unexpected property ${key}`);
  const title = boundedText(item['title'], `${where}.title`, AGENTIC_ANSWER_LIMITS.title, problems);
  const description = boundedText(item['description'], `${where}.description`, AGENTIC_ANSWER_LIMITS.description, problems);
  const priority = item['priority'];
  const { min, max } = AGENTIC_ANSWER_LIMITS.priority;
  if (typeof priority !== 'number' || !Number.isInteger(priority) || priority < min || priority > max) {
    problems.push(`${where}.priority must be an integer ${min}..${max}`);
  }
  if (problems.length > before || title === null || description === null) return null;
  return { title, description, priority: priority as number };
}

function boundedText(value: unknown, where: string, bounds: { min: number; max: number }, problems: string[]): string | null {
  const text = typeof value === 'string' ? value.trim() : null;
  const length = text === null ? 0 : [...text].length;
  if (text === null || length < bounds.min || length > bounds.max) {
    problems.push(`${where} must be a string of ${bounds.min}..${bounds.max} characters`);
    return null;
  }
  return text;
}

/** Titles that differ only in case or spacing name the same item. */
export function normaliseTitle(title: string): string {
  return title.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** Dedupe key of an agentic item: the same title never gives two open items on a task. */
export function agenticDedupeKey(title: string): string {
  return `agentic:${createHash('sha256').update(normaliseTitle(title), 'utf8').digest('hex')}`;
}
