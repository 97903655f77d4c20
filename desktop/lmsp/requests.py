"""Validated requests that the window and the HTTP layer hand to the ``Service``.

The HTTP layer validates JSON into these (its schemas also produce the OpenAPI
document); the window builds them directly. The service trusts their types and
checks what only it can know (does the model exist, is the file readable).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ResponseRequest:
    model: str
    input: str | list[dict[str, str]]
    instructions: str | None = None
    max_output_tokens: int = 256
    temperature: float = 1.0
    top_p: float = 1.0
    seed: int | None = None  # None: the service picks one and stores it, so a resume is exact
    background: bool = False
    stream: bool = False
    on_restart: str | None = None  # None: settings.default_on_restart if background, else fail
    metadata: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ModelImportRequest:
    path: str
    storage: str = "copy"  # copy | link | reference
    name: str | None = None
    on_restart: str | None = None


@dataclass(frozen=True)
class ModelDownloadRequest:
    url: str
    sha256: str | None = None
    name: str | None = None
    on_restart: str | None = None


@dataclass(frozen=True)
class IdempotencyRequest:
    """An ``Idempotency-Key`` to store in the same transaction as the created task."""

    owner: str
    key: str
    fingerprint: str
    ttl_hours: int


def plain(value: Any) -> Any:
    """A request as JSON-ready data (for task params)."""
    if hasattr(value, "__dataclass_fields__"):
        return {name: plain(getattr(value, name)) for name in value.__dataclass_fields__}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value
