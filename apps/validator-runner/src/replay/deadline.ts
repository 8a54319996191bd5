/** One wall-clock deadline shared by every phase of a replay (the task's time_budget_seconds). */
export class Deadline {
  private readonly endsAt: number;

  constructor(budgetMs: number) {
    this.endsAt = Date.now() + budgetMs;
  }

  remainingMs(): number {
    return Math.max(0, this.endsAt - Date.now());
  }

  get expired(): boolean {
    return this.remainingMs() === 0;
  }

  /** Aborts at the deadline, or after `capMs` when that comes first. */
  signal(capMs = Number.POSITIVE_INFINITY): AbortSignal {
    return AbortSignal.timeout(Math.max(1, Math.min(this.remainingMs(), capMs)));
  }
}
