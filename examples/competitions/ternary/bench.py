"""The ternary benchmark (centerless): loads the packed artifact, validates it against the architecture it
owns, counts the parameters, computes the compressed size from the packed layout, enforces the 10 % cap on
4-bit rescue, and writes heldout_ppl (minimize) and compressed_bytes (secondary, minimize) to result.json."""
import math
import os
import sys

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))

import benchmark  # noqa: E402
import model  # noqa: E402
import packing  # noqa: E402


def score(artifact, rows):
    packed = packing.load_packed(artifact, "ternary")
    packing.check_rescue(packed)
    return {
        "heldout_ppl": math.exp(model.mean_nll(packed.weights, rows)),
        "compressed_bytes": packed.compressed_bytes,
        "parameter_count": packed.parameter_count,
        "rescue_fraction": packed.rescue_fraction,
    }


if __name__ == "__main__":
    benchmark.run(__doc__, score)
