"""The documented stochastic source of every pack's text (see README.md, "The corpus").

A second-order Markov chain over a 32-symbol alphabet: the next symbol c after the context (a, b) is drawn
with probability proportional to exp(U[b, c] + V[a, c]), where U and V are Gaussian tables drawn once from
SOURCE_SEED (public: the source is part of the task, as a language is). Every row starts in the context
(space, space) and has ROW_TOKENS symbols. Shards differ only in the seed their rows are sampled with: the
training shard's seed is public, a held-out shard's seed is the validator's secret.
"""
import hashlib

import numpy as np

ALPHABET = " abcdefghijklmnopqrstuvwxyz.,;!?"
VOCAB = len(ALPHABET)
SOURCE_SEED = 2311
ROW_TOKENS = 256
TRAIN_SEED = "train-0"
TRAIN_ROWS = 160
HELDOUT_ROWS = 80
_INDEX = {symbol: i for i, symbol in enumerate(ALPHABET)}


def _source_tables():
    rng = np.random.default_rng(SOURCE_SEED)
    u = rng.normal(0.0, 2.0, size=(VOCAB, VOCAB))
    v = rng.normal(0.0, 1.0, size=(VOCAB, VOCAB))
    return u, v


def transition_probabilities():
    """P[a, b, c] = probability of c after the context (a, b)."""
    u, v = _source_tables()
    logits = u[None, :, :] + v[:, None, :]
    logits -= logits.max(axis=2, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=2, keepdims=True)


def _seed_int(seed):
    return int.from_bytes(hashlib.sha256(str(seed).encode("utf-8")).digest()[:8], "big")


def sample_rows(seed, rows, length=ROW_TOKENS):
    """`rows` rows of `length` symbol ids, sampled from the source with `seed` (any string)."""
    p = transition_probabilities()
    cumulative = np.cumsum(p, axis=2)
    rng = np.random.default_rng(_seed_int(seed))
    draws = rng.random((rows, length))
    out = np.zeros((rows, length), dtype=np.int64)
    a = np.zeros(rows, dtype=np.int64)
    b = np.zeros(rows, dtype=np.int64)
    for t in range(length):
        c = (cumulative[a, b] < draws[:, t, None]).sum(axis=1)
        c = np.minimum(c, VOCAB - 1)
        out[:, t] = c
        a, b = b, c
    return out


def train_rows():
    """The public training shard."""
    return sample_rows(TRAIN_SEED, TRAIN_ROWS)


def encode(text_rows):
    return [np.array([_INDEX[ch] for ch in row], dtype=np.int64) for row in text_rows]


def decode(rows):
    return ["".join(ALPHABET[i] for i in row) for row in rows]


class CorpusError(Exception):
    pass


def read_shard(path):
    """Rows of a shard file: UTF-8 text, one row per line, symbols of ALPHABET only."""
    try:
        with open(path, "r", encoding="utf-8") as handle:
            lines = [line.rstrip("\n") for line in handle]
    except (OSError, UnicodeDecodeError) as error:
        raise CorpusError(f"the held-out shard could not be read ({error.__class__.__name__})") from None
    rows = [line for line in lines if line != ""]
    if not rows:
        raise CorpusError("the held-out shard holds no rows")
    for number, row in enumerate(rows, start=1):
        stray = set(row) - set(ALPHABET)
        if stray:
            raise CorpusError(f"row {number} of the held-out shard has symbols outside the task's alphabet")
    return encode(rows)


def write_shard(path, rows):
    with open(path, "w", encoding="utf-8") as handle:
        for row in decode(rows):
            handle.write(row + "\n")
