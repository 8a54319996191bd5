"""The miner's packing tool: float weights (train.py's output) -> the packed ternary artifact."""
import os
import sys

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))

import packing  # noqa: E402

if __name__ == "__main__":
    packing.pack_main("ternary", __doc__)
