"""Artifacts: the float model (heldout-ppl) and the packed low-bit model (ternary, binary).

Packed layout (an .npz file, loaded with allow_pickle=False), for each weight matrix T of model.SHAPES,
flattened row-major and cut into groups of GROUP=128 consecutive weights:
  T.rescue_groups  integers, sorted and distinct: the groups kept as scaled 4-bit "rescue" codes
  T.rescue_codes   uint8, 64 bytes per rescue group: two 4-bit codes per byte (low nibble first), q - 8 in [-8, 7]
  T.rescue_scales  float16, one per rescue group: weight = (q - 8) * scale
  T.scale_group    integer S >= 1: the other weights, in order, share one scale per S of them
  T.codes          uint8: the other weights' codes, ternary 2 bits each (0 -> 0, 1 -> +1, 2 -> -1; 3 is
                   invalid) or binary 1 bit each (1 -> +1, 0 -> -1), least significant bits first
  T.scales         float16, ceil(m / S) for the m other weights: weight = code * scale
and `format` = "ternary-v1" or "binary-v1". Every array must have exactly the length the layout says, so
the compressed size follows from the layout, never from the file:
  compressed_bytes = sum over T of len(codes) + 2 len(scales) + len(rescue_codes) + 2 len(rescue_scales)
                     + ceil(groups / 8) (the rescue bitmap) + 4 (the scale group)
"""
import math
import zipfile

import numpy as np

import model

GROUP = 128
MAX_RESCUE_FRACTION = 0.10
BITS = {"ternary": 2, "binary": 1}


class ArtifactError(Exception):
    """An ineligible artifact; its message is one sentence a miner can act on."""


MAX_MEMBER_BYTES = 1 << 20


