"""What every pack's bench.py shares: where the artifact and the held-out rows come from, and how the
result (or the one sentence saying why there is none) is written."""
import argparse
import json
import math
import os
import sys

import heldout
import packing


class Refusal(Exception):
    """The benchmark cannot score this submission; the message is one sentence for the miner."""


def run(description, score):
    """Parses the common arguments, calls score(artifact_path, heldout_rows) -> metrics and writes the result.

    The result file always exists afterwards: the metrics on success, {"error": sentence} otherwise (with
    exit status 2 and the sentence on stderr)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--artifact", default=os.environ.get("ARTIFACT_PATH", ""), help="the artifact (default: $ARTIFACT_PATH, set by the validator runner)")
    parser.add_argument("--result", default="result.json", help="where the result JSON goes (default: result.json)")
    args = parser.parse_args()
    try:
        rows, source = heldout.heldout_rows()
        if args.artifact == "":
            raise Refusal("no artifact: this task scores an uploaded artifact (artifact_uri, artifact_sha256, artifact_size_bytes), and the validator gave none")
        if not os.path.isfile(args.artifact):
            raise Refusal(f"the artifact {args.artifact} does not exist")
        metrics = score(args.artifact, rows)
        for name, value in metrics.items():
            if not math.isfinite(value):
                raise packing.ArtifactError(f"the model's {name} is not finite")
    except (Refusal, heldout.HeldoutError, packing.ArtifactError) as error:
        sentence = f"Ineligible: {error}." if isinstance(error, packing.ArtifactError) else f"Refused: {error}."
        write(args.result, {"error": sentence})
        print(sentence, file=sys.stderr)
        sys.exit(2)
    metrics["heldout_source"] = source
    write(args.result, metrics)
    for name, value in metrics.items():
        print(f"{name}={value}")


def write(path, value):
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(value, handle, indent=2, sort_keys=True)
        handle.write("\n")


def check(description, validate):
    """The eligibility check a pack runs as its setup command (DECISIONS §6): validate(artifact_path) raises
    packing.ArtifactError for an ineligible artifact. Setup never sees held-out data, so its sentence may be
    public: it prints `validator_rejection=<code> <sentence>` on stderr and exits 1, which the validator runner
    posts as `rejected` with the note `ineligible (<code>): <sentence>`."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--artifact", default=os.environ.get("ARTIFACT_PATH", ""), help="the artifact (default: $ARTIFACT_PATH, set by the validator runner)")
    args = parser.parse_args()
    try:
        if args.artifact == "" or not os.path.isfile(args.artifact):
            raise Refusal("no artifact: this task scores an uploaded artifact (artifact_uri, artifact_sha256, artifact_size_bytes)")
        validate(args.artifact)
    except Refusal as refusal:
        print(f"validator_rejection=no_artifact Refused: {refusal}.", file=sys.stderr)
        sys.exit(1)
    except packing.ArtifactError as error:
        code = "rescue_over_cap" if isinstance(error, packing.RescueError) else "invalid_artifact"
        print(f"validator_rejection={code} Ineligible: {error}.", file=sys.stderr)
        sys.exit(1)
    print("eligible")
