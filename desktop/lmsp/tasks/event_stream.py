"""Following a task's events: stored ones after N, then live ones, each exactly once.

``follow_task_events`` subscribes *before* it reads the database, so no event
can fall between the replay and the live feed; live events already replayed
are skipped by sequence number, and any gap (a slow consumer whose bounded
subscription overflowed) is filled from the database. It ends after the
terminal event, or when the task is deleted. SSE streams, the window's
timeline and the client library all read events this way.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from desktop.lmsp.notifications import (
    NotificationHub,
    SubscriptionClosed,
    SubscriptionOverflowed,
    TaskChanged,
    TaskDeleted,
)
from desktop.lmsp.store import tasks as task_sql
from desktop.lmsp.store.database import Database
from desktop.lmsp.store.tasks import TaskEvent

PAGE = 500


async def follow_task_events(
    db: Database, hub: NotificationHub, task_id: str, after: int = 0
) -> AsyncIterator[TaskEvent]:
    subscription = hub.subscribe(task_id=task_id)
    last = after
    try:
        while True:  # replay what is stored
            page = await task_sql.fetch_events_after(db, task_id, last, PAGE)
            for event in page:
                yield event
                last = event.sequence_number
                if event.is_terminal:
                    return
            if len(page) < PAGE:
                break
        task = await task_sql.fetch_task(db, task_id)
        if task is None or (task.status.is_terminal and task.last_sequence_number <= last):
            return
        while True:  # then live
            try:
                note = await subscription.get()
            except SubscriptionOverflowed:
                note = None
            except SubscriptionClosed:
                return
            if isinstance(note, TaskDeleted):
                return
            events = note.events if isinstance(note, TaskChanged) else ()
            if note is None or (events and events[0].sequence_number > last + 1):
                events = tuple(await task_sql.fetch_events_after(db, task_id, last, PAGE))
            for event in events:
                if event.sequence_number <= last:
                    continue
                yield event
                last = event.sequence_number
                if event.is_terminal:
                    return
    finally:
        subscription.close()
