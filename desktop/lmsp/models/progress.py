"""Progress reporting and cancellation shared by hashing, placement and download.

Long file operations take two optional callables from their caller:
``on_progress(done, total)``, called at most every ``interval_s`` seconds plus
once at the end, and ``should_stop()``, checked between chunks. When
``should_stop()`` answers true the operation removes what it created and raises
a subclass of :class:`OperationCancelled`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Generic, TypeVar

StopCheck = Callable[[], bool]
"""Answers true when the running operation should stop as soon as possible."""

TotalT = TypeVar("TotalT")

DEFAULT_PROGRESS_INTERVAL_S = 0.25


class OperationCancelled(Exception):
    """A long file operation stopped because its ``should_stop()`` answered true."""


class ProgressThrottle(Generic[TotalT]):
    """Forwards progress to a callback at most once per ``interval_s`` seconds."""

    def __init__(
        self,
        callback: Callable[[int, TotalT], None] | None,
        interval_s: float = DEFAULT_PROGRESS_INTERVAL_S,
    ) -> None:
        self._callback = callback
        self._interval_s = interval_s
        self._last_report = float("-inf")
        self._last_done: int | None = None

    def report(self, done: int, total: TotalT, *, force: bool = False) -> None:
        """Calls the callback if ``interval_s`` has passed, or always when ``force``."""
        if self._callback is None:
            return
        now = time.monotonic()
        if not force and now - self._last_report < self._interval_s:
            return
        if force and done == self._last_done:
            return
        self._last_report = now
        self._last_done = done
        self._callback(done, total)


def never_stop() -> bool:
    """The default ``should_stop``: the operation runs to its end."""
    return False
