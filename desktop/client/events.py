"""Task events (LMSP §4.3) and following them with automatic reconnection.

``follow_events`` yields a task's events in order, each exactly once, until
the terminal one. When the connection breaks — a network error, a stream cut
mid-message, the service restarting — it reconnects with ``Last-Event-ID``
set to the last sequence number it yielded, and skips anything at or below
it, so a consumer sees neither a gap nor a duplicate. Errors the service
answers (401 revoked, 404) end the iteration at once; network failures are
retried ``RetryPolicy.reconnects`` times in a row before ``ConnectionFailed``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .errors import ConnectionFailed, ServiceUnavailable
from .transport import NETWORK_ERRORS, EventStreamReply, HttpTransport

TERMINAL_STATUSES = frozenset({"completed", "failed", "cancelled"})

# Opens the stream to read from, given the task id (None until the first event
# names it) and the last sequence number already yielded.
StreamOpener = Callable[[str | None, int], EventStreamReply]


@dataclass(frozen=True)
class Event:
    """One task event: ``sequence_number`` 1, 2, 3, … within its task."""

    sequence_number: int
    type: str
    task_id: str
    created_at: str
    data: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, value: Any) -> Event:
        if not isinstance(value, dict):
            raise ValueError("an event must be a JSON object")
        data = value.get("data")
        return cls(
            sequence_number=int(value["sequence_number"]),
            type=str(value["type"]),
            task_id=str(value.get("task_id", "")),
            created_at=str(value.get("created_at", "")),
            data=data if isinstance(data, dict) else {},
        )

    @property
    def status(self) -> str | None:
        """The task status this lifecycle event announces (``response.running`` → running)."""
        last = self.type.rsplit(".", 1)[-1]
        if last in TERMINAL_STATUSES or last in ("queued", "loading", "running", "cancelling"):
            return last
        return None

    @property
    def is_terminal(self) -> bool:
        return self.status in TERMINAL_STATUSES

    def to_json(self) -> dict[str, Any]:
        return {
            "sequence_number": self.sequence_number,
            "type": self.type,
            "task_id": self.task_id,
            "created_at": self.created_at,
            "data": self.data,
        }


def events_path(task_id: str) -> str:
    kind = "responses" if task_id.startswith("resp_") else "tasks"
    return f"/v1/{kind}/{task_id}/events"


def follow_events(
    transport: HttpTransport,
    task_id: str | None,
    after: int = 0,
    *,
    open_stream: StreamOpener | None = None,
) -> Iterator[Event]:
    """The task's events after ``after``, then live ones, ending after the terminal event."""

    def open_events(known_id: str | None, last: int) -> EventStreamReply:
        if known_id is None:
            raise ValueError("the task id is needed to follow its events")
        return transport.open_stream("GET", events_path(known_id), last_event_id=last)

    opener = open_stream or open_events
    last = after
    failures = 0
    while True:
        stream: EventStreamReply | None = None
        try:
            stream = opener(task_id, last)
            for message in stream.messages():
                event = Event.from_json(json.loads(message.data))
                task_id = task_id or event.task_id
                if event.sequence_number <= last:
                    continue  # already yielded before a reconnection
                last = event.sequence_number
                failures = 0
                yield event
                if event.is_terminal:
                    return
            problem: Exception = ConnectionFailed("the event stream ended before the task did")
        except NETWORK_ERRORS as exc:
            problem = transport.failure_of(exc)
        except (ConnectionFailed, ServiceUnavailable) as exc:
            problem = exc
        finally:
            if stream is not None:
                stream.close()
        failures += 1
        if failures > transport.retry.reconnects:
            raise problem
        transport.pause(failures, getattr(problem, "retry_after", None))
