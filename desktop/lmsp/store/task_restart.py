"""SQL for startup recovery: the §5.4 restart moves, applied in bulk.

Recovery may have to move tens of thousands of leftover tasks before the
listener opens, so the moves are written with two ``executemany`` statements
per chunk instead of one round trip per task. Each move is still checked
against the state machine (``transition_allowed(..., restart=True)``) and
compare-and-set on the task's status and last sequence number, and each task's
new state and its event commit together.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from desktop.lmsp.store import jsoncol
from desktop.lmsp.store.database import Database, WriteTransaction
from desktop.lmsp.tasks.states import TaskStatus, transition_allowed


@dataclass(frozen=True)
class LeftoverTask:
    """The columns recovery needs of an unfinished task (no large JSON)."""

    id: str
    kind: str
    status: TaskStatus
    on_restart: str
    attempt: int
    last_sequence_number: int
    snapshot_sequence_number: int | None
    has_snapshot: bool


@dataclass(frozen=True)
class RestartMove:
    task: LeftoverTask
    target: TaskStatus
    event_type: str
    event_data: dict[str, Any]
    error: dict[str, Any] | None = None
    increment_attempt: bool = False


async def fetch_leftover_tasks(db: Database) -> list[LeftoverTask]:
    rows = await db.fetch_all(
        "SELECT id, kind, status, on_restart, attempt, last_sequence_number, "
        "snapshot_sequence_number, snapshot IS NOT NULL AS has_snapshot FROM tasks "
        "WHERE status IN ('queued', 'loading', 'running', 'cancelling') ORDER BY seq"
    )
    return [
        LeftoverTask(
            id=row["id"],
            kind=row["kind"],
            status=TaskStatus(row["status"]),
            on_restart=row["on_restart"],
            attempt=row["attempt"],
            last_sequence_number=row["last_sequence_number"],
            snapshot_sequence_number=row["snapshot_sequence_number"],
            has_snapshot=bool(row["has_snapshot"]),
        )
        for row in rows
    ]


async def apply_restart_moves(
    tx: WriteTransaction, moves: Sequence[RestartMove], *, now: str
) -> None:
    """Write every move (state, attempt, error, one event each) in ``tx``."""
    updates: list[tuple[Any, ...]] = []
    events: list[tuple[Any, ...]] = []
    for move in moves:
        task = move.task
        if not transition_allowed(task.status, move.target, restart=True):
            raise ValueError(f"restart move {task.status} -> {move.target} is not allowed")
        sequence_number = task.last_sequence_number + 1
        attempt = task.attempt + 1 if move.increment_attempt else task.attempt
        terminal = move.target.is_terminal
        updates.append(
            (
                move.target.value,
                sequence_number,
                attempt,
                jsoncol.dump_optional(move.error),
                now,
                now if terminal else None,
                terminal,
                terminal,
                task.id,
                task.status.value,
                task.last_sequence_number,
            )
        )
        events.append(
            (task.id, sequence_number, move.event_type, jsoncol.dump(move.event_data), now)
        )
    before = await _total_changes(tx)
    await tx.executemany(
        "UPDATE tasks SET status = ?, last_sequence_number = ?, attempt = ?, "
        "error = coalesce(?, error), updated_at = ?, finished_at = ?, "
        "snapshot = CASE WHEN ? THEN NULL ELSE snapshot END, "
        "snapshot_sequence_number = CASE WHEN ? THEN NULL ELSE snapshot_sequence_number END "
        "WHERE id = ? AND status = ? AND last_sequence_number = ?",
        updates,
    )
    if await _total_changes(tx) - before != len(updates):
        raise RuntimeError("a leftover task changed during recovery")
    await tx.executemany(
        "INSERT INTO task_events (task_id, sequence_number, type, data, created_at) "
        "VALUES (?, ?, ?, ?, ?)",
        events,
    )


async def _total_changes(tx: WriteTransaction) -> int:
    row = await tx.fetch_one("SELECT total_changes()")
    return int(row[0]) if row else 0
