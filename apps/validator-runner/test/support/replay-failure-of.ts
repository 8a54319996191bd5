import { ReplayFailure } from '../../src/replay/replay-failure';

/** The ReplayFailure `promise` rejects with; fails the test when it resolves or rejects with anything else. */
export async function replayFailureOf(promise: Promise<unknown>): Promise<ReplayFailure> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ReplayFailure);
  return error as ReplayFailure;
}
