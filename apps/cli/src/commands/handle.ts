import type { CommandContext, GlobalArgs } from '../context';

/** Wraps a command body: yargs hands it the parsed arguments, the body gets a context built from them. */
export type Handle = <A extends GlobalArgs>(body: (ctx: CommandContext, args: A) => Promise<void>) => (args: A) => Promise<void>;
