"""SQL for tasks and their event logs — the only code that writes them.

Every function that changes a task takes an open ``WriteTransaction``; the
caller (``TaskEngine``) owns the transaction and publishes the returned events
after it commits. ``transition_task`` is *the* state change: it checks the
current state (compare-and-set), gives the new event(s) the next sequence
numbers from the task row, inserts them and updates the row, all inside the
caller's ``BEGIN IMMEDIATE`` transaction (LMSP §5.2 rules 2 and 3).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import Any

from desktop.lmsp.errors import InvalidState, NotFound
from desktop.lmsp.store import jsoncol
from desktop.lmsp.store.database import Database, WriteTransaction
from desktop.lmsp.tasks.states import TaskStatus, lifecycle_event_type, transition_allowed

UNCHANGED: Any = object()


@dataclass(frozen=True)
class TaskRecord:
    id: str
    kind: str
    status: TaskStatus
    owner: str
    model_id: str | None
    on_restart: str
    attempt: int
    last_sequence_number: int
    params: dict[str, Any]
    progress: dict[str, Any] | None
    error: dict[str, Any] | None
    result: dict[str, Any] | None
    snapshot: dict[str, Any] | None
    snapshot_sequence_number: int | None
    created_at: str
    updated_at: str
    finished_at: str | None

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> TaskRecord:
        return cls(
            id=row["id"],
            kind=row["kind"],
            status=TaskStatus(row["status"]),
            owner=row["owner"],
            model_id=row["model_id"],
            on_restart=row["on_restart"],
            attempt=row["attempt"],
            last_sequence_number=row["last_sequence_number"],
            params=jsoncol.load_dict(row["params"]),
            progress=jsoncol.load(row["progress"]),
            error=jsoncol.load(row["error"]),
            result=jsoncol.load(row["result"]),
            snapshot=jsoncol.load(row["snapshot"]),
            snapshot_sequence_number=row["snapshot_sequence_number"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            finished_at=row["finished_at"],
        )

    def to_api(self) -> dict[str, Any]:
        """The task object of LMSP §4.2."""
        return {
            "id": self.id,
            "object": "task",
            "kind": self.kind,
            "status": self.status.value,
            "model": self.model_id,
            "on_restart": self.on_restart,
            "attempt": self.attempt,
            "last_sequence_number": self.last_sequence_number,
            "progress": self.progress,
            "error": self.error,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "finished_at": self.finished_at,
        }


@dataclass(frozen=True)
class TaskEvent:
    task_id: str
    sequence_number: int
    type: str
    data: dict[str, Any]
    created_at: str

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> TaskEvent:
        return cls(
            task_id=row["task_id"],
            sequence_number=row["sequence_number"],
            type=row["type"],
            data=jsoncol.load_dict(row["data"]),
            created_at=row["created_at"],
        )

    def to_api(self) -> dict[str, Any]:
        """The event object of LMSP §4.3."""
        return {
            "sequence_number": self.sequence_number,
            "type": self.type,
            "task_id": self.task_id,
            "created_at": self.created_at,
            "data": self.data,
        }

    @property
    def is_terminal(self) -> bool:
        return self.type.rsplit(".", 1)[-1] in {s.value for s in TaskStatus if s.is_terminal}


@dataclass(frozen=True)
class NewEvent:
    type: str
    data: dict[str, Any]


_INSERT_EVENT = (
    "INSERT INTO task_events (task_id, sequence_number, type, data, created_at) "
    "VALUES (?, ?, ?, ?, ?)"
)


async def _insert_events(
    tx: WriteTransaction, task_id: str, first: int, new_events: Sequence[NewEvent], now: str
) -> list[TaskEvent]:
    """Insert ``new_events`` numbered from ``first``; return them as stored."""
    events = [
        TaskEvent(task_id, first + offset, event.type, event.data, now)
        for offset, event in enumerate(new_events)
    ]
    await tx.executemany(
        _INSERT_EVENT,
        [(e.task_id, e.sequence_number, e.type, jsoncol.dump(e.data), now) for e in events],
    )
    return events


async def insert_task(
    tx: WriteTransaction,
    *,
    task_id: str,
    kind: str,
    owner: str,
    on_restart: str,
    model_id: str | None,
    params: dict[str, Any],
    progress: dict[str, Any] | None,
    now: str,
) -> tuple[TaskRecord, TaskEvent]:
    """Insert a ``queued`` task and its ``<kind>.queued`` event (sequence 1)."""
    event_type = lifecycle_event_type(kind, TaskStatus.QUEUED)
    tx.defer(
        "INSERT INTO tasks (id, kind, status, owner, model_id, on_restart, attempt, "
        "last_sequence_number, params, progress, created_at, updated_at) "
        "VALUES (?, ?, 'queued', ?, ?, ?, 1, 1, ?, ?, ?, ?)",
        (
            task_id,
            kind,
            owner,
            model_id,
            on_restart,
            jsoncol.dump(params),
            jsoncol.dump_optional(progress),
            now,
            now,
        ),
    )
    tx.defer(_INSERT_EVENT, (task_id, 1, event_type, "{}", now))
    record = TaskRecord(
        id=task_id,
        kind=kind,
        status=TaskStatus.QUEUED,
        owner=owner,
        model_id=model_id,
        on_restart=on_restart,
        attempt=1,
        last_sequence_number=1,
        params=params,
        progress=progress,
        error=None,
        result=None,
        snapshot=None,
        snapshot_sequence_number=None,
        created_at=now,
        updated_at=now,
        finished_at=None,
    )
    return record, TaskEvent(task_id, 1, event_type, {}, now)


async def fetch_task_in(tx: WriteTransaction, task_id: str) -> TaskRecord:
    row = await tx.fetch_one("SELECT * FROM tasks WHERE id = ?", (task_id,))
    if row is None:
        raise NotFound(f"task {task_id} not found")
    return TaskRecord.from_row(row)


async def transition_task(
    tx: WriteTransaction,
    task_id: str,
    target: TaskStatus,
    *,
    now: str,
    expected: Collection[TaskStatus] | None = None,
    restart: bool = False,
    event_type: str | None = None,
    event_data: dict[str, Any] | None = None,
    events_before: Sequence[NewEvent] = (),
    error: dict[str, Any] | None = None,
    result: dict[str, Any] | None = None,
    progress: Any = UNCHANGED,
    increment_attempt: bool = False,
) -> tuple[TaskRecord, list[TaskEvent]]:
    """Move a task to ``target`` and append its lifecycle event, in ``tx``.

    Raises ``InvalidState`` (carrying the task) when the current state is not in
    ``expected`` or the state machine forbids the move; nothing is written then.
    """
    task = await fetch_task_in(tx, task_id)
    if (expected is not None and task.status not in expected) or not transition_allowed(
        task.status, target, restart=restart
    ):
        raise InvalidState(
            f"task {task_id} is {task.status.value}; it cannot become {target.value}",
            body_object={"task": task.to_api()},
        )
    attempt = task.attempt + 1 if increment_attempt else task.attempt
    lifecycle = NewEvent(event_type or lifecycle_event_type(task.kind, target), event_data or {})
    new_events = [*events_before, lifecycle]
    first = task.last_sequence_number + 1
    last = task.last_sequence_number + len(new_events)
    finished_at = now if target.is_terminal else None
    new_progress = task.progress if progress is UNCHANGED else progress
    changed = await tx.execute(
        "UPDATE tasks SET status = ?, last_sequence_number = ?, attempt = ?, error = ?, "
        "result = coalesce(?, result), progress = ?, updated_at = ?, finished_at = ?, "
        "snapshot = CASE WHEN ? THEN NULL ELSE snapshot END, "
        "snapshot_sequence_number = CASE WHEN ? THEN NULL ELSE snapshot_sequence_number END "
        "WHERE id = ? AND status = ? AND last_sequence_number = ?",
        (
            target.value,
            last,
            attempt,
            jsoncol.dump_optional(error),
            jsoncol.dump_optional(result),
            jsoncol.dump_optional(new_progress),
            now,
            finished_at,
            target.is_terminal,
            target.is_terminal,
            task_id,
            task.status.value,
            task.last_sequence_number,
        ),
    )
    if changed != 1:  # pragma: no cover - the writer lock makes this unreachable
        raise InvalidState(f"task {task_id} changed concurrently")
    events = await _insert_events(tx, task_id, first, new_events, now)
    updated = replace(
        task,
        status=target,
        last_sequence_number=last,
        attempt=attempt,
        error=error,
        result=result if result is not None else task.result,
        progress=new_progress,
        updated_at=now,
        finished_at=finished_at,
        snapshot=None if target.is_terminal else task.snapshot,
        snapshot_sequence_number=None if target.is_terminal else task.snapshot_sequence_number,
    )
    return updated, events


async def append_events(
    tx: WriteTransaction,
    task_id: str,
    new_events: Sequence[NewEvent],
    *,
    now: str,
    allowed: Collection[TaskStatus],
    snapshot: Any = UNCHANGED,
    progress: Any = UNCHANGED,
) -> tuple[TaskRecord, list[TaskEvent]]:
    """Append non-lifecycle events (deltas, progress) with an optional snapshot.

    The snapshot, when given, is recorded as matching the last appended event,
    in the same transaction (LMSP §5.3).
    """
    task = await fetch_task_in(tx, task_id)
    if task.status not in allowed:
        raise InvalidState(
            f"task {task_id} is {task.status.value}; it takes no more output",
            body_object={"task": task.to_api()},
        )
    first = task.last_sequence_number + 1
    last = task.last_sequence_number + len(new_events)
    new_snapshot = task.snapshot if snapshot is UNCHANGED else snapshot
    snapshot_seq = task.snapshot_sequence_number if snapshot is UNCHANGED else last
    new_progress = task.progress if progress is UNCHANGED else progress
    await tx.execute(
        "UPDATE tasks SET last_sequence_number = ?, snapshot = ?, snapshot_sequence_number = ?, "
        "progress = ?, updated_at = ? WHERE id = ?",
        (
            last,
            jsoncol.dump_optional(new_snapshot),
            snapshot_seq,
            jsoncol.dump_optional(new_progress),
            now,
            task_id,
        ),
    )
    events = await _insert_events(tx, task_id, first, new_events, now)
    updated = replace(
        task,
        last_sequence_number=last,
        snapshot=new_snapshot,
        snapshot_sequence_number=snapshot_seq,
        progress=new_progress,
        updated_at=now,
    )
    return updated, events


async def fetch_task(db: Database, task_id: str) -> TaskRecord | None:
    row = await db.fetch_one("SELECT * FROM tasks WHERE id = ?", (task_id,))
    return TaskRecord.from_row(row) if row else None


async def fetch_events_after(db: Database, task_id: str, after: int, limit: int) -> list[TaskEvent]:
    rows = await db.fetch_all(
        "SELECT * FROM task_events WHERE task_id = ? AND sequence_number > ? "
        "ORDER BY sequence_number LIMIT ?",
        (task_id, after, limit),
    )
    return [TaskEvent.from_row(row) for row in rows]


async def fetch_unfinished(db: Database) -> list[TaskRecord]:
    rows = await db.fetch_all(
        "SELECT * FROM tasks WHERE status IN ('queued', 'loading', 'running', 'cancelling') "
        "ORDER BY seq"
    )
    return [TaskRecord.from_row(row) for row in rows]


async def list_tasks(
    db: Database,
    *,
    owner: str | None,
    statuses: Collection[str] = (),
    kinds: Collection[str] = (),
    limit: int = 50,
    after_id: str | None = None,
    task_ids: Collection[str] = (),
) -> tuple[list[TaskRecord], bool]:
    """Tasks newest first, keyset-paginated by ``after_id``; ``owner=None`` means all."""
    clauses: list[str] = []
    params: list[Any] = []
    if owner is not None:
        clauses.append("owner = ?")
        params.append(owner)
    for column, values in (("status", statuses), ("kind", kinds), ("id", task_ids)):
        if values:
            clauses.append(f"{column} IN ({', '.join('?' * len(values))})")
            params.extend(values)
    if after_id is not None:
        clauses.append("seq < coalesce((SELECT seq FROM tasks WHERE id = ?), -1)")
        params.append(after_id)
    where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
    rows = await db.fetch_all(
        f"SELECT * FROM tasks {where} ORDER BY seq DESC LIMIT ?",  # noqa: S608
        (*params, limit + 1),
    )
    records = [TaskRecord.from_row(row) for row in rows[:limit]]
    return records, len(rows) > limit
