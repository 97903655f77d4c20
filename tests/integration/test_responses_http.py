"""``/v1/responses`` and ``/v1/tasks`` over HTTP, and ``Idempotency-Key`` (LMSP §4, §6).

The model registered here has no file, so its tasks fail fast (``model_missing``
or ``model_load_failed``) without llama.cpp: enough to check every mode, the
status codes, the headers and the idempotency rules.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from desktop.lmsp.requests import ResponseRequest
from tests.integration.conftest import ALL_SCOPES, Api, register_fake_model
from tests.integration.test_events_sse import read_sse, sse_headers

BODY = {"model": "fake-model", "input": "Write a haiku about SQLite", "max_output_tokens": 8}


@pytest.fixture
async def client(api: Api) -> dict[str, Any]:
    await register_fake_model(api.service)
    return await api.pair("Writer", ALL_SCOPES)


async def wait_finished(api: Api, task_id: str) -> dict[str, Any]:
    for _ in range(200):
        task = await api.service.get_task(task_id)
        if task.status.is_terminal:
            return task.to_api()
        await asyncio.sleep(0.05)
    raise AssertionError("task did not finish")


async def test_background_answers_202_with_location(api: Api, client: dict[str, Any]) -> None:
    status, body, headers = await api.call(
        "POST", "/v1/responses", token=client["token"], json={**BODY, "background": True}
    )
    assert status == 202, body
    assert body["object"] == "response" and body["status"] == "queued"
    assert headers["Location"] == f"/v1/responses/{body['id']}"
    assert body["on_restart"] == "resume"
    stored = await api.service.get_task(body["id"])  # persisted before the 202
    assert stored.owner == client["client_id"]
    await wait_finished(api, body["id"])
    status, fetched, _ = await api.call("GET", headers["Location"], token=client["token"])
    assert status == 200 and fetched["status"] == "failed"
    status, _, _ = await api.call("DELETE", headers["Location"], token=client["token"])
    assert status == 204
    status, _, _ = await api.call("GET", headers["Location"], token=client["token"])
    assert status == 404


async def test_blocking_answers_the_finished_response(api: Api, client: dict[str, Any]) -> None:
    status, body, _ = await api.call("POST", "/v1/responses", token=client["token"], json=BODY)
    assert status == 200, body
    assert body["status"] in ("completed", "failed") and body["on_restart"] == "fail"


async def test_stream_carries_every_event_to_the_terminal_one(
    api: Api, client: dict[str, Any]
) -> None:
    async with api.http.post(
        api.url + "/v1/responses",
        json={**BODY, "stream": True},
        headers=sse_headers(client["token"]),
    ) as response:
        assert response.status == 200
        assert response.content_type == "text/event-stream"
        events = [event async for event in read_sse(response)]
    assert [e.id for e in events] == list(range(1, len(events) + 1))
    assert events[0].type == "response.queued"
    assert events[-1].type in ("response.completed", "response.failed")


async def test_validation_names_the_field(api: Api, client: dict[str, Any]) -> None:
    cases = [
        ({**BODY, "max_output_tokens": 0}, "max_output_tokens"),
        ({**BODY, "max_output_tokens": 32769}, "max_output_tokens"),
        ({**BODY, "temperature": 2.5}, "temperature"),
        ({**BODY, "top_p": 0}, "top_p"),
        ({**BODY, "seed": -1}, "seed"),
        ({**BODY, "seed": "42"}, "seed"),
        ({**BODY, "metadata": {"a": 1}}, "metadata.a"),
        ({**BODY, "metadata": {str(i): "v" for i in range(17)}}, "metadata"),
        ({**BODY, "input": "x" * (256 * 1024 + 1)}, "input"),
        ({**BODY, "input": [{"role": "robot", "content": "hi"}]}, "input.0.role"),
        ({**BODY, "surprise": True}, "surprise"),
        ({**BODY, "background": True, "stream": True}, "stream"),
        ({"input": "no model"}, "model"),
    ]
    for body, param in cases:
        status, error, _ = await api.call("POST", "/v1/responses", token=client["token"], json=body)
        assert status == 400, (param, error)
        assert error["error"] == {
            "code": "invalid_request",
            "message": error["error"]["message"],
            "param": param,
        }
    status, error, _ = await api.call(
        "POST", "/v1/responses", token=client["token"], data=b"{not json"
    )
    assert status == 400 and error["error"]["code"] == "invalid_request"
    status, error, _ = await api.call(
        "POST", "/v1/responses", token=client["token"], json={**BODY, "model": "nope"}
    )
    assert status == 404 and error["error"]["code"] == "model_not_found"
    tasks, _ = await api.service.list_tasks()
    assert tasks == []  # nothing stored for a rejected request


async def test_task_list_filters_and_pages(api: Api, client: dict[str, Any]) -> None:
    api.service.set_paused(True)
    ids = []
    for _ in range(5):
        created = await api.service.create_response(
            ResponseRequest(model="fake-model", input="hi", background=True),
            owner=client["client_id"],
        )
        ids.append(created["id"])
    token = client["token"]
    _, first, _ = await api.call("GET", "/v1/tasks?limit=2", token=token)
    assert [t["id"] for t in first["data"]] == ids[::-1][:2] and first["has_more"]
    _, second, _ = await api.call(
        "GET", f"/v1/tasks?limit=3&after={first['data'][-1]['id']}", token=token
    )
    assert [t["id"] for t in second["data"]] == ids[::-1][2:5] and not second["has_more"]
    _, queued, _ = await api.call(
        "GET", "/v1/tasks?status=queued,running&kind=response", token=token
    )
    assert len(queued["data"]) == 5
    _, none, _ = await api.call("GET", "/v1/tasks?kind=model.import", token=token)
    assert none["data"] == []
    for bad in ("status=bogus", "limit=0", "limit=101"):
        status, error, _ = await api.call("GET", f"/v1/tasks?{bad}", token=token)
        assert status == 400, bad
        assert error["error"]["param"] == bad.split("=")[0]
    _, task, _ = await api.call("GET", f"/v1/tasks/{ids[0]}", token=token)
    assert task["object"] == "task" and task["kind"] == "response"


async def test_cancel_statuses(api: Api, client: dict[str, Any]) -> None:
    api.service.set_paused(True)
    created = await api.service.create_response(
        ResponseRequest(model="fake-model", input="hi", background=True),
        owner=client["client_id"],
    )
    path = f"/v1/tasks/{created['id']}/cancel"
    status, task, _ = await api.call("POST", path, token=client["token"])
    assert status == 200 and task["status"] == "cancelled"
    status, task, _ = await api.call("POST", path, token=client["token"])
    assert status == 200 and task["status"] == "cancelled"  # idempotent, no change

    done = await api.service.create_response(
        ResponseRequest(model="fake-model", input="hi", background=True),
        owner=client["client_id"],
    )
    api.service.set_paused(False)
    await wait_finished(api, done["id"])
    status, body, _ = await api.call(
        "POST", f"/v1/responses/{done['id']}/cancel", token=client["token"]
    )
    assert status == 409 and body["error"]["code"] == "invalid_state"
    assert body["task"]["id"] == done["id"]


# -- idempotency (LMSP §6) ---------------------------------------------------


async def test_idempotent_background_replay(api: Api, client: dict[str, Any]) -> None:
    headers = {"Idempotency-Key": "order-1"}
    body = {**BODY, "background": True}
    status, first, first_headers = await api.call(
        "POST", "/v1/responses", token=client["token"], json=body, headers=headers
    )
    assert status == 202
    status, again, again_headers = await api.call(
        "POST", "/v1/responses", token=client["token"], json=body, headers=headers
    )
    assert status == 202 and again == first
    assert again_headers["Idempotent-Replayed"] == "true"
    assert again_headers["Location"] == first_headers["Location"]
    tasks, _ = await api.service.list_tasks()
    assert len(tasks) == 1  # no second task, ever

    status, error, _ = await api.call(
        "POST",
        "/v1/responses",
        token=client["token"],
        json={**body, "input": "something else"},
        headers=headers,
    )
    assert status == 422 and error["error"]["code"] == "idempotency_key_reused"


async def test_keys_are_scoped_per_client(api: Api, client: dict[str, Any]) -> None:
    other = await api.pair("Other", ALL_SCOPES)
    headers = {"Idempotency-Key": "same-key"}
    body = {**BODY, "background": True}
    _, mine, _ = await api.call(
        "POST", "/v1/responses", token=client["token"], json=body, headers=headers
    )
    status, theirs, replay_headers = await api.call(
        "POST", "/v1/responses", token=other["token"], json=body, headers=headers
    )
    assert status == 202 and theirs["id"] != mine["id"]
    assert "Idempotent-Replayed" not in replay_headers


async def test_in_progress_then_finished_blocking_key(api: Api, client: dict[str, Any]) -> None:
    api.service.set_paused(True)  # the blocking request waits on a queued task
    headers = {"Idempotency-Key": "sync-1", "Authorization": f"Bearer {client['token']}"}
    first = asyncio.create_task(
        api.http.post(api.url + "/v1/responses", json=BODY, headers=headers)
    )
    for _ in range(100):
        if (await api.service.list_tasks())[0]:
            break
        await asyncio.sleep(0.02)
    status, error, response_headers = await api.call(
        "POST", "/v1/responses", json=BODY, headers=headers
    )
    assert status == 409 and error["error"]["code"] == "idempotency_key_in_progress"
    assert "Retry-After" in response_headers
    api.service.set_paused(False)
    answer = await asyncio.wait_for(first, 30)
    finished = await answer.json()
    assert answer.status == 200
    status, replayed, replay_headers = await api.call(
        "POST", "/v1/responses", json=BODY, headers=headers
    )
    assert status == 200 and replayed == finished
    assert replay_headers["Idempotent-Replayed"] == "true"


async def test_invalid_keys_and_unrecorded_validation(api: Api, client: dict[str, Any]) -> None:
    for key in ("", "x" * 256, "caf\u00e9", "tab\there"):
        status, error, _ = await api.call(
            "POST",
            "/v1/pairing",
            json={"client_name": "k"},
            headers={"Idempotency-Key": key.encode("utf-8").decode("latin-1")},
        )
        assert status == 400 and error["error"]["code"] == "invalid_idempotency_key", key
    headers = {"Idempotency-Key": "valid-later"}
    status, _, _ = await api.call(
        "POST", "/v1/responses", token=client["token"], json={**BODY, "top_p": 5}, headers=headers
    )
    assert status == 400
    status, _, _ = await api.call(
        "POST",
        "/v1/responses",
        token=client["token"],
        json={**BODY, "background": True},
        headers=headers,
    )
    assert status == 202  # the rejected request left no key behind


async def test_pairing_and_cancel_keys(api: Api, client: dict[str, Any]) -> None:
    headers = {"Idempotency-Key": "pair-once"}
    _, first, _ = await api.call("POST", "/v1/pairing", json={"client_name": "P"}, headers=headers)
    status, again, again_headers = await api.call(
        "POST", "/v1/pairing", json={"client_name": "P"}, headers=headers
    )
    assert status == 202 and again["id"] == first["id"]
    assert again_headers["Idempotent-Replayed"] == "true"
    assert len(api.service.list_pairings()) == 1

    api.service.set_paused(True)
    created = await api.service.create_response(
        ResponseRequest(model="fake-model", input="hi", background=True),
        owner=client["client_id"],
    )
    cancel = f"/v1/tasks/{created['id']}/cancel"
    key = {"Idempotency-Key": "cancel-1"}
    status, body, _ = await api.call("POST", cancel, token=client["token"], headers=key)
    assert status == 200
    status, replay, replay_headers = await api.call(
        "POST", cancel, token=client["token"], headers=key
    )
    assert status == 200 and replay == body and replay_headers["Idempotent-Replayed"] == "true"
