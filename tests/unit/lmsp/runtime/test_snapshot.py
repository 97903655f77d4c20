"""Snapshots and settings: validation and JSON round trips, no model."""

from __future__ import annotations

import json
from typing import Any

import pytest

from desktop.lmsp.runtime import GenerationSettings, GenerationSnapshot, UnusableSnapshot
from desktop.lmsp.runtime.snapshot import prompt_fingerprint

PROMPT = [2, 105, 2364, 107, 9259]


def _snapshot() -> GenerationSnapshot:
    return GenerationSnapshot(
        prompt_token_count=len(PROMPT),
        prompt_sha256=prompt_fingerprint(PROMPT),
        token_ids=(10, 11, 12),
        text="héllo",
    )


def test_snapshot_survives_a_json_round_trip() -> None:
    snapshot = _snapshot()
    stored = json.dumps(snapshot.to_json())
    assert GenerationSnapshot.from_json(json.loads(stored)) == snapshot


@pytest.mark.parametrize(
    "change",
    [
        {"version": 99},
        {"token_ids": [1, "2"]},
        {"token_ids": [1, -2]},
        {"token_ids": "1,2"},
        {"prompt_token_count": True},
        {"text": None},
        {"sampler": None},
    ],
)
def test_malformed_snapshots_are_unusable(change: dict[str, Any]) -> None:
    data = _snapshot().to_json() | change
    with pytest.raises(UnusableSnapshot):
        GenerationSnapshot.from_json(data)


def test_a_snapshot_only_continues_its_own_prompt() -> None:
    snapshot = _snapshot()
    snapshot.check_continues(PROMPT)
    with pytest.raises(UnusableSnapshot, match="another prompt"):
        snapshot.check_continues([*PROMPT[:-1], 9260])
    with pytest.raises(UnusableSnapshot, match="sampled with"):
        GenerationSnapshot(
            len(PROMPT), prompt_fingerprint(PROMPT), (), "", sampler="llama.cpp-chain"
        ).check_continues(PROMPT)


@pytest.mark.parametrize(
    "arguments",
    [
        {"max_output_tokens": 0},
        {"max_output_tokens": 8, "temperature": -0.1},
        {"max_output_tokens": 8, "temperature": float("nan")},
        {"max_output_tokens": 8, "top_p": 0.0},
        {"max_output_tokens": 8, "top_p": 1.5},
        {"max_output_tokens": 8, "seed": -1},
        {"max_output_tokens": 8, "seed": 2**64},
    ],
)
def test_invalid_settings_are_refused(arguments: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        GenerationSettings(**arguments)


def test_zero_temperature_is_greedy() -> None:
    assert GenerationSettings(max_output_tokens=4, temperature=0).is_greedy
    assert not GenerationSettings(max_output_tokens=4).is_greedy
