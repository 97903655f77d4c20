"""Test helpers: wait for a task to end by following its events, as a client would."""

from __future__ import annotations

import asyncio

from desktop.lmsp.service import Service
from desktop.lmsp.store.tasks import TaskEvent

TASK_TIMEOUT_S = 120.0


async def events_until_end(
    service: Service, task_id: str, *, timeout_s: float = TASK_TIMEOUT_S
) -> list[TaskEvent]:
    """Every event of the task, from the first to the terminal one."""

    async def collect() -> list[TaskEvent]:
        return [event async for event in service.follow_events(task_id)]

    return await asyncio.wait_for(collect(), timeout_s)
