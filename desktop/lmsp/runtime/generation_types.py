"""What goes into a generation and what comes out of it.

* ``GenerationSettings`` — the request's sampling settings, validated.
* ``TokenStep`` — handed to ``on_token`` for each new output token: its id,
  its index, the text it completes (``text_delta``, possibly ""), and
  ``snapshot()``, the resumable state right after this token.
* ``GenerationOutcome`` — how the generation ended and everything it produced.
* ``GenerationProgress`` — the growing output, shared by the steps of one
  generation so that a snapshot costs nothing until it is asked for.

Token ids are tuples in every frozen object, so nothing handed out can change
afterwards.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

from desktop.lmsp.runtime.snapshot import GenerationSnapshot

FinishReason = Literal["stop", "length", "cancelled"]
"""``stop``: the model ended its turn (an end-of-generation token);
``length``: ``max_output_tokens`` or the context size was reached;
``cancelled``: ``should_stop`` returned true."""

MAX_SEED = 2**64 - 1


@dataclass(frozen=True)
class GenerationSettings:
    """Sampling settings of one generation; ``temperature == 0`` means greedy."""

    max_output_tokens: int
    temperature: float = 1.0
    top_p: float = 1.0
    seed: int = 0

    def __post_init__(self) -> None:
        if self.max_output_tokens < 1:
            raise ValueError("max_output_tokens must be at least 1.")
        if not (math.isfinite(self.temperature) and self.temperature >= 0.0):
            raise ValueError("temperature must be a finite number >= 0.")
        if not (0.0 < self.top_p <= 1.0):
            raise ValueError("top_p must be in (0, 1].")
        if not (0 <= self.seed <= MAX_SEED):
            raise ValueError(f"seed must be between 0 and {MAX_SEED}.")

    @property
    def is_greedy(self) -> bool:
        return self.temperature == 0.0


class GenerationProgress:
    """The output of one generation as it grows, token by token."""

    def __init__(self, prompt_token_count: int, prompt_sha256: str) -> None:
        self.prompt_token_count = prompt_token_count
        self.prompt_sha256 = prompt_sha256
        self._token_ids: list[int] = []
        self._deltas: list[str] = []

    @property
    def output_token_count(self) -> int:
        return len(self._token_ids)

    def record(self, token_id: int, text_delta: str) -> None:
        self._token_ids.append(token_id)
        self._deltas.append(text_delta)

    def token_ids(self, count: int | None = None) -> tuple[int, ...]:
        return tuple(self._token_ids[:count])

    def text(self, count: int | None = None) -> str:
        return "".join(self._deltas[:count])

    def snapshot(self, count: int | None = None) -> GenerationSnapshot:
        """The snapshot after the first ``count`` output tokens (all of them by default)."""
        return GenerationSnapshot(
            prompt_token_count=self.prompt_token_count,
            prompt_sha256=self.prompt_sha256,
            token_ids=self.token_ids(count),
            text=self.text(count),
        )


@dataclass(frozen=True)
class TokenStep:
    """One new output token, as handed to ``on_token``."""

    token_id: int
    index: int
    """0-based position of the token in the output."""
    text_delta: str
    """Text this token completes; "" while a multibyte character is incomplete."""
    progress: GenerationProgress = field(repr=False, compare=False)

    @property
    def output_token_count(self) -> int:
        """Output tokens so far, this one included (resumed ones count too)."""
        return self.index + 1

    def snapshot(self) -> GenerationSnapshot:
        """The resumable state right after this token."""
        return self.progress.snapshot(self.output_token_count)


@dataclass(frozen=True)
class GenerationOutcome:
    """How a generation ended and what it produced (resumed tokens included)."""

    finish_reason: FinishReason
    text: str
    token_ids: tuple[int, ...]
    prompt_token_count: int
    resumed_token_count: int
    """Tokens taken from ``resume_from`` rather than generated in this call."""
    snapshot: GenerationSnapshot = field(repr=False, compare=False)
    """The final state, for a caller that stores it as the task's last snapshot
    (after ``cancelled``, resuming from it continues the same output)."""

    @property
    def output_token_count(self) -> int:
        return len(self.token_ids)
