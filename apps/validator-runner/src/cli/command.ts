import { parseArgs } from 'node:util';

export type RunnerCommand =
  | { kind: 'run' }
  | { kind: 'once' }
  | { kind: 'replay'; jobFile: string }
  | { kind: 'help' }
  | { kind: 'usage'; message: string };

export const USAGE = `Usage: node -r @swc-node/register apps/validator-runner/src/main.ts [command]

Commands:
  run                     (default) serve /healthz, scan the coordinator every RUNNER_SCAN_INTERVAL_SECONDS,
                          replay leased jobs on the runner.replay queue and post their results
  once                    one scan, replay each leased job, post, exit (0 when every result was recorded)
  replay --job-file FILE  replay a saved job (a ValidatorJobDto as the scan returns it) and print the result
                          that would be posted, without posting it (needs no identity and no coordinator)

Configuration comes from the environment (see docs/validator.md and docs/configuration.md).`;

/** The command line of the runner: a subcommand (default `run`) and its options. */
export function parseCommand(argv: string[]): RunnerCommand {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    return { kind: 'usage', message: (error as Error).message };
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  if (positionals.length > 1) return { kind: 'usage', message: `unexpected arguments: ${positionals.slice(1).join(' ')}` };
  const name = positionals[0] ?? 'run';
  if (name !== 'replay' && values['job-file'] !== undefined) return { kind: 'usage', message: '--job-file goes with the replay command' };
  switch (name) {
    case 'run':
      return { kind: 'run' };
    case 'once':
      return { kind: 'once' };
    case 'replay':
      return values['job-file'] ? { kind: 'replay', jobFile: values['job-file'] } : { kind: 'usage', message: 'replay needs --job-file FILE' };
    default:
      return { kind: 'usage', message: `unknown command "${name}"` };
  }
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h' }, 'job-file': { type: 'string' } },
  });
}
