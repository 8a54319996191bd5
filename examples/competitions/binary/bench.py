"""The binary benchmark (standard): loads the packed artifact, validates it against the architecture it owns,
counts the parameters, and holds it to the task's hard eligibility: compressed size (from the packed layout)
at most the budget of 90 % binary + 10 % scaled 4-bit, rescue at most 10 %, and held-out perplexity at most
the quality floor MAX_HELDOUT_PPL of the validator's environment. Writes heldout_ppl (minimize) and
compressed_bytes to result.json."""
import math
import os
import sys

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))

import benchmark  # noqa: E402
import model  # noqa: E402
import packing  # noqa: E402


def quality_floor():
    raw = os.environ.get("MAX_HELDOUT_PPL", "")
    try:
        floor = float(raw)
    except ValueError:
        floor = math.nan
    if not math.isfinite(floor) or floor <= 1:
        raise benchmark.Refusal("the validator's environment sets no usable quality floor MAX_HELDOUT_PPL (a perplexity above 1)")
    return floor


def score(artifact, rows):
    floor = quality_floor()
    packed = packing.load_packed(artifact, "binary")
    packing.check_rescue(packed)
    budget = packing.binary_budget_bytes(packed.parameter_count)
    if packed.compressed_bytes > budget:
        raise packing.ArtifactError(
            f"the packed model is {packed.compressed_bytes} bytes, over the budget of {budget} bytes "
            f"(90 % binary + 10 % scaled 4-bit for {packed.parameter_count} parameters)"
        )
    ppl = math.exp(model.mean_nll(packed.weights, rows))
    if ppl > floor:
        raise packing.ArtifactError(f"the held-out perplexity {ppl:.4f} is above the task's quality floor of {floor:g}")
    return {
        "heldout_ppl": ppl,
        "compressed_bytes": packed.compressed_bytes,
        "parameter_count": packed.parameter_count,
        "rescue_fraction": packed.rescue_fraction,
        "budget_bytes": budget,
    }


if __name__ == "__main__":
    benchmark.run(__doc__, score)
