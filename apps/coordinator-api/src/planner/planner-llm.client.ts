import { Inject, Injectable } from '@nestjs/common';
import { CoordinatorConfig } from '../config/config';
import { COORDINATOR_CONFIG } from '../config/config.module';
import { completionContent } from './agentic-answer';
import { PlannerLlmError } from './planner-llm.error';

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

/** The planner's OpenAI-compatible endpoint has no configuration (agentic planner off). */
export class PlannerLlmUnconfiguredError extends Error {
  constructor() {
    super('PLANNER_LLM_BASE_URL and PLANNER_LLM_MODEL are not set');
    this.name = 'PlannerLlmUnconfiguredError';
  }
}

/** `POST {PLANNER_LLM_BASE_URL}/chat/completions` asking for a JSON object answer. */
@Injectable()
export class PlannerLlmClient {
  constructor(@Inject(COORDINATOR_CONFIG) private readonly config: CoordinatorConfig) {}

  /** The assistant's answer text; `PlannerLlmError` on HTTP errors, timeouts or a response without one. */
  async complete(messages: ChatMessage[]): Promise<string> {
    const llm = this.config.plannerLlm;
    if (llm === null) throw new PlannerLlmUnconfiguredError();
    const signal = AbortSignal.timeout(llm.timeoutSeconds * 1000);
    let body: unknown;
    try {
      const response = await fetch(`${llm.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(llm.apiKey === null ? {} : { authorization: `Bearer ${llm.apiKey}` }),
        },
        body: JSON.stringify({ model: llm.model, messages, response_format: { type: 'json_object' } }),
        signal,
      });
      if (!response.ok) {
        // Drain the body so the connection is reusable; its text may echo the prompt, so it is not reported.
        await response.arrayBuffer();
        throw new PlannerLlmError(`the endpoint answered HTTP ${response.status}`);
      }
      body = await response.json();
    } catch (error) {
      if (error instanceof PlannerLlmError) throw error;
      if (signal.aborted) throw new PlannerLlmError(`no answer within ${llm.timeoutSeconds} s`);
      if (error instanceof SyntaxError) throw new PlannerLlmError('the response body is not JSON');
      throw new PlannerLlmError(`the request failed: ${describe(error)}`);
    }
    return completionContent(body);
  }
}

// fetch reports network failures as "fetch failed" with the real reason (e.g. ECONNREFUSED) in `cause`.
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${error.message} (${error.cause.message})` : error.message;
}
