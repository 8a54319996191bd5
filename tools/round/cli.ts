import { parseArgs, ParseArgsConfig } from 'node:util';
import { readStackState } from '../stack/state';

type Options = NonNullable<ParseArgsConfig['options']>;
type Values<O extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: O }>>['values'];

/** Thrown by a script's body for bad usage: exit 2 with the help text. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * The shared shape of the operator scripts: parse the options, `--help`, exit 0 when the body
 * succeeds, 1 on any unexpected answer (with the reason), 2 on bad usage.
 */
export function runCli<const O extends Options>(name: string, help: string, options: O, body: (values: Values<O>) => Promise<void>): void {
  const usage = (message: string): number => {
    process.stderr.write(`${name}: ${message}\n\n${help}\n`);
    return 2;
  };
  const main = async (): Promise<number> => {
    let values: Values<O>;
    try {
      values = parseArgs({ args: process.argv.slice(2), options }).values;
    } catch (error) {
      return usage((error as Error).message);
    }
    if ((values as Record<string, unknown>).help === true) {
      process.stdout.write(`${help}\n`);
      return 0;
    }
    try {
      await body(values);
      return 0;
    } catch (error) {
      if (error instanceof UsageError) return usage(error.message);
      throw error;
    }
  };
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${name}: failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}

/** The admin token option, required by every script that creates tasks. */
export function requiredAdminToken(value: string | boolean | undefined): string {
  if (typeof value !== 'string' || value === '') throw new UsageError('--admin-token is required');
  return value;
}

/** Where the scripts find a stack: their flags, else the environment, else DATA_DIR/stack.json of a running `npm start`. */
export interface StackTarget {
  coordinatorUrl: string;
  adminToken: string | undefined;
  poolUrl: string;
  weightSetterUrl: string;
}

export function stackTarget(flags: { url?: string; adminToken?: string; poolUrl?: string; weightSetterUrl?: string }): StackTarget {
  const stack = readStackState(process.env.DATA_DIR);
  return {
    coordinatorUrl: (flags.url ?? process.env.COORDINATOR_URL ?? stack.coordinator_url ?? 'http://127.0.0.1:8000').replace(/\/+$/, ''),
    adminToken: flags.adminToken ?? process.env.ADMIN_TOKENS?.split(',')[0]?.trim() ?? stack.admin_token,
    poolUrl: (flags.poolUrl ?? process.env.POOL_URL ?? stack.pool_url ?? 'http://127.0.0.1:8434').replace(/\/+$/, ''),
    weightSetterUrl: (flags.weightSetterUrl ?? stack.weight_setter_url ?? `http://127.0.0.1:${process.env.WEIGHT_SETTER_PORT ?? '8200'}`).replace(/\/+$/, ''),
  };
}
