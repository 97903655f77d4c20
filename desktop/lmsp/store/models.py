"""SQL for the ``models`` table: one row per registered model file (LMSP §3).

A row holds the model's metadata and its content fingerprint, never the file
itself. ``source`` keeps where the file came from (``{"path": …}`` for an
import, ``{"url": …}`` for a download). ``ModelRecord.to_api`` builds the model
object of LMSP §3.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from desktop.lmsp.store import jsoncol
from desktop.lmsp.store.database import Database, WriteTransaction

OWNED_STORAGE = frozenset({"copy", "link", "download"})
"""Storage modes whose file entry the store created and may remove."""


@dataclass(frozen=True)
class ModelRecord:
    id: str
    name: str
    format: str
    status: str
    storage: str
    path: str
    size_bytes: int
    mtime_ns: int
    sha256: str
    metadata: dict[str, Any]
    source: dict[str, Any]
    created_at: str

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> ModelRecord:
        return cls(
            id=row["id"],
            name=row["name"],
            format=row["format"],
            status=row["status"],
            storage=row["storage"],
            path=row["path"],
            size_bytes=row["size_bytes"],
            mtime_ns=row["mtime_ns"],
            sha256=row["sha256"],
            metadata=jsoncol.load_dict(row["metadata"]),
            source=jsoncol.load_dict(row["source"]),
            created_at=row["created_at"],
        )

    @property
    def store_owns_file(self) -> bool:
        return self.storage in OWNED_STORAGE

    def to_api(self) -> dict[str, Any]:
        """The model object of LMSP §3."""
        return {
            "id": self.id,
            "object": "model",
            "name": self.name,
            "format": self.format,
            "status": self.status,
            "size_bytes": self.size_bytes,
            "sha256": self.sha256,
            "path": self.path,
            "storage": self.storage,
            "metadata": self.metadata,
            "created_at": self.created_at,
        }


async def insert_model(tx: WriteTransaction, model: ModelRecord) -> None:
    await tx.execute(
        "INSERT INTO models (id, name, format, status, storage, path, size_bytes, mtime_ns, "
        "sha256, metadata, source, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            model.id,
            model.name,
            model.format,
            model.status,
            model.storage,
            model.path,
            model.size_bytes,
            model.mtime_ns,
            model.sha256,
            jsoncol.dump(model.metadata),
            jsoncol.dump(model.source),
            model.created_at,
        ),
    )


async def unique_name_in(tx: WriteTransaction, wanted: str) -> str:
    """``wanted``, or ``wanted-2``, ``wanted-3``… if the name is already taken."""
    candidate, number = wanted, 1
    while await tx.fetch_one("SELECT 1 FROM models WHERE name = ?", (candidate,)) is not None:
        number += 1
        candidate = f"{wanted}-{number}"
    return candidate


async def update_file_state(
    tx: WriteTransaction,
    model_id: str,
    status: str,
    *,
    size_bytes: int | None = None,
    mtime_ns: int | None = None,
) -> None:
    await tx.execute(
        "UPDATE models SET status = ?, size_bytes = coalesce(?, size_bytes), "
        "mtime_ns = coalesce(?, mtime_ns) WHERE id = ?",
        (status, size_bytes, mtime_ns, model_id),
    )


async def delete_model_in(tx: WriteTransaction, model_id: str) -> None:
    await tx.execute("DELETE FROM models WHERE id = ?", (model_id,))


async def fetch_model_in(tx: WriteTransaction, model_id: str) -> ModelRecord | None:
    row = await tx.fetch_one("SELECT * FROM models WHERE id = ?", (model_id,))
    return ModelRecord.from_row(row) if row else None


async def count_unfinished_tasks_using(tx: WriteTransaction, model_id: str) -> int:
    row = await tx.fetch_one(
        "SELECT count(*) FROM tasks WHERE model_id = ? "
        "AND status IN ('queued', 'loading', 'running', 'cancelling')",
        (model_id,),
    )
    return int(row[0]) if row else 0


async def find_model(db: Database, id_or_name: str) -> ModelRecord | None:
    """The model whose id, or else whose name, is ``id_or_name``."""
    row = await db.fetch_one(
        "SELECT * FROM models WHERE id = ? OR name = ? ORDER BY id = ? DESC LIMIT 1",
        (id_or_name, id_or_name, id_or_name),
    )
    return ModelRecord.from_row(row) if row else None


async def list_models(db: Database) -> list[ModelRecord]:
    rows = await db.fetch_all("SELECT * FROM models ORDER BY created_at, name")
    return [ModelRecord.from_row(row) for row in rows]
