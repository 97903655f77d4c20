"""SQL for the ``responses`` table: the stored part of a response task (LMSP §4.1).

A response shares its id with its task. The row keeps the request (input,
instructions, generation settings, metadata) and the output as it grows: the
task runner updates ``output_text`` in the same transaction as each output
batch, and ``usage`` and ``completed_at`` in the transaction that completes it.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from desktop.lmsp.store import jsoncol
from desktop.lmsp.store.database import Database, WriteTransaction


@dataclass(frozen=True)
class ResponseRecord:
    task_id: str
    model_id: str
    input: Any
    instructions: str | None
    generation: dict[str, Any]
    background: bool
    output_text: str
    usage: dict[str, int] | None
    metadata: dict[str, str]
    completed_at: str | None

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> ResponseRecord:
        return cls(
            task_id=row["task_id"],
            model_id=row["model_id"],
            input=jsoncol.load(row["input"]),
            instructions=row["instructions"],
            generation=jsoncol.load_dict(row["generation"]),
            background=bool(row["background"]),
            output_text=row["output_text"],
            usage=jsoncol.load(row["usage"]),
            metadata=jsoncol.load_dict(row["metadata"]),
            completed_at=row["completed_at"],
        )


async def insert_response(tx: WriteTransaction, response: ResponseRecord) -> None:
    tx.defer(
        "INSERT INTO responses (task_id, model_id, input, instructions, generation, background, "
        "output_text, usage, metadata, completed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            response.task_id,
            response.model_id,
            jsoncol.dump(response.input),
            response.instructions,
            jsoncol.dump(response.generation),
            int(response.background),
            response.output_text,
            jsoncol.dump_optional(response.usage),
            jsoncol.dump(response.metadata),
            response.completed_at,
        ),
    )


async def update_output_in(
    tx: WriteTransaction,
    task_id: str,
    output_text: str,
    *,
    usage: dict[str, int] | None = None,
    completed_at: str | None = None,
) -> None:
    """Store the output so far (and, once finished, its usage and completion time)."""
    tx.defer(
        "UPDATE responses SET output_text = ?, usage = coalesce(?, usage), "
        "completed_at = coalesce(?, completed_at) WHERE task_id = ?",
        (output_text, jsoncol.dump_optional(usage), completed_at, task_id),
    )


async def fetch_response(db: Database, task_id: str) -> ResponseRecord | None:
    row = await db.fetch_one("SELECT * FROM responses WHERE task_id = ?", (task_id,))
    return ResponseRecord.from_row(row) if row else None


async def fetch_response_in(tx: WriteTransaction, task_id: str) -> ResponseRecord | None:
    row = await tx.fetch_one("SELECT * FROM responses WHERE task_id = ?", (task_id,))
    return ResponseRecord.from_row(row) if row else None
