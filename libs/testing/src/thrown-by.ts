/** The error of class `type` that `run` throws, or undefined when it returns; any other throw propagates. */
export function thrownBy<E extends Error>(type: abstract new (...args: never[]) => E, run: () => unknown): E | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof type) return error;
    throw error;
  }
  return undefined;
}
