"""``ResponseStream``: the events of one response as they come, with its text put together.

It wraps ``follow_events`` (so it reconnects by itself) and keeps what a
program usually wants while it iterates: the response id, the text so far
(cleared when a ``response.requeued`` event says earlier output must be
discarded, LMSP §4.3), the last status, and at the end the final response
object or the task's error.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .events import Event

JsonObject = dict[str, Any]


class ResponseStream:
    """Iterate it for the events; read ``text``, ``status``, ``response`` and ``error``."""

    def __init__(self, events: Iterator[Event], response_id: str | None = None) -> None:
        self._events = events
        self.response_id = response_id
        self.text = ""
        self.status: str | None = None
        self.response: JsonObject | None = None  # the final object, once completed
        self.error: JsonObject | None = None  # the task error, once failed
        self.restarts = 0  # how many times earlier output was discarded

    def __iter__(self) -> Iterator[Event]:
        return self

    def __next__(self) -> Event:
        event = next(self._events)
        self.response_id = self.response_id or event.task_id
        self.status = event.status or self.status
        if event.type.endswith(".output_text.delta"):
            self.text += str(event.data.get("delta", ""))
        elif event.type.endswith(".requeued"):
            self.text = ""
            self.restarts += 1
        elif event.type.endswith(".completed"):
            final = event.data.get("response")
            if isinstance(final, dict):
                self.response = final
                self.text = str(final.get("output_text", self.text))
        elif event.type.endswith(".failed"):
            error = event.data.get("error")
            self.error = error if isinstance(error, dict) else {"code": "failed", "message": ""}
        return event

    def deltas(self) -> Iterator[str]:
        """Only the text pieces, in order (a restart from scratch is not signalled here)."""
        for event in self:
            if event.type.endswith(".output_text.delta"):
                yield str(event.data.get("delta", ""))

    def until_done(self) -> str:
        """Read to the end; the final text."""
        for _event in self:
            pass
        return self.text

    def close(self) -> None:
        closer = getattr(self._events, "close", None)
        if closer is not None:
            closer()

    def __enter__(self) -> ResponseStream:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
