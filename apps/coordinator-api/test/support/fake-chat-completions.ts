import { createServer, IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake endpoint received. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body. */
  body: unknown;
}

/** What the endpoint does with a request: answer with a status and JSON body, or never answer. */
export type Reply = { status: number; json: unknown } | { hang: true };

/**
 * A real HTTP server on 127.0.0.1 speaking the OpenAI chat-completions protocol
 * (`POST /v1/chat/completions`), answering whatever the test sets and recording every request.
 */
export class FakeChatCompletions {
  readonly requests: ReceivedRequest[] = [];
  private replies: Reply[] = [FakeChatCompletions.content('{"work_items": []}')];

  private readonly server: Server = createServer((request, response) => this.handle(request, response));
  /** What `PLANNER_LLM_BASE_URL` should be. */
  baseUrl = '';

  static async start(): Promise<FakeChatCompletions> {
    const fake = new FakeChatCompletions();
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    fake.baseUrl = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}/v1`;
    return fake;
  }

  /** A 200 chat-completions response whose assistant message is `content`. */
  static content(content: string): Reply {
    return {
      status: 200,
      json: {
        id: 'chatcmpl-test',
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      },
    };
  }

  /** A 200 response whose assistant message is `answer` as JSON text. */
  static answer(answer: unknown): Reply {
    return FakeChatCompletions.content(JSON.stringify(answer));
  }

  /** Each request takes the next reply; the last one answers every request after it. */
  answerWith(...replies: [Reply, ...Reply[]]): void {
    this.replies = replies;
  }

  async close(): Promise<void> {
    // Hanging requests and the client's keep-alive sockets would hold close() open.
    this.server.closeAllConnections();
    await new Promise<void>((resolve, reject) => this.server.close((error) => (error ? reject(error) : resolve())));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      this.requests.push({
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: text === '' ? undefined : (JSON.parse(text) as unknown),
      });
      if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"error": "not found"}');
        return;
      }
      const reply = this.replies.length > 1 ? (this.replies.shift() as Reply) : this.replies[0];
      if ('hang' in reply) return;
      response.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.json));
    });
  }
}
