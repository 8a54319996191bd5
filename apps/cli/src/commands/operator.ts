import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Argv } from 'yargs';
import type { CommandContext, GlobalArgs } from '../context';
import { CliRefusedError, CliUsageError } from '../errors';
import { display, fields } from '../output/io';
import type { Handle } from './handle';
import { ImportTarget, ProblemImportError, problemToCreateTask } from './task-import';

const RUNNER_ENTRY = join('apps', 'validator-runner', 'src', 'main.ts');

export function validatorCommands(yargs: Argv<GlobalArgs>, handle: Handle): Argv<GlobalArgs> {
  const runnerMode = (mode: 'run' | 'once') =>
    handle(async (ctx) => {
      const code = await runRunner(ctx, [mode]);
      if (code !== 0) throw new CliRefusedError(`the validator runner exited with ${code}`);
    });
  return yargs.command('validator', 'Validate: run | once | replay --job-file F (the runner with your wallet) | status', (y) =>
    y
      .command('run', 'Serve the runner: scan, replay in the sandbox, post results (until interrupted)', (z) => z, runnerMode('run'))
      .command('once', 'One scan; replay each leased job and post it; exit 0 when every result was recorded', (z) => z, runnerMode('once'))
      .command(
        'replay',
        'Replay a saved job (a scan’s job JSON) and print the result that would be posted, posting nothing',
        (z) => z.option('job-file', { type: 'string', demandOption: true, describe: 'The job JSON' }),
        handle(async (ctx, args) => {
          const code = await runRunner(ctx, ['replay', '--job-file', args['job-file']], false);
          if (code !== 0) throw new CliRefusedError(`the validator runner exited with ${code}`);
        }),
      )
      .command(
        'status',
        'Your validator hotkey and the coordinator’s validator backlog (pending, leased, expired jobs)',
        (z) => z,
        handle(async (ctx) => {
          const hotkey = (await ctx.signer()).hotkey;
          const dashboard = await (await ctx.coordinator()).dashboard();
          ctx.print(dashboard, (value) => fields([['hotkey', hotkey], ...Object.entries(value.validator_backlog).filter(([, v]) => typeof v !== 'object')]));
        }),
      )
      .demandCommand(1, 'name a validator command: run, once, replay or status'),
  );
}

