"""Where a benchmark gets its held-out rows: only from the validator's environment, never from the repository.

- HELDOUT_PATH: a shard file the validator runner prefetched on the host from the task's private
  HELDOUT_URL (validator_benchmark_env); the sandbox sees only this local path.
- HELDOUT_SEED: a secret seed (a plain validator_benchmark_env value); the benchmark samples
  corpus.HELDOUT_ROWS rows from the source with it.
"""
import os

import corpus


class HeldoutError(Exception):
    pass


def heldout_rows(environ=os.environ):
    path = environ.get("HELDOUT_PATH", "")
    seed = environ.get("HELDOUT_SEED", "")
    if path != "":
        try:
            return corpus.read_shard(path), "HELDOUT_PATH"
        except corpus.CorpusError as error:
            raise HeldoutError(str(error)) from None
    if seed != "":
        if seed == corpus.TRAIN_SEED:
            raise HeldoutError("HELDOUT_SEED is the public training seed, so it holds nothing out")
        return corpus.sample_rows(seed, corpus.HELDOUT_ROWS), "HELDOUT_SEED"
    raise HeldoutError(
        "no held-out source: the validator's environment sets neither HELDOUT_URL (prefetched as HELDOUT_PATH) "
        "nor HELDOUT_SEED, and the benchmark never scores against data in the repository"
    )
