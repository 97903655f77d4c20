"""The task state machine of LMSP §4.2 and the restart table of §5.4, as data.

``NORMAL_TRANSITIONS`` lists what a running service may do; ``RESTART_TRANSITIONS``
adds what only startup recovery may do. Terminal states have no way out in either.
"""

from __future__ import annotations

from enum import StrEnum


class TaskStatus(StrEnum):
    QUEUED = "queued"
    LOADING = "loading"
    RUNNING = "running"
    CANCELLING = "cancelling"
    COMPLETED = "completed"
    FAILED = "failed"
    CANCELLED = "cancelled"

    @property
    def is_terminal(self) -> bool:
        return self in TERMINAL

    @property
    def is_unfinished(self) -> bool:
        return self in UNFINISHED


class RestartPolicy(StrEnum):
    FAIL = "fail"
    RETRY = "retry"
    RESUME = "resume"


class TaskKind(StrEnum):
    RESPONSE = "response"
    MODEL_IMPORT = "model.import"
    MODEL_DOWNLOAD = "model.download"


TERMINAL = frozenset({TaskStatus.COMPLETED, TaskStatus.FAILED, TaskStatus.CANCELLED})
UNFINISHED = frozenset(
    {TaskStatus.QUEUED, TaskStatus.LOADING, TaskStatus.RUNNING, TaskStatus.CANCELLING}
)

NORMAL_TRANSITIONS: dict[TaskStatus, frozenset[TaskStatus]] = {
    TaskStatus.QUEUED: frozenset({TaskStatus.LOADING, TaskStatus.RUNNING, TaskStatus.CANCELLED}),
    TaskStatus.LOADING: frozenset({TaskStatus.RUNNING, TaskStatus.FAILED, TaskStatus.CANCELLING}),
    TaskStatus.RUNNING: frozenset({TaskStatus.COMPLETED, TaskStatus.FAILED, TaskStatus.CANCELLING}),
    TaskStatus.CANCELLING: frozenset({TaskStatus.CANCELLED}),
}

RESTART_TRANSITIONS: dict[TaskStatus, frozenset[TaskStatus]] = {
    TaskStatus.QUEUED: frozenset({TaskStatus.FAILED}),
    TaskStatus.LOADING: frozenset({TaskStatus.FAILED, TaskStatus.QUEUED}),
    TaskStatus.RUNNING: frozenset({TaskStatus.FAILED, TaskStatus.QUEUED, TaskStatus.RUNNING}),
    TaskStatus.CANCELLING: frozenset({TaskStatus.CANCELLED}),
}


def transition_allowed(current: TaskStatus, target: TaskStatus, *, restart: bool) -> bool:
    if target in NORMAL_TRANSITIONS.get(current, frozenset()):
        return True
    return restart and target in RESTART_TRANSITIONS.get(current, frozenset())


def lifecycle_event_type(kind: str, status: TaskStatus) -> str:
    """``<kind>.<new status>``, e.g. ``response.running`` (LMSP §4.3)."""
    return f"{kind}.{status.value}"
