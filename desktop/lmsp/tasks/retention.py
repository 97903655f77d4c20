"""Retention cleanup (LMSP §5.2 rules 4 and 5).

Finished tasks older than ``retention_days`` are deleted with their events and
responses; unfinished tasks are never selected (the query names only terminal
states). Work is done in small transactions so requests never wait long on the
writer: events are deleted newest first in chunks, so at every commit a task's
remaining events are still numbered 1..k without gaps; the task row goes last.
Expired idempotency keys are deleted the same way.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import timedelta

from desktop.lmsp.clock import now_text, time_text_before
from desktop.lmsp.store.database import Database

TASK_BATCH = 20
EVENT_CHUNK = 5000
KEY_BATCH = 500


@dataclass
class CleanupResult:
    tasks_deleted: int = 0
    events_deleted: int = 0
    keys_deleted: int = 0


async def delete_expired_tasks(
    db: Database, *, retention_days: int, pause: float = 0.0
) -> CleanupResult:
    result = CleanupResult()
    cutoff = time_text_before(timedelta(days=retention_days))
    while True:
        rows = await db.fetch_all(
            "SELECT id, last_sequence_number FROM tasks WHERE finished_at IS NOT NULL "
            "AND finished_at < ? AND status IN ('completed', 'failed', 'cancelled') "
            "ORDER BY finished_at LIMIT ?",
            (cutoff, TASK_BATCH),
        )
        if not rows:
            break
        for row in rows:
            result.events_deleted += await _delete_task(db, row["id"], row["last_sequence_number"])
            result.tasks_deleted += 1
            if pause:
                await asyncio.sleep(pause)
    return result


async def _delete_task(db: Database, task_id: str, last_sequence_number: int) -> int:
    deleted = 0
    upper = last_sequence_number
    while upper > 0:
        lower = max(0, upper - EVENT_CHUNK)
        async with db.write() as tx:
            deleted += await tx.execute(
                "DELETE FROM task_events WHERE task_id = ? AND sequence_number > ? "
                "AND sequence_number <= ? AND EXISTS (SELECT 1 FROM tasks WHERE id = ? "
                "AND status IN ('completed', 'failed', 'cancelled'))",
                (task_id, lower, upper, task_id),
            )
        upper = lower
    async with db.write() as tx:
        await tx.execute("DELETE FROM responses WHERE task_id = ?", (task_id,))
        await tx.execute(
            "DELETE FROM tasks WHERE id = ? AND status IN ('completed', 'failed', 'cancelled')",
            (task_id,),
        )
    return deleted


async def delete_expired_idempotency_keys(db: Database) -> int:
    deleted = 0
    now = now_text()
    while True:
        async with db.write() as tx:
            count = await tx.execute(
                "DELETE FROM idempotency_keys WHERE (owner, key) IN (SELECT owner, key "
                "FROM idempotency_keys WHERE expires_at <= ? LIMIT ?)",
                (now, KEY_BATCH),
            )
        deleted += count
        if count < KEY_BATCH:
            return deleted


async def run_cleanup(db: Database, *, retention_days: int) -> CleanupResult:
    result = await delete_expired_tasks(db, retention_days=retention_days)
    result.keys_deleted = await delete_expired_idempotency_keys(db)
    return result
