import { AnswerBoundError, ServiceAnswerError, ServiceUnreachableError, answerError, readBoundedBody, sizeText } from '@rcs/client';
import { parseSseFrame, takeSseFrames } from '@rcs/contracts';
import { CLI_BODY_BYTES } from '../http/limits';

/** One Server-Sent Event of `/api/v1/events`: its name and its `data:` text (one JSON object). */
export interface StreamEvent {
  id: string;
  event: string;
  data: string;
}

/** The stream ended or the wait ran out before the awaited event. */
export class EventStreamEndedError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'EventStreamEndedError';
  }
}

/**
 * Follows a `text/event-stream` route until `onEvent` answers true. `opened` runs once the stream is open
 * (so that a check made then cannot miss an event sent in between); its true also ends the wait.
 */
export async function followEvents(
  url: string,
  opened: () => Promise<boolean>,
  onEvent: (event: StreamEvent) => boolean,
  timeoutMs: number,
): Promise<void> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    let response: Response;
    try {
      response = await fetch(url, { headers: { accept: 'text/event-stream' }, signal: abort.signal });
    } catch (error) {
      throw new ServiceUnreachableError(abort.signal.aborted ? 'timed out' : ((error as Error & { cause?: { code?: string } }).cause?.code ?? (error as Error).message), new URL(url).pathname);
    }
    const path = new URL(url).pathname;
    if (!response.ok || response.body === null) {
      const text = new TextDecoder().decode(await readBoundedBody(response, CLI_BODY_BYTES.errorBytes, 0, path));
      throw answerError({ status: response.status, text, headers: response.headers }, path);
    }
    if (await opened()) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true }).replace(/\r\n?/g, '\n');
        const { frames, rest } = takeSseFrames(buffer);
        buffer = rest;
        for (const block of frames) {
          const event = parseEvent(block);
          if (event !== null && onEvent(event)) return;
        }
        // What is left is one unfinished event: a service that never ends it must not fill the memory.
        if (buffer.length > CLI_BODY_BYTES.eventBytes) throw new AnswerBoundError(`an event is larger than ${sizeText(CLI_BODY_BYTES.eventBytes)}, the most read for one`, path);
      }
    } catch (error) {
      if (error instanceof AnswerBoundError) throw error;
      if (abort.signal.aborted) throw new EventStreamEndedError(`no decision within ${Math.round(timeoutMs / 1000)} s`);
      throw new ServiceUnreachableError(`the event stream broke: ${(error as Error).message}`, path);
    }
    throw new EventStreamEndedError('the event stream ended before the decision');
  } catch (error) {
    if (error instanceof ServiceAnswerError || error instanceof ServiceUnreachableError || error instanceof EventStreamEndedError) throw error;
    if (abort.signal.aborted) throw new EventStreamEndedError(`no decision within ${Math.round(timeoutMs / 1000)} s`);
    throw error;
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}

/** One event block; comments (`: heartbeat`) and blocks without data are null. */
export function parseEvent(block: string): StreamEvent | null {
  const { id, event, data } = parseSseFrame(block);
  return data === null ? null : { id, event, data };
}
