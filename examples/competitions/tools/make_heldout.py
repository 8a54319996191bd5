"""The operator's tool (validator side, never the miner's): writes a held-out shard sampled from the source
with a secret seed, to upload with POST /api/v1/tasks/{task_id}/heldout and name in HELDOUT_URL."""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))

import corpus  # noqa: E402

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", required=True, help="the secret seed (keep it out of the repository)")
    parser.add_argument("--rows", type=int, default=corpus.HELDOUT_ROWS)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    if args.seed == corpus.TRAIN_SEED:
        raise SystemExit("the seed is the public training seed")
    corpus.write_shard(args.out, corpus.sample_rows(args.seed, args.rows))
    print(f"wrote {args.rows} rows to {args.out}")
