"""The ternary task spoken in BitSota's replay profile (DECISIONS §15), written from that text: the benchmark reads
only AUTORESEARCH_* variables and their manifest format, samples its documents from the rotation key, refuses an
ineligible artifact with a `validator_rejection=<code>` line on stderr and exit 1, and writes its result file only
on success, the metric under `metrics.heldout_ppl` as well as at the top level. Anything else it cannot do (no
artifact, no manifest, unreadable rows) ends with a traceback or a message and exit 1: a validator-side failure."""
import hashlib
import json
import math
import os
import sys

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))

import numpy as np  # noqa: E402

import corpus  # noqa: E402
import model  # noqa: E402
import packing  # noqa: E402

# Documents scored per replay, sampled from the shard by the rotation key.
SAMPLE = 48


class Refusal(Exception):
    """A verdict about the submission: its code and one sentence."""

    def __init__(self, code, sentence):
        super().__init__(sentence)
        self.code = code


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(1)


def documents(manifest_path, root):
    """Every document of their manifest format: a list of entries, or datasets/categories (selector -> entries) and documents."""
    with open(manifest_path, "r", encoding="utf-8") as handle:
        manifest = json.load(handle)
    groups = [manifest] if isinstance(manifest, list) else []
    if isinstance(manifest, dict):
        for key in ("datasets", "categories"):
            groups.extend((manifest.get(key) or {}).values())
        groups.append(manifest.get("documents") or [])
    texts = []
    for entries in groups:
        for entry in entries:
            if isinstance(entry, str):
                texts.append(entry)
            elif "text" in entry:
                texts.append(entry["text"])
            else:
                with open(os.path.join(root, entry.get("path") or entry["file"]), "r", encoding="utf-8") as handle:
                    texts.append(handle.read())
    return [text.strip("\n") for text in texts]


def rotation_key(environ):
    """Folds the validator's rotation pair into one key: every validator of the same slot draws the same documents."""
    text = f"{environ.get('AUTORESEARCH_HELDOUT_SYNC_SLOT', '')}:{environ.get('AUTORESEARCH_HELDOUT_SYNC_NUMBER', '')}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def sample(texts, key):
    if len(texts) <= SAMPLE:
        return texts
    chosen = np.random.default_rng(key).choice(len(texts), size=SAMPLE, replace=False)
    return [texts[i] for i in sorted(chosen)]


def score(artifact, rows):
    try:
        packed = packing.load_packed(artifact, "ternary")
    except packing.ArtifactError as error:
        raise Refusal("invalid_artifact", f"{error}.") from None
    if packed.rescue_fraction > packing.MAX_RESCUE_FRACTION:
        raise Refusal("high_precision_fraction", f"{packed.rescue_fraction:.1%} of the weights are 4-bit rescue, over the cap of {packing.MAX_RESCUE_FRACTION:.0%}.")
    # In float64: float32 BLAS results vary with alignment and threads by ~1e-8, and a replay must match a direct run to 1e-9.
    weights = {name: np.asarray(array, dtype=np.float64) for name, array in packed.weights.items()}
    return {"heldout_ppl": math.exp(model.mean_nll(weights, rows)), "compressed_bytes": packed.compressed_bytes}


def main(environ=os.environ):
    artifact = environ.get("AUTORESEARCH_SUBMISSION_ARTIFACT_PATH", "")
    if artifact == "":
        fail("AUTORESEARCH_SUBMISSION_ARTIFACT_PATH is required")
    manifest_path = environ.get("AUTORESEARCH_PRIVATE_HELDOUT_MANIFEST", "")
    if manifest_path == "" or not os.path.isfile(manifest_path):
        fail("validator-private heldout requires a local AUTORESEARCH_PRIVATE_HELDOUT_MANIFEST file")
    root = environ.get("AUTORESEARCH_PRIVATE_HELDOUT_ROOT", os.path.dirname(manifest_path))
    texts = sample(documents(manifest_path, root), rotation_key(environ))
    # Rows outside the task's alphabet are the validator's data, not the miner's: an uncaught error (a crash).
    rows = corpus.encode(texts)
    try:
        metrics = score(artifact, rows)
    except Refusal as refusal:
        print(f"validator_rejection={refusal.code} {refusal}", file=sys.stderr)
        sys.exit(1)
    with open("result.json", "w", encoding="utf-8") as handle:
        json.dump({**metrics, "metrics": metrics, "documents": len(texts)}, handle, indent=2, sort_keys=True)
        handle.write("\n")
    for name, value in metrics.items():
        print(f"{name}={value!r}")


if __name__ == "__main__":
    main()
