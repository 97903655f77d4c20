"""The ``clients`` table: paired clients, their token fingerprints and scopes (LMSP §2).

Only the SHA-256 fingerprint of a token is ever stored. A revoked client keeps
its row (with ``revoked_at`` set) so its id stays meaningful in the task list,
but its token no longer authenticates.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from desktop.lmsp.store import jsoncol
from desktop.lmsp.store.database import Database


@dataclass(frozen=True)
class ClientRecord:
    id: str
    name: str
    scopes: tuple[str, ...]
    created_at: str
    last_used_at: str | None
    revoked_at: str | None

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> ClientRecord:
        return cls(
            id=row["id"],
            name=row["name"],
            scopes=tuple(jsoncol.load(row["scopes"]) or ()),
            created_at=row["created_at"],
            last_used_at=row["last_used_at"],
            revoked_at=row["revoked_at"],
        )

    def to_api(self) -> dict[str, Any]:
        """The client object of LMSP §2.3 (``GET /v1/clients/me``)."""
        return {
            "id": self.id,
            "name": self.name,
            "scopes": list(self.scopes),
            "created_at": self.created_at,
            "last_used_at": self.last_used_at,
        }


async def insert_client(
    db: Database, *, client_id: str, name: str, token_sha256: str, scopes: list[str], now: str
) -> ClientRecord:
    async with db.write() as tx:
        await tx.execute(
            "INSERT INTO clients (id, name, token_sha256, scopes, created_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (client_id, name, token_sha256, jsoncol.dump(scopes), now),
        )
    return ClientRecord(client_id, name, tuple(scopes), now, None, None)


async def find_by_token(db: Database, token_sha256: str) -> ClientRecord | None:
    """The active (not revoked) client holding this token fingerprint."""
    row = await db.fetch_one(
        "SELECT * FROM clients WHERE token_sha256 = ? AND revoked_at IS NULL", (token_sha256,)
    )
    return ClientRecord.from_row(row) if row else None


async def fetch_client(db: Database, client_id: str) -> ClientRecord | None:
    row = await db.fetch_one("SELECT * FROM clients WHERE id = ?", (client_id,))
    return ClientRecord.from_row(row) if row else None


async def list_active(db: Database) -> list[ClientRecord]:
    rows = await db.fetch_all(
        "SELECT * FROM clients WHERE revoked_at IS NULL ORDER BY created_at, id"
    )
    return [ClientRecord.from_row(row) for row in rows]


async def revoke(db: Database, client_id: str, now: str) -> bool:
    """Mark the client revoked; False if it is unknown or already revoked."""
    async with db.write() as tx:
        changed = await tx.execute(
            "UPDATE clients SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
            (now, client_id),
        )
    return changed == 1


async def touch(db: Database, client_id: str, now: str) -> None:
    async with db.write() as tx:
        await tx.execute("UPDATE clients SET last_used_at = ? WHERE id = ?", (now, client_id))
