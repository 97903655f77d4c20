"""Time and identifiers as LMSP §1 writes them.

Times are RFC 3339 UTC strings with milliseconds (``2026-12-02T08:25:42.123Z``);
they sort in time order as plain strings, which the store relies on.
IDs are a prefix followed by 128 random bits in base32 (lower case).
"""

from __future__ import annotations

import base64
import secrets
from datetime import UTC, datetime, timedelta


def utc_now() -> datetime:
    return datetime.now(UTC)


def format_time(moment: datetime) -> str:
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def now_text() -> str:
    return format_time(utc_now())


def parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def time_text_before(delta: timedelta) -> str:
    """The time `delta` ago, in the stored text form (for range queries)."""
    return format_time(utc_now() - delta)


def new_id(prefix: str, random_bits: int = 128) -> str:
    """A new opaque id such as ``task_3k2…``; ``prefix`` has no trailing underscore."""
    raw = secrets.token_bytes(random_bits // 8)
    return f"{prefix}_" + base64.b32encode(raw).decode("ascii").rstrip("=").lower()
