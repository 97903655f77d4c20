"""Idempotency keys (LMSP §6): rows keyed by (owner, key) with a request fingerprint.

A key row is written in the same transaction as the task it created
(``record_in``), so a crash keeps both or loses both. ``lookup`` tells a caller
whether a request is new, a replay of a stored answer, a reuse with another
request (422), or still in progress (409). Expired rows count as absent.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from desktop.lmsp.clock import format_time, now_text, utc_now
from desktop.lmsp.errors import IdempotencyKeyReused, InvalidIdempotencyKey
from desktop.lmsp.store import jsoncol
from desktop.lmsp.store.database import Database, WriteTransaction

MAX_KEY_LENGTH = 255


def validate_key(key: str) -> str:
    if not key or len(key) > MAX_KEY_LENGTH or not all(0x20 <= ord(c) <= 0x7E for c in key):
        raise InvalidIdempotencyKey("Idempotency-Key must be 1-255 printable ASCII characters")
    return key


def request_fingerprint(method: str, path: str, body: Any) -> str:
    """SHA-256 of the method, the path and the canonical JSON body."""
    canonical = jsoncol.dump_canonical(body)
    return hashlib.sha256(f"{method.upper()}\n{path}\n{canonical}".encode()).hexdigest()


@dataclass(frozen=True)
class StoredKey:
    fingerprint: str
    status_code: int | None
    body: Any
    task_id: str | None

    @property
    def answered(self) -> bool:
        return self.status_code is not None


async def lookup(db: Database, owner: str, key: str, fingerprint: str) -> StoredKey | None:
    """The stored key, or None if unknown or expired; 422 if used for another request."""
    row = await db.fetch_one(
        "SELECT * FROM idempotency_keys WHERE owner = ? AND key = ? AND expires_at > ?",
        (owner, key, now_text()),
    )
    if row is None:
        return None
    if row["fingerprint"] != fingerprint:
        raise IdempotencyKeyReused("This Idempotency-Key was already used with a different request")
    return StoredKey(
        fingerprint=row["fingerprint"],
        status_code=row["status_code"],
        body=jsoncol.load(row["response_body"]),
        task_id=row["task_id"],
    )


async def record_in(
    tx: WriteTransaction,
    *,
    owner: str,
    key: str,
    fingerprint: str,
    ttl_hours: int,
    task_id: str | None,
    status_code: int | None,
    body: Any,
) -> None:
    """Store the key with its answer (or as in progress when ``status_code`` is None)."""
    now = utc_now()
    tx.defer(
        "INSERT INTO idempotency_keys (owner, key, fingerprint, status_code, response_body, "
        "task_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (owner, key) DO UPDATE SET fingerprint = excluded.fingerprint, "
        "status_code = excluded.status_code, response_body = excluded.response_body, "
        "task_id = excluded.task_id, created_at = excluded.created_at, "
        "expires_at = excluded.expires_at",
        (
            owner,
            key,
            fingerprint,
            status_code,
            jsoncol.dump_optional(body),
            task_id,
            format_time(now),
            format_time(now + timedelta(hours=ttl_hours)),
        ),
    )


async def complete_in(
    tx: WriteTransaction, *, owner: str, key: str, status_code: int, body: Any
) -> None:
    await tx.execute(
        "UPDATE idempotency_keys SET status_code = ?, response_body = ? "
        "WHERE owner = ? AND key = ?",
        (status_code, jsoncol.dump(body), owner, key),
    )
