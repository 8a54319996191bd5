/** The planner LLM failed, timed out or answered something unusable; `reason` is safe to show an operator. */
export class PlannerLlmError extends Error {
  constructor(readonly reason: string) {
    super(`planner LLM failed: ${reason}`);
    this.name = 'PlannerLlmError';
  }
}
