"""The OpenAI-compatible endpoints with the official ``openai`` package, no model needed.

Responses here are real LMSP response tasks whose events are driven through
``service.engine`` (the scheduler is paused, so no worker takes them); that
makes the stream numbering and ``starting_after`` resumption checkable
event by event.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import openai
import pytest

from desktop.lmsp.requests import ResponseRequest
from desktop.lmsp.store import responses as response_sql
from desktop.lmsp.store.database import WriteTransaction
from desktop.lmsp.store.tasks import NewEvent, TaskRecord
from desktop.lmsp.tasks.states import TaskStatus
from tests.integration.client.conftest import ALL_SCOPES, ThreadedService
from tests.integration.conftest import register_fake_model

PIECES = ["Quiet ", "pages ", "turn ", "in ", "the ", "lamp", "light"]


@pytest.fixture
def token(running: ThreadedService) -> str:
    running.call(register_fake_model(running.service, "fake-model"))
    return running.paired_token(ALL_SCOPES)


@pytest.fixture
def oai(running: ThreadedService, token: str) -> Iterator[openai.OpenAI]:
    with openai.OpenAI(
        base_url=running.url + "/openai/v1", api_key=token, max_retries=0, timeout=20
    ) as client:
        yield client


def queued_response(running: ThreadedService, token: str) -> str:
    """A response task nobody works on (the scheduler is paused)."""
    running.service.set_paused(True)
    owner = running.call(running.service.clients.authenticate(f"Bearer {token}")).client_id
    assert owner is not None
    request = ResponseRequest(model="fake-model", input="hi", background=True, max_output_tokens=64)
    created = running.call(running.service.create_response(request, owner=owner))
    return str(created["id"])


def drive_to_completion(running: ThreadedService, response_id: str, pause: float = 0.0) -> None:
    engine = running.service.engine
    running.call(engine.start(response_id, TaskStatus.RUNNING, {"attempt": 1}))
    for count, piece in enumerate(PIECES, start=1):
        delta = NewEvent("response.output_text.delta", {"delta": piece, "output_tokens": count})
        running.call(engine.append_output(response_id, [delta]))
        if pause:
            threading.Event().wait(pause)
    usage = {"input_tokens": 3, "output_tokens": len(PIECES), "total_tokens": 3 + len(PIECES)}
    final = {"id": response_id, "status": "completed", "output_text": "".join(PIECES)}
    final |= {"usage": usage, "completed_at": "2026-12-02T08:25:42.123Z"}

    async def store_output(tx: WriteTransaction, _task: TaskRecord) -> None:
        await response_sql.update_output_in(
            tx, response_id, final["output_text"], usage=usage, completed_at=final["completed_at"]
        )

    running.call(
        engine.finish(
            response_id,
            completed_data=lambda _task: {"response": final},
            in_transaction=store_output,
        )
    )


def numbered(events: Any) -> list[tuple[int, str]]:
    return [(event.sequence_number, event.type) for event in events]


def test_models_are_listed_by_name(oai: openai.OpenAI) -> None:
    models = oai.models.list()
    assert [m.id for m in models.data] == ["fake-model"]
    assert models.data[0].owned_by == "lmsp-desktop"


def test_errors_have_the_openai_shape(running: ThreadedService, oai: openai.OpenAI) -> None:
    request = urllib.request.Request(running.url + "/openai/v1/models")
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(request, timeout=10)
    assert caught.value.code == 401
    body = json.loads(caught.value.read())
    caught.value.close()
    assert set(body["error"]) == {"message", "type", "param", "code"}
    assert body["error"]["type"] == "authentication_error"

    with pytest.raises(openai.NotFoundError) as missing:
        oai.chat.completions.create(model="nope", messages=[{"role": "user", "content": "x"}])
    assert missing.value.code == "model_not_found"

    with pytest.raises(openai.BadRequestError) as bad:
        oai.chat.completions.create(
            model="fake-model", messages=[{"role": "user", "content": "x"}], n=2
        )
    assert bad.value.param == "n" and bad.value.type == "invalid_request_error"

    with pytest.raises(openai.NotFoundError):
        oai.responses.retrieve("resp_unknown")


def test_scopes_apply_as_for_the_native_api(running: ThreadedService) -> None:
    reader = running.paired_token(["models:read"], name="Reader")
    with openai.OpenAI(
        base_url=running.url + "/openai/v1", api_key=reader, max_retries=0
    ) as client:
        assert client.models.list().data == []
        with pytest.raises(openai.PermissionDeniedError, match="responses:write"):
            client.responses.create(model="fake-model", input="hi")


def test_a_failed_generation_is_a_server_error(oai: openai.OpenAI) -> None:
    with pytest.raises(openai.InternalServerError):
        oai.chat.completions.create(
            model="fake-model", messages=[{"role": "user", "content": "x"}], max_tokens=4
        )
    failed = oai.responses.create(model="fake-model", input="x", max_output_tokens=4)
    assert failed.status == "failed" and failed.error is not None


def test_stream_numbering_is_stable_and_resumes_after_any_event(
    running: ThreadedService, token: str, oai: openai.OpenAI
) -> None:
    response_id = queued_response(running, token)
    drive_to_completion(running, response_id)

    everything = numbered(oai.responses.retrieve(response_id, stream=True))

    assert [n for n, _ in everything] == list(range(len(everything)))
    assert everything[0][1] == "response.created" and everything[-1][1] == "response.completed"
    for after in (0, 3, 5, len(everything) - 2):
        resumed = numbered(oai.responses.retrieve(response_id, stream=True, starting_after=after))
        assert resumed == everything[after + 1 :]
    final = oai.responses.retrieve(response_id)
    assert final.status == "completed" and final.output_text == "".join(PIECES)


def test_a_live_stream_cut_short_resumes_with_every_later_event_once(
    running: ThreadedService, token: str, oai: openai.OpenAI
) -> None:
    response_id = queued_response(running, token)
    writer = threading.Thread(target=drive_to_completion, args=(running, response_id, 0.02))
    writer.start()
    try:
        first: list[Any] = []
        with oai.responses.retrieve(response_id, stream=True) as stream:
            for event in stream:
                first.append(event)
                if len(first) == 6:
                    break
        rest = list(
            oai.responses.retrieve(
                response_id, stream=True, starting_after=first[-1].sequence_number
            )
        )
    finally:
        writer.join(30)

    numbers = [event.sequence_number for event in first + rest]
    assert numbers == list(range(len(numbers)))
    deltas = [e.delta for e in first + rest if e.type == "response.output_text.delta"]
    assert "".join(deltas) == "".join(PIECES)
    assert rest[-1].type == "response.completed"


def test_cancel_a_background_response(
    running: ThreadedService, token: str, oai: openai.OpenAI
) -> None:
    response_id = queued_response(running, token)
    assert oai.responses.retrieve(response_id).status == "queued"
    cancelled = oai.responses.cancel(response_id)
    assert cancelled.status == "cancelled"
    with pytest.raises(openai.ConflictError):
        second = queued_response(running, token)
        drive_to_completion(running, second)
        oai.responses.cancel(second)
