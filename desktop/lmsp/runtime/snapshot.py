"""The resumable state of a generation: ``GenerationSnapshot``.

A snapshot is what a running response keeps in its task row (LMSP §5.3). It
holds everything needed to continue the generation exactly:

* ``prompt_token_count`` and ``prompt_sha256`` — which prompt it continues;
  resuming with another prompt raises ``UnusableSnapshot``;
* ``token_ids`` — the output tokens generated so far;
* ``text`` — their text, complete characters only. A multibyte character whose
  bytes are split across tokens appears once all its bytes have arrived; the
  pending bytes are not stored because they are recomputed from
  ``token_ids`` on resume (and ``text`` is checked against them);
* ``sampler`` — the name of the sampling scheme. Token *i* is drawn from a
  generator seeded with ``(seed, i)`` (see ``sampling.py``), so there is no
  random state to save: the scheme name is the whole sampler state.

``to_json()`` returns a plain dict of JSON types; ``from_json()`` accepts what
``to_json()`` produced and raises ``UnusableSnapshot`` for anything else.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from desktop.lmsp.runtime.errors import UnusableSnapshot
from desktop.lmsp.runtime.sampling import SAMPLER_SCHEME

SNAPSHOT_VERSION = 1


def prompt_fingerprint(prompt_tokens: Sequence[int]) -> str:
    """A SHA-256 hex digest of the prompt token ids, to tie a snapshot to its prompt."""
    encoded = ",".join(str(int(token)) for token in prompt_tokens).encode("ascii")
    return hashlib.sha256(encoded).hexdigest()


@dataclass(frozen=True)
class GenerationSnapshot:
    """Output so far of a generation, enough to resume it exactly."""

    prompt_token_count: int
    prompt_sha256: str
    token_ids: tuple[int, ...]
    text: str
    sampler: str = SAMPLER_SCHEME

    @property
    def output_token_count(self) -> int:
        return len(self.token_ids)

    def to_json(self) -> dict[str, Any]:
        return {
            "version": SNAPSHOT_VERSION,
            "prompt_token_count": self.prompt_token_count,
            "prompt_sha256": self.prompt_sha256,
            "token_ids": list(self.token_ids),
            "text": self.text,
            "sampler": self.sampler,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GenerationSnapshot:
        if not isinstance(data, Mapping):
            raise UnusableSnapshot("A snapshot must be a JSON object.")
        if data.get("version") != SNAPSHOT_VERSION:
            raise UnusableSnapshot(f"Unknown snapshot version {data.get('version')!r}.")
        count = data.get("prompt_token_count")
        digest = data.get("prompt_sha256")
        token_ids = data.get("token_ids")
        text = data.get("text")
        sampler = data.get("sampler")
        if not isinstance(token_ids, list):
            raise UnusableSnapshot("The snapshot's token_ids are not a list.")
        if not (isinstance(digest, str) and isinstance(text, str) and isinstance(sampler, str)):
            raise UnusableSnapshot("The snapshot lacks prompt_sha256, text or sampler.")
        return cls(
            prompt_token_count=_count(count, "prompt_token_count"),
            prompt_sha256=digest,
            token_ids=tuple(_count(token, "token_ids") for token in token_ids),
            text=text,
            sampler=sampler,
        )

    def check_continues(self, prompt_tokens: Sequence[int]) -> None:
        """Raise ``UnusableSnapshot`` unless this snapshot continues ``prompt_tokens``."""
        if self.sampler != SAMPLER_SCHEME:
            raise UnusableSnapshot(
                f"The snapshot was sampled with {self.sampler!r}, not {SAMPLER_SCHEME!r}."
            )
        if self.prompt_token_count != len(prompt_tokens) or self.prompt_sha256 != (
            prompt_fingerprint(prompt_tokens)
        ):
            raise UnusableSnapshot("The snapshot belongs to another prompt.")


def _count(value: object, name: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    raise UnusableSnapshot(f"The snapshot's {name} holds {value!r}, not a count.")
