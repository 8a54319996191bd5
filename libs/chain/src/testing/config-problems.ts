import { ChainConfigError } from '../errors';

/** The problems a configuration parser lists when it refuses its input; none when it accepts. */
export function configProblemsOf(parse: () => unknown): string[] {
  try {
    parse();
  } catch (error) {
    if (error instanceof ChainConfigError) return error.problems;
    throw error;
  }
  return [];
}