def _load_npz(path):
    # A compressed member can unpack to far more than the downloaded bytes: sizes are checked before reading.
    try:
        with zipfile.ZipFile(path) as archive:
            for info in archive.infolist():
                if info.file_size > MAX_MEMBER_BYTES:
                    raise ArtifactError(f"the artifact's member {info.filename!r} unpacks to {info.file_size} bytes, more than the {MAX_MEMBER_BYTES} this architecture can need")
    except (OSError, zipfile.BadZipFile) as error:
        raise ArtifactError(f"the artifact is not a loadable .npz file ({error.__class__.__name__}: {error})") from None
    try:
        with np.load(path, allow_pickle=False) as data:
            return {key: data[key] for key in data.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
        raise ArtifactError(f"the artifact is not a loadable .npz file ({error.__class__.__name__}: {error})") from None


def save(path, arrays):
    with open(path, "wb") as handle:
        np.savez(handle, **arrays)


# --- float model -------------------------------------------------------------------------------------------


def load_float(path):
    data = _load_npz(path)
    weights = {}
    for name, shape in model.SHAPES.items():
        if name not in data:
            raise ArtifactError(f"the artifact has no array {name!r} (expected {', '.join(model.NAMES)})")
        array = data[name]
        if tuple(array.shape) != shape:
            raise ArtifactError(f"array {name!r} has shape {tuple(array.shape)}, the architecture needs {shape}")
        if array.dtype not in (np.float16, np.float32, np.float64):
            raise ArtifactError(f"array {name!r} is {array.dtype}, not floating point")
        if not np.all(np.isfinite(array)):
            raise ArtifactError(f"array {name!r} holds non-finite values")
        weights[name] = array.astype(np.float32)
    extra = sorted(set(data) - set(model.NAMES))
    if extra:
        raise ArtifactError(f"the artifact has arrays the architecture does not know: {', '.join(extra)}")
    return weights


# --- quantizers --------------------------------------------------------------------------------------------


def _low_bit(values, kind):
    """Codes and the scale of one scale group."""
    magnitude = np.abs(values)
    if kind == "binary":
        codes = np.where(values >= 0, 1, -1).astype(np.int8)
        return codes, float(magnitude.mean()) if values.size else 0.0
    threshold = 0.7 * float(magnitude.mean()) if values.size else 0.0
    codes = (np.sign(values) * (magnitude > threshold)).astype(np.int8)
    kept = magnitude[codes != 0]
    return codes, float(kept.mean()) if kept.size else 0.0


def _low_bit_all(values, kind, scale_group):
    codes = np.zeros(values.size, dtype=np.int8)
    scales = np.zeros(math.ceil(values.size / scale_group), dtype=np.float16)
    for i in range(scales.size):
        part = slice(i * scale_group, (i + 1) * scale_group)
        codes[part], scale = _low_bit(values[part], kind)
        scales[i] = scale
    return codes, scales


def _four_bit(values):
    scale = np.float16(np.abs(values).max() / 7.0 if values.size else 0.0)
    q = np.zeros(values.size, dtype=np.int64) if scale == 0 else np.clip(np.round(values / np.float32(scale)), -8, 7).astype(np.int64)
    return q, scale


def _pack_bits(codes, kind):
    if kind == "binary":
        return np.packbits((codes > 0).astype(np.uint8), bitorder="little")
    two_bit = np.where(codes > 0, 1, np.where(codes < 0, 2, 0)).astype(np.uint8)
    padded = np.zeros(math.ceil(two_bit.size / 4) * 4, dtype=np.uint8)
    padded[: two_bit.size] = two_bit
    quads = padded.reshape(-1, 4)
    return (quads[:, 0] | (quads[:, 1] << 2) | (quads[:, 2] << 4) | (quads[:, 3] << 6)).astype(np.uint8)


def _unpack_bits(packed, count, kind):
    if kind == "binary":
        bits = np.unpackbits(packed, bitorder="little")[:count]
        return np.where(bits == 1, 1, -1).astype(np.int8)
    two_bit = np.stack([(packed >> shift) & 3 for shift in (0, 2, 4, 6)], axis=1).reshape(-1)[:count]
    if np.any(two_bit == 3):
        raise ArtifactError("the ternary codes hold the invalid 2-bit value 3")
    return np.where(two_bit == 1, 1, np.where(two_bit == 2, -1, 0)).astype(np.int8)


def _pack_nibbles(q):
    nibbles = (q + 8).astype(np.uint8)
    return (nibbles[0::2] | (nibbles[1::2] << 4)).astype(np.uint8)


def _unpack_nibbles(packed):
    out = np.empty(packed.size * 2, dtype=np.int64)
    out[0::2] = packed & 15
    out[1::2] = packed >> 4
    return out - 8


# --- packing (the miner's tool) ----------------------------------------------------------------------------


def pack(weights, kind, rescue_fraction=0.0, scale_group=GROUP):
    """The packed artifact of float `weights`: the floor(rescue_fraction x groups) groups the low-bit code
    fits worst are kept as scaled 4-bit codes, the rest share one fp16 scale per `scale_group` weights."""
    if kind not in BITS:
        raise ValueError(f"kind must be one of {sorted(BITS)}")
    flat = {name: np.asarray(weights[name], dtype=np.float32).reshape(-1) for name in model.NAMES}
    errors = []
    for name in model.NAMES:
        groups = flat[name].reshape(-1, GROUP)
        for g, values in enumerate(groups):
            codes, scale = _low_bit(values, kind)
            errors.append((float(((values - codes * scale) ** 2).sum()), name, g))
    total_groups = len(errors)
    rescue_count = int(math.floor(rescue_fraction * total_groups + 1e-9))
    rescued = {name: [] for name in model.NAMES}
    for _, name, g in sorted(errors, reverse=True)[:rescue_count]:
        rescued[name].append(g)
    arrays = {"format": np.array(f"{kind}-v1")}
    for name in model.NAMES:
        groups = flat[name].reshape(-1, GROUP)
        chosen = sorted(rescued[name])
        keep = np.ones(groups.shape[0], dtype=bool)
        keep[chosen] = False
        rescue_q, rescue_scales = [], []
        for g in chosen:
            q, scale = _four_bit(groups[g])
            rescue_q.append(q)
            rescue_scales.append(scale)
        codes, scales = _low_bit_all(groups[keep].reshape(-1), kind, scale_group)
        arrays[f"{name}.rescue_groups"] = np.array(chosen, dtype=np.int32)
        arrays[f"{name}.rescue_codes"] = _pack_nibbles(np.concatenate(rescue_q)) if chosen else np.zeros(0, dtype=np.uint8)
        arrays[f"{name}.rescue_scales"] = np.array(rescue_scales, dtype=np.float16)
        arrays[f"{name}.scale_group"] = np.array(scale_group, dtype=np.int64)
        arrays[f"{name}.codes"] = _pack_bits(codes, kind)
        arrays[f"{name}.scales"] = scales
    return arrays


# --- loading (the benchmark's side) ------------------------------------------------------------------------


class Packed:
    """A packed artifact the benchmark validated against the architecture."""

    def __init__(self, weights, parameter_count, rescued_weights, compressed_bytes):
        self.weights = weights
        self.parameter_count = parameter_count
        self.rescued_weights = rescued_weights
        self.compressed_bytes = compressed_bytes

    @property
    def rescue_fraction(self):
        return self.rescued_weights / self.parameter_count


def _array(data, key, kinds, length=None):
    if key not in data:
        raise ArtifactError(f"the artifact has no array {key!r}")
    array = data[key]
    if array.dtype.kind not in kinds:
        raise ArtifactError(f"array {key!r} is {array.dtype}, the layout needs {kinds_name(kinds)}")
    if length is not None and (array.ndim != 1 or array.size != length):
        raise ArtifactError(f"array {key!r} has shape {tuple(array.shape)}, the layout needs ({length},)")
    return array


def kinds_name(kinds):
    return {"u": "unsigned integers", "f": "float16", "iu": "integers"}.get(kinds, kinds)


def load_packed(path, kind):
    data = _load_npz(path)
    expected = f"{kind}-v1"
    found = str(data["format"]) if "format" in data and data["format"].dtype.kind == "U" else None
    if found != expected:
        raise ArtifactError(f"the artifact's format is {found!r}, this task takes {expected!r}")
    known = {"format"} | {f"{n}.{f}" for n in model.NAMES for f in ("rescue_groups", "rescue_codes", "rescue_scales", "scale_group", "codes", "scales")}
    extra = sorted(set(data) - known)
    if extra:
        raise ArtifactError(f"the artifact has arrays the layout does not know: {', '.join(extra)}")
    weights, rescued_total, size = {}, 0, 0
    for name, shape in model.SHAPES.items():
        count = int(np.prod(shape))
        groups = count // GROUP
        chosen = _array(data, f"{name}.rescue_groups", "iu").astype(np.int64)
        if chosen.ndim != 1 or np.any(np.diff(chosen) <= 0) or (chosen.size and (chosen[0] < 0 or chosen[-1] >= groups)):
            raise ArtifactError(f"{name}.rescue_groups must be distinct, sorted group numbers in [0, {groups})")
        k = int(chosen.size)
        rescue_codes = _array(data, f"{name}.rescue_codes", "u", 64 * k)
        rescue_scales = _array(data, f"{name}.rescue_scales", "f", k)
        scale_group_array = _array(data, f"{name}.scale_group", "iu")
        if scale_group_array.shape != () or int(scale_group_array) < 1:
            raise ArtifactError(f"{name}.scale_group must be one integer of at least 1")
        scale_group = int(scale_group_array)
        m = count - GROUP * k
        codes = _array(data, f"{name}.codes", "u", math.ceil(m * BITS[kind] / 8))
        scales = _array(data, f"{name}.scales", "f", math.ceil(m / scale_group))
        if rescue_scales.dtype != np.float16 or scales.dtype != np.float16:
            raise ArtifactError(f"the scales of {name!r} must be float16")
        if codes.dtype != np.uint8 or rescue_codes.dtype != np.uint8:
            raise ArtifactError(f"the codes of {name!r} must be uint8")
        if not (np.all(np.isfinite(scales)) and np.all(np.isfinite(rescue_scales))):
            raise ArtifactError(f"the scales of {name!r} hold non-finite values")
        low = _unpack_bits(codes, m, kind).astype(np.float32)
        low *= scales.astype(np.float32)[np.arange(m) // scale_group]
        flat = np.empty(count, dtype=np.float32).reshape(-1, GROUP)
        keep = np.ones(groups, dtype=bool)
        keep[chosen] = False
        flat[keep] = low.reshape(-1, GROUP)
        if k:
            flat[~keep] = (_unpack_nibbles(rescue_codes).reshape(k, GROUP) * rescue_scales.astype(np.float32)[:, None]).astype(np.float32)
        weights[name] = flat.reshape(shape)
        rescued_total += GROUP * k
        size += codes.size + 2 * scales.size + rescue_codes.size + 2 * rescue_scales.size + math.ceil(groups / 8) + 4
    return Packed(weights, model.parameter_count(), rescued_total, size)


def binary_budget_bytes(parameter_count):
    """The budget of the binary task: the layout's size when 90 % of the weights are binary codes with one fp16
    scale per 128 and 10 % (whole groups, rounded down) are scaled 4-bit rescue groups."""
    rescue_groups = int(math.floor(MAX_RESCUE_FRACTION * parameter_count / GROUP))
    binary = parameter_count - GROUP * rescue_groups
    overhead = sum(math.ceil(int(np.prod(shape)) // GROUP / 8) + 4 for shape in model.SHAPES.values())
    return math.ceil(binary / 8) + 2 * math.ceil(binary / GROUP) + 66 * rescue_groups + overhead


class RescueError(ArtifactError):
    """More 4-bit rescue than the cap allows."""


def check_rescue(packed):
    if packed.rescued_weights > MAX_RESCUE_FRACTION * packed.parameter_count:
        raise RescueError(
            f"{packed.rescued_weights} of {packed.parameter_count} weights ({100 * packed.rescue_fraction:.1f} %) are 4-bit rescue, "
            f"over the cap of {100 * MAX_RESCUE_FRACTION:.0f} %"
        )


def pack_main(kind, description):
    import argparse

    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--weights", default="weights.npz", help="float weights, as train.py writes them")
    parser.add_argument("--out", default="model.npz")
    parser.add_argument("--rescue-fraction", type=float, default=0.0, help="share of weights kept as scaled 4-bit (groups of 128, rounded down)")
    parser.add_argument("--scale-group", type=int, default=GROUP, help="weights per fp16 scale of the low-bit codes")
    args = parser.parse_args()
    arrays = pack(load_float(args.weights), kind, args.rescue_fraction, args.scale_group)
    save(args.out, arrays)
    packed = load_packed(args.out, kind)
    print(f"compressed_bytes={packed.compressed_bytes}")
    print(f"rescue_fraction={packed.rescue_fraction:.4f}")
    print(f"wrote {args.out}")
