"""Keeping the highest (or lowest) k dice of a pool: its order statistics, face by face.

The faces are visited from the best to the worst; a state is how many dice of each kind lie on
the faces seen so far, with the distribution of their kept score (numpy arrays; a small pool of
one kind in plain Python).
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

import numpy as np

from .dist import Dist
from .work import NUMPY_CELLS, charge

FACE_STEPS = 500       # steps of the numpy operations per face and kind, besides their cells
PRODUCTS_PER_STEP = 200  # multiplications of a matrix product per step
SLICE_PRODUCTS = 1 << 18  # multiplications of one slice of a matrix product
INT_STEPS = 30         # steps of one operation on the counts of fair dice, besides its bits
BITS_PER_STEP = 2_000  # bits of packed counts per step
COUNTED_BITS = 10**6   # operations times bits of the counts up to which they are faster than numpy


def kept(groups: Sequence[tuple[Dist, int]], k: int, highest: bool,
         score: Callable[[int], int] | None) -> Dist:
    """The sum (or score) of the k highest/lowest dice of a pool of ``(die, count)`` kinds, 0 < k < dice."""
    pmfs = [d.pmf() for d, _ in groups]
    counts = [c for _, c in groups]
    values = sorted({v for pmf in pmfs for v in pmf}, reverse=highest)
    gains = [v if score is None else score(v) for v in values]
    low, high = min(gains), max(gains)
    width = (k - 1) * (high - low) + 1  # the scores of fewer than k dice, relative to the face's
    if len(groups) == 1 and _fair(groups[0][0]):
        n = counts[0]
        bits = k * (high - low + 1) * n * (len(values) + 1).bit_length()
        ops = len(values) * k * (k + 1) // 2
        if ops * bits <= COUNTED_BITS:
            charge(ops * (INT_STEPS + bits // BITS_PER_STEP) + len(values) * k * (n - k + 1))
            return Dist._owned(k * low, _counted(n, k, gains, low))
    charge(steps(pmfs, counts, k, width))
    faces = list(zip(gains, _shown(pmfs, values)))
    return Dist._owned(k * low, _many(counts, k, faces, low, width))


def _fair(d: Dist) -> bool:
    """Whether ``d`` is a fair die, faces 1..sides."""
    p = d._p
    return d.min == 1 and p.count(p[0]) == len(p) and p[0] == 1.0 / len(p)


def _shown(pmfs: list[dict[int, float]], values: list[int]) -> list[list[float]]:
    """Per face and kind, the chance that a die not placed yet (on this face or worse) shows it."""
    left = [0.0] * len(pmfs)  # per kind, the chance of the faces after this one
    out = []
    for v in reversed(values):
        row = []
        for g, pmf in enumerate(pmfs):
            p = pmf.get(v, 0.0)
            row.append(0.0 if not p else 1.0 if not left[g] else p / (p + left[g]))
            left[g] += p
        out.append(row)
    return out[::-1]


def steps(pmfs: list[dict[int, float]], counts: list[int], k: int, width: int) -> int:
    """The work of the numpy programme: per face and kind, a product of the states with the
    matrix of how many of its dice show the face, and a few operations on the states."""
    dims = [min(c, k - 1) + 1 for c in counts]
    grid = math.prod(dims)
    total = 0
    for pmf, c, d in zip(pmfs, counts, dims):
        products = grid * width * d  # the matrix product's multiplications
        cells = grid * width * 8 + 6 * d * (max(c, k) + 1)
        total += len(pmf) * (FACE_STEPS + products // PRODUCTS_PER_STEP + cells // (NUMPY_CELLS // 4))
    return total


def _binomial(c: int, d: int, shown: np.ndarray, cols: int) -> np.ndarray:
    """``B[f, j, m]``: the chance that m of c - j dice show face f, which each shows with ``shown[f]``."""
    r = (c - np.arange(d))[None, :, None]
    m = np.arange(cols)[None, None, :]
    ratios = np.maximum((r - m + 1) / np.maximum(m, 1), 0.0)
    ratios[..., 0] = 1.0
    comb = np.cumprod(ratios, axis=2)  # C(r, m), 0 for m > r
    p = shown[:, None, None]
    certain, never = p >= 1.0, p <= 0.0
    q = np.where(certain | never, 0.5, p)  # (a placeholder where every die or none shows the face)
    out = comb * np.exp(m * np.log(q) + np.maximum(r - m, 0) * np.log1p(-q))
    return np.where(certain, np.where(m == r, 1.0, 0.0), np.where(never, np.where(m == 0, 1.0, 0.0), out))


def _many(counts: list[int], k: int, faces: list[tuple[int, list[float]]], low: int, width: int) -> list[float]:
    """The programme over numpy arrays: ``states[j_1, …, j_g, u]`` for j_g dice of each kind placed,
    u = their score - J * gain + (k - 1) * (gain - low), J = j_1 + … + j_g, at the face of ``gain``
    (so that placing dice on the face moves a state along its kind's axis only)."""
    dims = [min(c, k - 1) + 1 for c in counts]
    placed = np.indices(dims).reshape(len(dims), -1)
    total = placed.sum(axis=0)
    size = total.size
    valid = np.where(total < k, 1.0, 0.0)[:, None]
    need = np.where(total < k, k - total, 0)
    gains = [gain for gain, _ in faces]
    final = np.zeros(k * (max(gains) - low) + 1)
    matrices, tails = [], []
    for g, (c, d) in enumerate(zip(counts, dims)):
        table = _binomial(c, d, np.array([shown[g] for _, shown in faces]), max(c, k) + 1)
        tails.append(np.cumsum(table[..., ::-1], axis=2)[..., ::-1][:, placed[g], need] * valid[:, 0])
        j = np.arange(d)
        step = j[:, None] - j[None, :]  # to row j' from column j
        matrices.append(np.where(step >= 0, table[:, j[None, :], np.maximum(step, 0)], 0.0))
    states = np.zeros((size, width))
    states[0, (k - 1) * (gains[0] - low)] = 1.0
    cells = np.arange(size * width).reshape(size, width)
    behind = (k - 1 - total)[:, None]
    moves = {}  # per change of the gain: where each cell's score comes from (size * width: nothing)
    padded = np.zeros(size * width + 1)
    for f, (gain, shown) in enumerate(faces):
        if f and gains[f - 1] != gain:  # the same scores, measured from the new face
            delta = gains[f - 1] - gain
            if delta not in moves:
                src = np.arange(width) + delta * behind
                moves[delta] = np.where((src >= 0) & (src < width), cells + delta * behind, size * width)
            padded[:-1] = states.ravel()
            states = padded[moves[delta]]
        for g, p in enumerate(shown):
            if not p:
                continue
            final[gain - low:gain - low + width] += tails[g][f] @ states
            states = _product(matrices[g][f], states.reshape(math.prod(dims[:g]), dims[g], -1))
            states = states.reshape(size, width) * valid
    chances: list[float] = final.tolist()
    return chances


def _product(matrix: np.ndarray, states: np.ndarray) -> np.ndarray:
    """``matrix @ states`` in slices of columns small enough for one thread of the BLAS (whose
    threads would spin on a busy machine, for the few products these are)."""
    d = matrix.shape[0]
    chunk = max(1, SLICE_PRODUCTS // (d * d))
    if states.shape[-1] <= chunk:
        whole: np.ndarray = np.matmul(matrix, states)
        return whole
    out = np.empty_like(states)
    for i in range(0, states.shape[-1], chunk):
        np.matmul(matrix, states[..., i:i + chunk], out=out[..., i:i + chunk])
    return out


def _counted(n: int, k: int, gains: list[int], low: int) -> list[float]:
    """The programme for n fair dice (faces in the order of ``gains``), in exact counts of outcomes:
    per number j of dice placed, a polynomial in the kept score packed into one integer (a field of
    ``bits`` per score, as ``exact._uniform_sum``); each probability is rounded once at the end."""
    sides = len(gains)
    bits = -(-(((sides + 1) ** n).bit_length() + 1) // 8) * 8
    combs = []  # combs[j][m]: C(n - j, m)
    for j in range(k):
        row = [1]
        for m in range(n - j):
            row.append(row[-1] * (n - j - m) // (m + 1))
        combs.append(row)
    states = [0] * k
    states[0] = 1
    final = 0
    for i, gain in enumerate(gains):
        worse = sides - 1 - i  # faces after this one
        shift = (gain - low) * bits
        nxt = [0] * k
        for j, count in enumerate(states):
            if not count:
                continue
            row = combs[j]
            for m in range(min(k - j, len(row))):
                nxt[j + m] += (count * row[m]) << (m * shift)
            if k - j < len(row):  # the ways at least k - j of them show this face, the rest worse
                ways = 0
                for c in row[k - j:]:
                    ways = ways * worse + c
                final += (count * ways) << ((k - j) * shift)
        states = nxt
    cells = k * (max(gains) - low) + 1
    step = bits // 8
    raw = final.to_bytes(cells * step, "little")
    total = sides ** n
    return [int.from_bytes(raw[i:i + step], "little") / total for i in range(0, len(raw), step)]
