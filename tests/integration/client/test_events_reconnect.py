"""Following events through a connection that keeps breaking: nothing lost, nothing twice.

The task is driven through ``service.engine`` (no model needed); the client
reads it through ``BreakingProxy``, which cuts the first connections after a
few hundred bytes — often in the middle of an SSE message.
"""

from __future__ import annotations

import threading
import time

from desktop.client import Event, LmspClient, RetryPolicy
from desktop.lmsp.store.tasks import NewEvent
from desktop.lmsp.tasks.states import TaskStatus
from tests.integration.client.conftest import ThreadedService
from tests.integration.client.proxy import BreakingProxy, CutAfter

KIND = "test.job"
FAST = RetryPolicy(base_delay_s=0.01, max_delay_s=0.05)
PIECES = 40


def running_task(running: ThreadedService, owner: str) -> str:
    engine = running.service.engine
    task = running.call(engine.create(kind=KIND, owner=owner, on_restart="fail", params={}))
    running.call(engine.start(task.id, TaskStatus.RUNNING, {"attempt": 1}))
    return task.id


def append_pieces(running: ThreadedService, task_id: str, count: int, pause: float = 0.0) -> None:
    engine = running.service.engine
    for index in range(count):
        delta = NewEvent(f"{KIND}.output_text.delta", {"delta": f"piece {index}; " * 3})
        running.call(engine.append_output(task_id, [delta]))
        if pause:
            time.sleep(pause)
    running.call(engine.finish(task_id, completed_data=lambda _task: {"pieces": count}))


def assert_exactly_once(events: list[Event], count: int) -> None:
    numbers = [event.sequence_number for event in events]
    assert numbers == list(range(1, count + 4))  # queued, running, the pieces, completed
    text = "".join(str(e.data.get("delta", "")) for e in events)
    assert text == "".join(f"piece {i}; " * 3 for i in range(count))
    assert events[-1].type == f"{KIND}.completed"


def test_stored_events_survive_repeated_cuts(
    running: ThreadedService, client: LmspClient, proxy: BreakingProxy
) -> None:
    running.service.set_paused(True)
    task_id = running_task(running, client.me()["id"])
    append_pieces(running, task_id, PIECES)
    proxy.plan = [CutAfter(n) for n in (350, 420, 777, 1000, 1300, 2500)]
    through_proxy = LmspClient(proxy.url, client.transport.token, retry=FAST)

    events = list(through_proxy.follow_events(task_id))

    assert_exactly_once(events, PIECES)
    assert proxy.connections == 7  # six cut connections, then one that reached the end


def test_live_events_survive_cuts_while_the_task_runs(
    running: ThreadedService, client: LmspClient, proxy: BreakingProxy
) -> None:
    running.service.set_paused(True)
    task_id = running_task(running, client.me()["id"])
    proxy.plan = [CutAfter(n) for n in (300, 600, 900, 1200)]
    through_proxy = LmspClient(proxy.url, client.transport.token, retry=FAST)
    writer = threading.Thread(target=append_pieces, args=(running, task_id, PIECES, 0.01))
    writer.start()
    try:
        events = list(through_proxy.follow_events(task_id))
    finally:
        writer.join(30)

    assert_exactly_once(events, PIECES)
    assert proxy.connections >= 2


def test_following_from_a_sequence_number_starts_after_it(
    running: ThreadedService, client: LmspClient
) -> None:
    running.service.set_paused(True)
    task_id = running_task(running, client.me()["id"])
    append_pieces(running, task_id, 5)

    later = list(client.follow_events(task_id, after=4))
    page, has_more = client.list_events(task_id, after=0, limit=3)

    assert [e.sequence_number for e in later] == [5, 6, 7, 8]
    assert [e.sequence_number for e in page] == [1, 2, 3] and has_more
    assert client.wait(task_id)["status"] == "completed"
