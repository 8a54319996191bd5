import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { AnswerBoundError, InvalidResponseError, MissingAdminTokenError, ServiceAnswerError, ServiceUnreachableError } from '@rcs/client';
import type { CommandContext } from '../context';
import { CliRefusedError, CliUnreachableError, CliUsageError } from '../errors';
import { EventStreamEndedError } from '../events/event-stream';
import { PatchRefusedError } from '../miner/submission';
import { CLI_VERSION } from '../version';
import { MINER_TOOLS, type McpTool } from './miner-tools';
import { checkedArguments, inputSchema, ToolArgumentsError } from './tool-input';

const ONBOARD_URI = /^rcs:\/\/tasks\/([^/]+)\/onboard\.md$/;

/** The error of a failed tool call as the agent reads it: the service's code and message, or this client's own. */
export interface ToolError {
  error: string;
  message: string;
  status?: number;
  violations?: { type: string; msg: string }[];
  problems?: string[];
}

/** Any failure of a tool as a `ToolError`; an error this code does not know is `internal_error` (its message only, no stack). */
export function toolError(error: unknown): ToolError {
  if (error instanceof ServiceAnswerError) return { error: error.code ?? `http_${error.status}`, message: error.detail, status: error.status };
  if (error instanceof PatchRefusedError) return { error: 'patch_rejected', message: "the patch breaks the task's rules; nothing was sent", violations: error.violations };
  if (error instanceof ToolArgumentsError) return { error: 'invalid_arguments', message: error.message, problems: error.problems };
  if (error instanceof CliUsageError || error instanceof MissingAdminTokenError) return { error: 'invalid_arguments', message: error.message };
  if (error instanceof InvalidResponseError) return { error: 'invalid_response', message: error.message, problems: error.problems };
  if (error instanceof ServiceUnreachableError || error instanceof CliUnreachableError || error instanceof AnswerBoundError) return { error: 'unreachable', message: error.message };
  if (error instanceof EventStreamEndedError) return { error: 'not_decided', message: error.message };
  if (error instanceof CliRefusedError) return { error: 'refused', message: error.message };
  return { error: 'internal_error', message: error instanceof Error ? error.message : String(error) };
}

/** The tools as `tools/list` lists them. */
export function listedTools(tools: McpTool[] = MINER_TOOLS): Tool[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: inputSchema(tool.input), annotations: tool.annotations }));
}

/**
 * `rcs mcp`: a Model Context Protocol server on stdin/stdout (DECISIONS §18). The key is loaded in this process
 * (as every rcs command loads it) and signs here; no tool answers it, and the log lines on stderr name only the
 * tool and its outcome. Resolves when the client closes the connection.
 */
export async function serveMcp(ctx: CommandContext): Promise<void> {
  // Loaded here, not when rcs starts: no other command pays for the SDK.
  const [{ Server: McpServer }, { StdioServerTransport }, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  const { CallToolRequestSchema, ErrorCode, ListResourcesRequestSchema, ListToolsRequestSchema, McpError, ReadResourceRequestSchema } = types;
  const server = new McpServer({ name: 'rcs', version: CLI_VERSION }, { capabilities: { tools: {}, resources: {} } });
  const tools = new Map(MINER_TOOLS.map((tool) => [tool.name, tool]));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listedTools() }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = tools.get(request.params.name);
    const started = Date.now();
    try {
      if (tool === undefined) throw new CliUsageError(`no tool named ${request.params.name}`);
      const args = checkedArguments(tool.input, request.params.arguments);
      const token = request.params._meta?.progressToken;
      let progress = 0;
      const result = await tool.run(args, {
        ctx,
        progress: async (message) => {
          if (token === undefined) return;
          progress += 1;
          try {
            await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, message } });
          } catch {
            // The client went away: the call's own answer (or the closed connection) tells it; a notification must not crash the server.
          }
        },
      });
      ctx.note(`rcs mcp: ${request.params.name} ok (${Date.now() - started} ms)`);
      return { content: [{ type: 'text', text: JSON.stringify(result) }] };
    } catch (error) {
      const failure = toolError(error);
      ctx.note(`rcs mcp: ${request.params.name} error ${failure.error} (${Date.now() - started} ms)`);
      return { isError: true, content: [{ type: 'text', text: JSON.stringify(failure) }] };
    }
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    const tasks = (await (await ctx.coordinator()).tasks({ task_state: 'live' })).value;
    return {
      resources: tasks.map((task) => ({ uri: `rcs://tasks/${task.id}/onboard.md`, name: `${task.slug} onboarding`, title: task.title, mimeType: 'text/markdown' })),
    };
  });
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const taskId = ONBOARD_URI.exec(request.params.uri)?.[1];
    if (taskId === undefined) throw new McpError(ErrorCode.InvalidParams, `unknown resource ${request.params.uri}: rcs serves rcs://tasks/<task id>/onboard.md`);
    const markdown = await (await ctx.coordinator()).onboard(decodeURIComponent(taskId));
    return { contents: [{ uri: request.params.uri, mimeType: 'text/markdown', text: markdown }] };
  });
  const closed = new Promise<void>((done) => (server.onclose = done));
  await server.connect(new StdioServerTransport());
  // The client went away (its end of stdin closed): so does the server, and the process with it.
  process.stdin.once('end', () => void server.close());
  ctx.note(`rcs mcp: serving ${MINER_TOOLS.length} tools on stdio for ${ctx.settings.coordinatorUrl}`);
  await closed;
}