/** The runner's own entry point, with this CLI's identity and coordinator in the runner's variables; its exit code. */
async function runRunner(ctx: CommandContext, args: string[], needsIdentity = true): Promise<number> {
  const root = repositoryRoot();
  if (root === null) {
    // A packed install (npm install -g) carries the CLI only, not the runner and its sandbox.
    throw new CliUsageError(`validator ${args[0] as string} runs the validator runner from a repository checkout, which this installed rcs is not part of: run it there (npx rcs validator ${args[0] as string}) or run the runner's image; validator status works anywhere`);
  }
  const { identity, coordinatorUrl } = ctx.settings;
  const env: NodeJS.ProcessEnv = { ...ctx.env, COORDINATOR_URL: coordinatorUrl };
  // A person reads rcs: the runner's readable lines unless --json or LOG_FORMAT asks for JSON lines.
  env['LOG_FORMAT'] ??= ctx.json ? 'json' : 'pretty';
  if (needsIdentity) {
    if (identity.walletFile !== null) throw new CliUsageError('the validator runner reads a wallet by name: use --wallet-name (with --wallet-path, --wallet-hotkey) or RCS_KEY_URI, not --wallet-file');
    if (identity.keyUri !== null) env['VALIDATOR_SECRET_URI'] = identity.keyUri;
    else if (identity.walletName !== null) Object.assign(env, { BT_WALLET_NAME: identity.walletName, BT_WALLET_HOTKEY: identity.walletHotkey, BT_WALLET_PATH: identity.walletPath });
  }
  const child = spawn(process.execPath, ['-r', '@swc-node/register', RUNNER_ENTRY, ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk: Buffer) => ctx.io.stdout(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => ctx.io.stderr(chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
}

/** The checkout this file belongs to (the directory holding the runner), or null in a packed install. */
function repositoryRoot(): string | null {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) if (existsSync(join(dir, RUNNER_ENTRY))) return dir;
  return null;
}

export function adminCommands(yargs: Argv<GlobalArgs>, handle: Handle): Argv<GlobalArgs> {
  const move = (operation: 'pause' | 'resume' | 'close') =>
    handle(async (ctx, args: GlobalArgs & { id: string }) => {
      const answer = await (await admin(ctx)).moveTask(args.id, operation);
      ctx.print(answer, (value) => `${value.task_id}: ${value.previous_state} → ${value.task_state}\n`);
    });
  const id = (z: Argv<GlobalArgs>) => z.positional('id', { type: 'string', demandOption: true, describe: 'Task id' });
  return yargs.command('admin', 'Operate (RCS_ADMIN_TOKEN): task create --file F | import problem.yaml --repository R | pause | resume | close <id>; policy get | set --file F; planner run [--agentic]', (y) =>
    y
      .command('task', 'Create and move tasks', (t) =>
        t
          .command(
            'create',
            'Create a task from a JSON file (the CreateTaskDto body)',
            (z) => z.option('file', { type: 'string', demandOption: true }),
            handle(async (ctx, args) => {
              const answer = await (await admin(ctx)).createTask(readJsonFile(args.file));
              ctx.print(answer, (task) => fields([['task', task.id], ['slug', task.slug], ['state', task.task_state]]));
            }),
          )
          .command(
            'import <file>',
            "Create a task from BitSota's agent-skills problem.yaml (what has no counterpart is refused, naming the field)",
            (z) =>
              z
                .positional('file', { type: 'string', demandOption: true, describe: 'problem.yaml' })
                .option('repository', { type: 'string', demandOption: true, describe: 'the task repository (problem.yaml names none)' })
                .option('base-ref', { type: 'string', default: 'main', describe: 'the commit or branch the task is pinned to' }),
            handle(async (ctx, args) => {
              const body = importProblem(args.file, { repository: args.repository, baseRef: args.baseRef });
              const answer = await (await admin(ctx)).createTask(body);
              ctx.print(answer, (task) => fields([['task', task.id], ['slug', task.slug], ['state', task.task_state]]));
            }),
          )
          .command('pause <id>', 'live → paused', id, move('pause'))
          .command('resume <id>', 'paused → live', id, move('resume'))
          .command('close <id>', 'live or paused → closed (for good)', id, move('close'))
          .demandCommand(1, 'name a task command: create, import, pause, resume or close'),
      )
      .command('policy', 'The reward policy', (p) =>
        p
          .command(
            'get',
            'Print the current reward policy',
            (z) => z,
            handle(async (ctx) => ctx.print(await (await admin(ctx)).rewardPolicy(), (value) => `${JSON.stringify(value, null, 2)}\n`)),
          )
          .command(
            'set',
            'Replace the reward policy with a JSON file',
            (z) => z.option('file', { type: 'string', demandOption: true }),
            handle(async (ctx, args) => {
              const answer = await (await admin(ctx)).setRewardPolicy(readJsonFile(args.file));
              ctx.print(answer, (policy) => `reward policy version ${display(policy.version)}\n`);
            }),
          )
          .demandCommand(1, 'name a policy command: get or set'),
      )
      .command('planner', 'Work-item planners', (p) =>
        p
          .command(
            'run',
            'Run the deterministic planner (or the agentic one)',
            (z) => z.option('agentic', { type: 'boolean', default: false }),
            handle(async (ctx, args) => {
              const answer = await (await admin(ctx)).runPlanner(args.agentic);
              ctx.print(answer, (value) => fields([['created', value.created]]));
            }),
          )
          .demandCommand(1, 'name a planner command: run'),
      )
      .demandCommand(1, 'name an admin command: task, policy or planner'),
  );
}

async function admin(ctx: CommandContext) {
  if (ctx.settings.adminToken === null) throw new CliUsageError('the admin commands need RCS_ADMIN_TOKEN');
  return ctx.coordinator();
}

function readJsonFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliUsageError(`cannot read --file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Reported below.
  }
  throw new CliUsageError(`--file ${path} must hold a JSON object`);
}

/** problem.yaml read and mapped; its refusals are usage errors naming the field. */
function importProblem(file: string, target: ImportTarget): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliUsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    return problemToCreateTask(text, target);
  } catch (error) {
    if (error instanceof ProblemImportError) throw new CliUsageError(`${file}: ${error.message}`);
    throw error;
  }
}
