"""The miner's training script (the task's only editable path): trains on the public training shard and
writes float weights (.npz with emb, w1, w2); pack.py turns them into the artifact."""
import os
import sys

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))

import model  # noqa: E402
import training  # noqa: E402

if __name__ == "__main__":
    # The training is model.train: pass your own train(rows, steps, seed) -> weights to do better.
    training.run(__doc__, "weights.npz", model.train)
