"""What every pack's train.py shares: the command line, the public training rows, and how the trained
weights are saved and reported. The training itself stays in each pack's train.py, the miner's patch target."""
import argparse

import corpus
import model
import packing


def run(description, default_out, train):
    """Parses --out, --steps and --seed, calls train(rows, steps, seed) -> weights on the public training rows,
    saves the weights to --out and prints their training NLL."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--out", default=default_out)
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rows = corpus.train_rows()
    weights = train(rows, steps=args.steps, seed=args.seed)
    packing.save(args.out, weights)
    print(f"train_nll={model.mean_nll(weights, rows):.4f}")
    print(f"wrote {args.out}")
