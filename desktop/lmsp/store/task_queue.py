"""SQL the scheduler reads: the queued tasks, oldest first."""

from __future__ import annotations

from desktop.lmsp.store.database import Database
from desktop.lmsp.store.tasks import TaskRecord


async def fetch_queued_tasks(db: Database, limit: int) -> list[TaskRecord]:
    rows = await db.fetch_all(
        "SELECT * FROM tasks WHERE status = 'queued' ORDER BY seq LIMIT ?", (limit,)
    )
    return [TaskRecord.from_row(row) for row in rows]
