"""Task events over HTTP (LMSP §4.3): JSON pages, SSE replay, resume, live, back-pressure.

The tasks here are driven through ``service.engine`` directly (create,
transition, append output), so no model is needed.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest

from desktop.lmsp.store.tasks import NewEvent
from desktop.lmsp.tasks.states import TaskStatus
from tests.integration.conftest import ALL_SCOPES, Api

KIND = "test.job"


@dataclass
class SseEvent:
    id: int | None
    type: str | None
    data: dict[str, Any] | None
    comment: str | None = None


async def read_sse(response: aiohttp.ClientResponse, *, comments: bool = False) -> Any:
    """Yield events (and, if asked, comments) until the server closes the stream."""
    fields: dict[str, str] = {}
    async for raw in response.content:
        line = raw.decode().rstrip("\n").rstrip("\r")
        if line.startswith(":"):
            if comments:
                yield SseEvent(None, None, None, comment=line[1:].strip())
            continue
        if line:
            name, _, value = line.partition(":")
            fields[name] = value.removeprefix(" ")
            continue
        if fields:
            yield SseEvent(int(fields["id"]), fields["event"], json.loads(fields["data"]))
            fields = {}


@pytest.fixture
async def client(api: Api) -> dict[str, Any]:
    api.service.set_paused(True)
    return await api.pair("Reader", ALL_SCOPES)


async def running_task(api: Api, owner: str) -> str:
    task = await api.service.engine.create(kind=KIND, owner=owner, on_restart="fail", params={})
    await api.service.engine.start(task.id, TaskStatus.RUNNING, {"attempt": 1})
    return task.id


async def add_deltas(api: Api, task_id: str, count: int, size: int = 8) -> None:
    events = [NewEvent(f"{KIND}.delta", {"delta": "x" * size}) for _ in range(count)]
    await api.service.engine.append_output(task_id, events)


async def finish(api: Api, task_id: str) -> None:
    await api.service.engine.finish(task_id, completed_data=lambda task: {})


def sse_headers(token: str, last_event_id: int | None = None) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {token}", "Accept": "text/event-stream"}
    if last_event_id is not None:
        headers["Last-Event-ID"] = str(last_event_id)
    return headers


async def collect(api: Api, path: str, headers: dict[str, str]) -> list[SseEvent]:
    async with api.http.get(api.url + path, headers=headers) as response:
        assert response.status == 200
        assert response.content_type == "text/event-stream"
        return [event async for event in read_sse(response)]


async def test_json_pages(api: Api, client: dict[str, Any]) -> None:
    task_id = await running_task(api, client["client_id"])
    await add_deltas(api, task_id, 5)
    path = f"/v1/tasks/{task_id}/events"
    _, page, _ = await api.call("GET", f"{path}?after=1&limit=3", token=client["token"])
    assert [e["sequence_number"] for e in page["data"]] == [2, 3, 4]
    assert page["has_more"] is True and page["object"] == "list"
    _, rest, _ = await api.call("GET", f"{path}?after=4", token=client["token"])
    assert [e["sequence_number"] for e in rest["data"]] == [5, 6, 7]
    assert rest["has_more"] is False
    status, error, _ = await api.call("GET", f"{path}?after=-1", token=client["token"])
    assert status == 400 and error["error"]["param"] == "after"


async def test_replay_after_and_last_event_id(api: Api, client: dict[str, Any]) -> None:
    task_id = await running_task(api, client["client_id"])
    await add_deltas(api, task_id, 5)
    await finish(api, task_id)  # events 1..8: queued, running, 5 deltas, completed
    path = f"/v1/tasks/{task_id}/events"
    everything = await collect(api, path, sse_headers(client["token"]))
    assert [e.id for e in everything] == list(range(1, 9))
    assert everything[-1].type == f"{KIND}.completed"
    assert everything[0].data == {
        "sequence_number": 1,
        "type": f"{KIND}.queued",
        "task_id": task_id,
        "created_at": everything[0].data["created_at"] if everything[0].data else None,
        "data": {},
    }
    after_three = await collect(api, path + "?after=3", sse_headers(client["token"]))
    assert [e.id for e in after_three] == [4, 5, 6, 7, 8]
    header_wins = await collect(api, path + "?after=1", sse_headers(client["token"], 6))
    assert [e.id for e in header_wins] == [7, 8]
    status, body, _ = await api.call(
        "GET", path, headers={**sse_headers(client["token"]), "Last-Event-ID": "x"}
    )
    assert status == 400 and body["error"]["param"] == "Last-Event-ID"


async def test_live_then_resume_exactly_once(api: Api, client: dict[str, Any]) -> None:
    task_id = await running_task(api, client["client_id"])
    path = f"/v1/tasks/{task_id}/events"
    seen: list[int] = []
    async with api.http.get(api.url + path, headers=sse_headers(client["token"])) as response:
        events = read_sse(response)
        for _ in range(2):  # queued, running (replayed)
            seen.append((await anext(events)).id or 0)
        await add_deltas(api, task_id, 3)
        for _ in range(3):  # live
            seen.append((await anext(events)).id or 0)
    # Disconnected. More output arrives while the client is away.
    await add_deltas(api, task_id, 4)
    await finish(api, task_id)
    resumed = await collect(api, path, sse_headers(client["token"], seen[-1]))
    ids = seen + [e.id or 0 for e in resumed]
    assert ids == list(range(1, 11))


async def test_stream_ends_after_terminal_event_while_live(
    api: Api, client: dict[str, Any]
) -> None:
    task_id = await running_task(api, client["client_id"])

    async def finish_soon() -> None:
        await asyncio.sleep(0.2)
        await add_deltas(api, task_id, 2)
        await finish(api, task_id)

    finisher = asyncio.create_task(finish_soon())
    events = await asyncio.wait_for(
        collect(api, f"/v1/tasks/{task_id}/events", sse_headers(client["token"])), 10
    )
    await finisher
    assert [e.id for e in events] == [1, 2, 3, 4, 5]


async def test_keep_alive_comment(api: Api, client: dict[str, Any]) -> None:
    api.service._api._keepalive_s = 0.2
    await api.service.restart_listener()
    api.url = api.service.url
    task_id = await running_task(api, client["client_id"])
    path = f"/v1/tasks/{task_id}/events?after=2"
    async with api.http.get(api.url + path, headers=sse_headers(client["token"])) as response:
        first = await asyncio.wait_for(anext(read_sse(response, comments=True)), 5)
    assert first.comment == "keep-alive"


async def test_revocation_closes_open_streams(api: Api, client: dict[str, Any]) -> None:
    task_id = await running_task(api, client["client_id"])
    path = f"/v1/tasks/{task_id}/events"
    async with api.http.get(api.url + path, headers=sse_headers(client["token"])) as response:
        events = read_sse(response)
        assert (await anext(events)).id == 1
        assert (await anext(events)).id == 2
        await api.service.revoke_client(client["client_id"])
        rest = await asyncio.wait_for(_drain(events), 5)
    assert rest == []


async def _drain(events: Any) -> list[SseEvent]:
    return [event async for event in events]


async def test_paused_reader_does_not_block_the_writer(api: Api, client: dict[str, Any]) -> None:
    task_id = await running_task(api, client["client_id"])
    path = f"/v1/tasks/{task_id}/events"
    batches, per_batch, size = 40, 50, 4096  # 8 MB, far more than socket buffers hold
    async with api.http.get(api.url + path, headers=sse_headers(client["token"])) as response:
        assert response.status == 200
        await asyncio.sleep(0.1)  # the server has started following; the client reads nothing
        started = time.monotonic()
        for _ in range(batches):
            await add_deltas(api, task_id, per_batch, size)
        await finish(api, task_id)
        elapsed = time.monotonic() - started
        subscriptions = api.service.hub._by_task.get(task_id, set())
        assert all(len(s._items) <= s._limit for s in subscriptions)
        ids = [event.id async for event in read_sse(response)]
    assert ids == list(range(1, 2 + batches * per_batch + 2))
    assert elapsed < 30, f"the writer waited for the reader ({elapsed:.1f}s)"
