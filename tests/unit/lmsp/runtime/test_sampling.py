"""Seeded per-token sampling: pure numpy, no model."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from desktop.lmsp.runtime.sampling import choose_next_token


def _logits(seed: int, size: int = 5000) -> npt.NDArray[np.float32]:
    return np.random.default_rng(seed).normal(0.0, 3.0, size).astype(np.float32)


def test_greedy_takes_the_highest_logit_and_the_lowest_id_on_ties() -> None:
    logits = np.array([0.5, 2.0, -1.0, 2.0], dtype=np.float32)
    assert choose_next_token(logits, temperature=0.0, top_p=0.5, seed=9, index=3) == 1


def test_a_draw_depends_only_on_seed_and_index() -> None:
    logits = _logits(1)

    def draw(seed: int, index: int) -> int:
        return choose_next_token(logits, temperature=1.0, top_p=0.9, seed=seed, index=index)

    assert [draw(7, i) for i in range(20)] == [draw(7, i) for i in range(20)]
    assert [draw(7, i) for i in range(20)] != [draw(8, i) for i in range(20)]
    assert draw(7, 5) == draw(7, 5)


def test_tiny_top_p_keeps_only_the_most_probable_token() -> None:
    logits = _logits(2)
    best = int(np.argmax(logits))
    for index in range(30):
        choice = choose_next_token(logits, temperature=1.5, top_p=1e-9, seed=3, index=index)
        assert choice == best


@pytest.mark.parametrize("top_p", [0.3, 0.9, 0.999])
def test_nucleus_matches_a_full_sort(top_p: float) -> None:
    logits = np.round(_logits(3, size=3000), 1)  # rounding creates many ties
    probabilities = np.exp(logits.astype(np.float64) - logits.max())
    probabilities /= probabilities.sum()
    ranked = np.lexsort((np.arange(len(logits)), -probabilities))
    cumulative = np.cumsum(probabilities[ranked])
    nucleus = set(ranked[: int(np.searchsorted(cumulative, top_p)) + 1].tolist())
    choices = {
        choose_next_token(logits, temperature=1.0, top_p=top_p, seed=11, index=i)
        for i in range(300)
    }
    assert choices <= nucleus


def test_sampling_follows_the_distribution() -> None:
    logits = np.log(np.array([0.7, 0.2, 0.1], dtype=np.float32))
    draws = [
        choose_next_token(logits, temperature=1.0, top_p=1.0, seed=5, index=i) for i in range(3000)
    ]
    shares = np.bincount(draws, minlength=3) / len(draws)
    assert shares == pytest.approx([0.7, 0.2, 0.1], abs=0.03)


def test_masked_logits_are_never_drawn() -> None:
    logits = np.array([-np.inf, 0.0, -np.inf, 0.0], dtype=np.float32)
    draws = {
        choose_next_token(logits, temperature=2.0, top_p=1.0, seed=1, index=i) for i in range(200)
    }
    assert draws == {1, 3}
