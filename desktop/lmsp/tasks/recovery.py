"""Startup recovery of unfinished tasks (LMSP §5.4, seed §11.3).

``recover_unfinished_tasks`` runs once at startup, before the scheduler or the
HTTP listener start. It decides each leftover task's move from the table below
(``plan_restart``), writes all moves, and returns a ``RecoveryReport`` that the
log, the headless output and the window's banner show.

| found        | fail      | retry     | resume                      |
| queued       | failed    | queued    | queued                      |
| loading      | failed    | queued    | queued                      |
| running      | failed    | queued    | running (from the snapshot) |
| cancelling   | cancelled | cancelled | cancelled                   |

A queued task that stays queued gets no event; ``→ queued`` writes
``<kind>.requeued`` and ``running → running`` writes ``<kind>.resumed``, both
with ``attempt`` + 1. Without a usable snapshot a resume becomes a retry. A
task that would start attempt ``max_attempts + 1`` fails instead.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from desktop.lmsp.clock import now_text
from desktop.lmsp.store.database import Database
from desktop.lmsp.store.task_restart import (
    LeftoverTask,
    RestartMove,
    apply_restart_moves,
    fetch_leftover_tasks,
)
from desktop.lmsp.tasks.states import TaskStatus, lifecycle_event_type

SERVER_RESTARTED = "server_restarted"
CHUNK = 2000


@dataclass
class RecoveryReport:
    """What startup recovery did, by outcome, with the task ids of each."""

    resumed: list[str] = field(default_factory=list)
    requeued: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    cancelled: list[str] = field(default_factory=list)
    still_queued: list[str] = field(default_factory=list)
    kinds: dict[str, str] = field(default_factory=dict)

    @property
    def touched(self) -> list[str]:
        """Tasks that recovery changed (those left queued are not counted)."""
        return [*self.resumed, *self.requeued, *self.failed, *self.cancelled]

    @property
    def is_empty(self) -> bool:
        return not self.touched

    def counts(self) -> dict[str, int]:
        return {
            "resumed": len(self.resumed),
            "requeued": len(self.requeued),
            "failed": len(self.failed),
            "cancelled": len(self.cancelled),
            "still_queued": len(self.still_queued),
        }

    def summary(self) -> str:
        """Plain words, e.g. "2 responses resumed, 1 requeued, 1 failed (server_restarted)"."""
        if self.is_empty:
            return "No unfinished work needed recovery."
        parts: list[str] = []
        for outcome, ids in (
            ("resumed", self.resumed),
            ("requeued", self.requeued),
            ("failed (server_restarted)", self.failed),
            ("cancelled", self.cancelled),
        ):
            if ids:
                parts.append(f"{_count_by_kind(ids, self.kinds)} {outcome}")
        return ", ".join(parts)

    def to_json(self) -> dict[str, object]:
        return {
            "counts": self.counts(),
            "resumed": self.resumed,
            "requeued": self.requeued,
            "failed": self.failed,
            "cancelled": self.cancelled,
            "summary": self.summary(),
        }


def _count_by_kind(ids: list[str], kinds: dict[str, str]) -> str:
    by_kind = Counter(kinds.get(task_id, "task") for task_id in ids)
    words = []
    for kind, count in sorted(by_kind.items()):
        noun = {"response": "response", "model.import": "import", "model.download": "download"}
        word = noun.get(kind, "task")
        words.append(f"{count} {word}{'' if count == 1 else 's'}")
    return " and ".join(words)


def plan_restart(task: LeftoverTask, max_attempts: int) -> RestartMove | None:
    """The §5.4 move for one leftover task; None when it stays queued untouched."""
    if task.status is TaskStatus.CANCELLING:
        return RestartMove(
            task, TaskStatus.CANCELLED, lifecycle_event_type(task.kind, TaskStatus.CANCELLED), {}
        )
    if task.on_restart == "fail":
        return _failed(task)
    if task.status is TaskStatus.QUEUED:
        return None
    next_attempt = task.attempt + 1
    if next_attempt > max_attempts:
        return _failed(task, crash_loop=True)
    resumable = (
        task.status is TaskStatus.RUNNING
        and task.on_restart == "resume"
        and task.has_snapshot
        and task.snapshot_sequence_number is not None
    )
    if resumable:
        data = {
            "reason": SERVER_RESTARTED,
            "from_sequence_number": task.snapshot_sequence_number,
            "attempt": next_attempt,
        }
        return RestartMove(
            task, TaskStatus.RUNNING, f"{task.kind}.resumed", data, increment_attempt=True
        )
    data = {"reason": SERVER_RESTARTED, "attempt": next_attempt}
    return RestartMove(
        task, TaskStatus.QUEUED, f"{task.kind}.requeued", data, increment_attempt=True
    )


def _failed(task: LeftoverTask, *, crash_loop: bool = False) -> RestartMove:
    message = "The service stopped before this task finished"
    if crash_loop:
        message += f"; it already had {task.attempt} attempts, so it was not restarted again"
    error = {"code": SERVER_RESTARTED, "message": message + "."}
    return RestartMove(
        task,
        TaskStatus.FAILED,
        lifecycle_event_type(task.kind, TaskStatus.FAILED),
        {"error": error},
        error=error,
    )


async def recover_unfinished_tasks(db: Database, *, max_attempts: int) -> RecoveryReport:
    """Apply every leftover task's restart policy; return what was done."""
    report = RecoveryReport()
    leftovers = await fetch_leftover_tasks(db)
    moves: list[RestartMove] = []
    for task in leftovers:
        report.kinds[task.id] = task.kind
        move = plan_restart(task, max_attempts)
        if move is None:
            report.still_queued.append(task.id)
            continue
        moves.append(move)
        outcome = {
            TaskStatus.RUNNING: report.resumed,
            TaskStatus.QUEUED: report.requeued,
            TaskStatus.FAILED: report.failed,
            TaskStatus.CANCELLED: report.cancelled,
        }[move.target]
        outcome.append(task.id)
    now = now_text()
    for start in range(0, len(moves), CHUNK):
        async with db.write() as tx:
            await apply_restart_moves(tx, moves[start : start + CHUNK], now=now)
    return report
