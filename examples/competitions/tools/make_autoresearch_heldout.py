"""The operator's tool (validator side, never the miner's): writes a private held-out shard in BitSota's manifest
format, a tar holding manifest.json and one UTF-8 row file per document, sampled from the source with a secret seed,
to upload with POST /api/v1/tasks/{task_id}/heldout and name with AUTORESEARCH_PRIVATE_HELDOUT_SHARD=coordinator."""
import argparse
import hashlib
import io
import json
import os
import sys
import tarfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))

import corpus  # noqa: E402


def add(archive, name, data):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mode = 0o644
    archive.addfile(info, io.BytesIO(data))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", required=True, help="the secret seed (keep it out of the repository)")
    parser.add_argument("--rows", type=int, default=corpus.HELDOUT_ROWS * 2)
    parser.add_argument("--out", required=True)
    parser.add_argument("--stray", action="store_true", help="a broken shard for tests: every row starts with a symbol outside the alphabet")
    args = parser.parse_args()
    if args.seed == corpus.TRAIN_SEED:
        raise SystemExit("the seed is the public training seed")
    rows = corpus.decode(corpus.sample_rows(args.seed, args.rows))
    if args.stray:
        rows = ["#" + row[1:] for row in rows]
    entries = []
    with tarfile.open(args.out, "w", format=tarfile.USTAR_FORMAT) as archive:
        for number, row in enumerate(rows):
            data = (row + "\n").encode("utf-8")
            add(archive, f"rows/{number}.txt", data)
            entries.append({"path": f"rows/{number}.txt", "sha256": hashlib.sha256(data).hexdigest(), "dataset": "markov-source"})
        add(archive, "manifest.json", json.dumps({"datasets": {"markov-source": entries}}, indent=1).encode("utf-8"))
    print(f"wrote {args.rows} documents to {args.out}")
