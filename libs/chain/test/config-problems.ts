import { ChainConfigError } from '../src/errors';

/** The problems the ChainConfigError thrown by `read` lists; none when it reads cleanly. */
export function configProblems(read: () => unknown): string[] {
  try {
    read();
  } catch (error) {
    if (error instanceof ChainConfigError) return error.problems;
    throw error;
  }
  return [];
}
