"""Choosing the next token from logits, without hidden random state.

``choose_next_token`` is a pure function of the logits, the sampling settings
and the token's index in the output:

* ``temperature == 0`` is greedy: the highest logit, lowest token id on ties.
* Otherwise the logits are divided by the temperature, turned into
  probabilities (softmax in float64), cut to the nucleus of ``top_p`` (the
  most probable tokens whose cumulative probability first reaches ``top_p``,
  ties ordered by token id), and token *i* is drawn with a generator seeded
  with ``(seed, i)``.

Because the generator for token *i* depends only on ``(seed, i)``, a resumed
generation draws exactly the numbers the uninterrupted one would have drawn.
The sampling happens here, in numpy, and not in llama.cpp's sampler chain, so
no sampler state exists outside the snapshot.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

SAMPLER_SCHEME = "numpy-pcg64-seeded-per-token/v1"

_FIRST_NUCLEUS_CANDIDATES = 64
_CANDIDATE_GROWTH = 8


def choose_next_token(
    logits: npt.NDArray[np.float32],
    *,
    temperature: float,
    top_p: float,
    seed: int,
    index: int,
) -> int:
    """Return the token id chosen for output position ``index``."""
    if not np.isfinite(logits).any():
        raise ValueError("The logits contain no finite value.")
    if temperature == 0.0:
        return int(np.argmax(logits))
    probabilities = _softmax(logits.astype(np.float64) / temperature)
    generator = np.random.default_rng([seed, index])
    draw = float(generator.random())
    if top_p >= 1.0:
        cumulative = np.cumsum(probabilities)
        return _pick(cumulative, draw)
    nucleus = _nucleus(probabilities, top_p)
    return int(nucleus[_pick(np.cumsum(probabilities[nucleus]), draw)])


def _softmax(scaled: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    scaled = np.where(np.isnan(scaled), -np.inf, scaled)
    weights = np.exp(scaled - scaled.max())
    result: npt.NDArray[np.float64] = weights / weights.sum()
    return result


def _pick(cumulative: npt.NDArray[np.float64], draw: float) -> int:
    """Index of the first cumulative weight above ``draw`` times the total."""
    position = int(np.searchsorted(cumulative, draw * cumulative[-1], side="right"))
    return min(position, len(cumulative) - 1)


def _nucleus(probabilities: npt.NDArray[np.float64], top_p: float) -> npt.NDArray[np.intp]:
    """Token ids of the top-``top_p`` nucleus, most probable first.

    Sorting the whole vocabulary for every token is slow for large
    vocabularies, so the candidates grow from the few most probable tokens
    until their cumulative probability reaches ``top_p``. Every token tied with
    the least probable candidate is included, so the result is the same as a
    full sort by (probability descending, token id).
    """
    vocabulary_size = len(probabilities)
    wanted = min(_FIRST_NUCLEUS_CANDIDATES, vocabulary_size)
    while True:
        if wanted >= vocabulary_size:
            candidates = np.arange(vocabulary_size)
        else:
            top = np.argpartition(probabilities, vocabulary_size - wanted)[-wanted:]
            threshold = probabilities[top].min()
            candidates = np.flatnonzero(probabilities >= threshold)
        order = np.lexsort((candidates, -probabilities[candidates]))
        ranked = candidates[order]
        cumulative = np.cumsum(probabilities[ranked])
        reached = int(np.searchsorted(cumulative, top_p, side="left"))
        if reached < len(ranked) or wanted >= vocabulary_size:
            kept: npt.NDArray[np.intp] = ranked[: min(reached + 1, len(ranked))]
            return kept
        wanted *= _CANDIDATE_GROWTH
