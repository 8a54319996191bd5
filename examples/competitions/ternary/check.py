"""The ternary task's setup command: the artifact's eligibility (loads and validates the packed layout, enforces the
10 % cap on 4-bit rescue) before the benchmark, with no held-out data, so an ineligible artifact's sentence is public."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))

import benchmark  # noqa: E402
import packing  # noqa: E402


def validate(artifact):
    packing.check_rescue(packing.load_packed(artifact, "ternary"))


if __name__ == "__main__":
    benchmark.check(__doc__, validate)
