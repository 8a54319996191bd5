"""The heldout-ppl benchmark: loads the float model artifact, checks it against the architecture and
writes heldout_ppl (minimize) on the validator's held-out rows to result.json."""
import math
import os
import sys

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))

import benchmark  # noqa: E402
import model  # noqa: E402
import packing  # noqa: E402


def score(artifact, rows):
    weights = packing.load_float(artifact)
    return {"heldout_ppl": math.exp(model.mean_nll(weights, rows)), "parameter_count": model.parameter_count()}


if __name__ == "__main__":
    benchmark.run(__doc__, score)
