"""The service's after-commit feed: what changed, for SSE streams and the window.

``NotificationHub.publish`` is only ever called from a transaction's
after-commit callback, so no subscriber can see an uncommitted change.
Subscriptions are bounded: a subscriber that falls behind is marked
``overflowed`` and catches up from the database instead of growing memory.
Listeners (the window's bridge) get every notification synchronously on the
service loop and must only hand it on.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from desktop.lmsp.store.tasks import TaskEvent, TaskRecord

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TaskChanged:
    task: TaskRecord
    events: tuple[TaskEvent, ...]


@dataclass(frozen=True)
class TaskDeleted:
    task_id: str


@dataclass(frozen=True)
class ModelChanged:
    model_id: str
    model: dict[str, Any] | None  # None: the model was removed


@dataclass(frozen=True)
class PairingChanged:
    request: dict[str, Any]


@dataclass(frozen=True)
class ClientChanged:
    client_id: str
    revoked: bool


@dataclass(frozen=True)
class SettingsChanged:
    values: dict[str, Any]


@dataclass(frozen=True)
class ServiceStateChanged:
    state: str
    detail: dict[str, Any] = field(default_factory=dict)


Notification = (
    TaskChanged
    | TaskDeleted
    | ModelChanged
    | PairingChanged
    | ClientChanged
    | SettingsChanged
    | ServiceStateChanged
)


class SubscriptionOverflowed(Exception):
    """The subscriber fell behind; it must catch up from the database."""


class SubscriptionClosed(Exception):
    """The subscription was closed (client revoked, task deleted, service stopping)."""


class Subscription:
    """A bounded queue of notifications for one consumer on the service loop."""

    def __init__(self, hub: NotificationHub, task_id: str | None, limit: int) -> None:
        self._hub = hub
        self.task_id = task_id
        self._limit = limit
        self._items: deque[Notification] = deque()
        self._ready = asyncio.Event()
        self.overflowed = False
        self.closed = False

    def _offer(self, note: Notification) -> None:
        if self.closed:
            return
        if len(self._items) >= self._limit:
            self._items.clear()
            self.overflowed = True
        else:
            self._items.append(note)
        self._ready.set()

    async def get(self) -> Notification:
        """The next notification; raises ``SubscriptionOverflowed`` once after a lag."""
        while not self._items and not self.overflowed:
            if self.closed:
                raise SubscriptionClosed
            self._ready.clear()
            await self._ready.wait()
        if self.overflowed:
            self.overflowed = False
            raise SubscriptionOverflowed
        return self._items.popleft()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._ready.set()
            self._hub._remove(self)


class NotificationHub:
    def __init__(self) -> None:
        self._all: set[Subscription] = set()
        self._by_task: dict[str, set[Subscription]] = {}
        self._listeners: list[Callable[[Notification], None]] = []

    def subscribe(self, *, task_id: str | None = None, limit: int = 256) -> Subscription:
        subscription = Subscription(self, task_id, limit)
        if task_id is None:
            self._all.add(subscription)
        else:
            self._by_task.setdefault(task_id, set()).add(subscription)
        return subscription

    def add_listener(self, listener: Callable[[Notification], None]) -> None:
        self._listeners.append(listener)

    def remove_listener(self, listener: Callable[[Notification], None]) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def publish(self, note: Notification) -> None:
        for subscription in list(self._all):
            subscription._offer(note)
        task_id = _task_id_of(note)
        if task_id is not None:
            for subscription in list(self._by_task.get(task_id, ())):
                subscription._offer(note)
        for listener in list(self._listeners):
            try:
                listener(note)
            except Exception:
                log.exception("notification listener failed")

    def close_all(self) -> None:
        for subscription in [*self._all, *(s for g in self._by_task.values() for s in g)]:
            subscription.close()

    def subscriber_count(self, task_id: str) -> int:
        return len(self._by_task.get(task_id, ()))

    def _remove(self, subscription: Subscription) -> None:
        if subscription.task_id is None:
            self._all.discard(subscription)
            return
        group = self._by_task.get(subscription.task_id)
        if group is not None:
            group.discard(subscription)
            if not group:
                del self._by_task[subscription.task_id]


def _task_id_of(note: Notification) -> str | None:
    if isinstance(note, TaskChanged):
        return note.task.id
    if isinstance(note, TaskDeleted):
        return note.task_id
    return None
