import type { Argv } from 'yargs';
import type { GlobalArgs } from '../context';
import { serveMcp } from '../mcp/mcp-server';
import type { Handle } from './handle';

export function mcpCommand(yargs: Argv<GlobalArgs>, handle: Handle): Argv<GlobalArgs> {
  return yargs.command(
    'mcp',
    'Serve the miner tools to an agent over the Model Context Protocol (stdio); your key stays in this process',
    (y) => y,
    handle(async (ctx) => serveMcp(ctx)),
  );
}
