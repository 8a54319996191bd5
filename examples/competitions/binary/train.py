"""The miner's training script (the task's only editable path): trains on the public training shard and
writes float weights (.npz with emb, w1, w2); pack.py turns them into the artifact."""
import argparse
import os
import sys

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))

import corpus  # noqa: E402
import model  # noqa: E402
import packing  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default="weights.npz")
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rows = corpus.train_rows()
    weights = model.train(rows, steps=args.steps, seed=args.seed)
    packing.save(args.out, weights)
    print(f"train_nll={model.mean_nll(weights, rows):.4f}")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
