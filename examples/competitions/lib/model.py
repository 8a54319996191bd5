"""The architecture every pack's benchmark owns: a tiny neural trigram model.

The two previous symbols' embeddings are concatenated, go through one tanh layer and a linear read-out
to next-symbol logits: h = tanh([E[a], E[b]] @ W1), logits = h @ W2. No biases, so every parameter is a
weight of one of the three matrices below and every matrix splits into whole groups of 128.
"""
import numpy as np

from corpus import VOCAB

EMBED = 16
HIDDEN = 192
SHAPES = {"emb": (VOCAB, EMBED), "w1": (2 * EMBED, HIDDEN), "w2": (HIDDEN, VOCAB)}
NAMES = tuple(SHAPES)


def parameter_count():
    return sum(int(np.prod(shape)) for shape in SHAPES.values())


def contexts(rows):
    """(a, b, target) index arrays over every position of every row; a row starts in the context (0, 0)."""
    a, b, c = [], [], []
    for row in rows:
        padded = np.concatenate([[0, 0], np.asarray(row, dtype=np.int64)])
        a.append(padded[:-2])
        b.append(padded[1:-1])
        c.append(padded[2:])
    return np.concatenate(a), np.concatenate(b), np.concatenate(c)


def _forward(weights, a, b):
    x = np.concatenate([weights["emb"][a], weights["emb"][b]], axis=1)
    h = np.tanh(x @ weights["w1"])
    logits = h @ weights["w2"]
    return x, h, logits


def _log_softmax(logits):
    shifted = logits - logits.max(axis=1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))


def mean_nll(weights, rows, batch=8192):
    """Mean negative log-likelihood in nats per symbol (its exp is the perplexity)."""
    a, b, c = contexts(rows)
    total = 0.0
    for start in range(0, len(c), batch):
        stop = start + batch
        target = c[start:stop]
        _, _, logits = _forward(weights, a[start:stop], b[start:stop])
        logp = _log_softmax(logits.astype(np.float64))
        total -= float(logp[np.arange(len(target)), target].sum())
    return total / len(c)


def init(seed):
    rng = np.random.default_rng(seed)
    return {
        "emb": rng.normal(0.0, 1.0, SHAPES["emb"]).astype(np.float32),
        "w1": rng.normal(0.0, 1.0 / np.sqrt(2 * EMBED), SHAPES["w1"]).astype(np.float32),
        "w2": rng.normal(0.0, 1.0 / np.sqrt(HIDDEN), SHAPES["w2"]).astype(np.float32),
    }


def train(rows, steps=400, batch=1024, lr=0.01, seed=0, log=None):
    """Adam on minibatches of positions; deterministic for a given seed."""
    weights = init(seed)
    a, b, c = contexts(rows)
    rng = np.random.default_rng(seed + 1)
    m = {k: np.zeros_like(v) for k, v in weights.items()}
    s = {k: np.zeros_like(v) for k, v in weights.items()}
    for step in range(1, steps + 1):
        pick = rng.integers(0, len(c), batch)
        ba, bb, bc = a[pick], b[pick], c[pick]
        x, h, logits = _forward(weights, ba, bb)
        probs = np.exp(_log_softmax(logits))
        probs[np.arange(batch), bc] -= 1.0
        dlogits = probs / batch
        grads = {"w2": h.T @ dlogits}
        dh = (dlogits @ weights["w2"].T) * (1.0 - h * h)
        grads["w1"] = x.T @ dh
        dx = dh @ weights["w1"].T
        demb = np.zeros_like(weights["emb"])
        np.add.at(demb, ba, dx[:, :EMBED])
        np.add.at(demb, bb, dx[:, EMBED:])
        grads["emb"] = demb
        for k in weights:
            m[k] = 0.9 * m[k] + 0.1 * grads[k]
            s[k] = 0.999 * s[k] + 0.001 * grads[k] * grads[k]
            mhat = m[k] / (1 - 0.9**step)
            shat = s[k] / (1 - 0.999**step)
            weights[k] = (weights[k] - lr * mhat / (np.sqrt(shat) + 1e-8)).astype(np.float32)
        if log is not None and step % 100 == 0:
            log(f"step {step}: train nll {mean_nll(weights, rows[:16]):.4f}")
    return weights
