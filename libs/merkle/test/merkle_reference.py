#!/usr/bin/env python3
"""Independent reference for the claim Merkle tree of DECISIONS §8, sharing no code with libs/merkle.

Reads one JSON document on stdin, {"cases": [case, ...]}, each case
  {"leaves": [{"epoch", "index", "hotkey" (0x hex, 32 bytes), "recipient" (same), "amount" (decimal)}],
   "checks": [{"leaf": {...same fields...}, "leaf_count", "proof": [0x hex], "root": 0x hex}]}
and writes {"cases": [answer, ...]}, each answer
  {"leaf_bytes": [...], "leaf_hashes": [...], "root": ..., "paths": [[...] per leaf], "verified": [bool per check]}

Leaf = SCALE ClaimData without proof: epoch u64 LE | index u32 LE | hotkey 32 | recipient 32 | amount u64 LE.
Tree = RFC 9162 with BLAKE2b-256: leaf H(0x00|leaf), node H(0x01|left|right), split at the largest
power of two below n. Written recursively, straight from the RFC's definitions.
"""
import hashlib
import json
import struct
import sys


def h(data):
    return hashlib.blake2b(data, digest_size=32).digest()


def unhex(text, length=None):
    if not text.startswith("0x"):
        raise ValueError("hex must start with 0x")
    raw = bytes.fromhex(text[2:])
    if length is not None and len(raw) != length:
        raise ValueError("expected %d bytes" % length)
    return raw


def leaf_bytes(leaf):
    return (
        struct.pack("<Q", int(leaf["epoch"]))
        + struct.pack("<I", int(leaf["index"]))
        + unhex(leaf["hotkey"], 32)
        + unhex(leaf["recipient"], 32)
        + struct.pack("<Q", int(leaf["amount"]))
    )


def split(n):
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def mth(hashed):
    """MTH over already hashed leaves (RFC 9162 section 2.1.1)."""
    n = len(hashed)
    if n == 0:
        return h(b"")
    if n == 1:
        return hashed[0]
    k = split(n)
    return h(b"\x01" + mth(hashed[:k]) + mth(hashed[k:]))


def path(m, hashed):
    """PATH(m, D[n]) (RFC 9162 section 2.1.3.1), leaf level first."""
    n = len(hashed)
    if n <= 1:
        return []
    k = split(n)
    if m < k:
        return path(m, hashed[:k]) + [mth(hashed[k:])]
    return path(m - k, hashed[k:]) + [mth(hashed[:k])]


def root_from_path(m, n, leaf_hash, proof):
    """Rebuilds the root by the same recursion the tree is defined by; None when the proof does not fit."""
    if n == 1:
        return leaf_hash if not proof else None
    if not proof:
        return None
    k = split(n)
    last, rest = proof[-1], proof[:-1]
    if m < k:
        below = root_from_path(m, k, leaf_hash, rest)
        return None if below is None else h(b"\x01" + below + last)
    below = root_from_path(m - k, n - k, leaf_hash, rest)
    return None if below is None else h(b"\x01" + last + below)


def verify(check):
    try:
        leaf = check["leaf"]
        n = int(check["leaf_count"])
        m = int(leaf["index"])
        if not 0 <= m < n:
            return False
        proof = [unhex(p, 32) for p in check["proof"]]
        got = root_from_path(m, n, h(b"\x00" + leaf_bytes(leaf)), proof)
        return got is not None and got == unhex(check["root"], 32)
    except (ValueError, KeyError, struct.error):
        return False


def answer(doc):
    leaves = [leaf_bytes(leaf) for leaf in doc.get("leaves", [])]
    hashed = [h(b"\x00" + leaf) for leaf in leaves]
    out = {
        "leaf_bytes": ["0x" + leaf.hex() for leaf in leaves],
        "leaf_hashes": ["0x" + x.hex() for x in hashed],
        "root": "0x" + mth(hashed).hex(),
        "paths": [["0x" + p.hex() for p in path(i, hashed)] for i in range(len(hashed))],
        "verified": [verify(check) for check in doc.get("checks", [])],
    }
    return out


def main():
    doc = json.load(sys.stdin)
    json.dump({"cases": [answer(case) for case in doc["cases"]]}, sys.stdout)


if __name__ == "__main__":
    main()
