"""JSON columns: how structured values are written to and read from SQLite text."""

from __future__ import annotations

import json
from typing import Any


def dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def dump_optional(value: Any) -> str | None:
    return None if value is None else dump(value)


def load(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def load_dict(text: str | None) -> dict[str, Any]:
    value = load(text)
    return value if isinstance(value, dict) else {}


def dump_canonical(value: Any) -> str:
    """Sorted keys, no insignificant whitespace: equal JSON values give equal text."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
