"""Retried creates reuse their Idempotency-Key, so a lost answer never makes a second task.

``BreakingProxy`` forwards the create to the service, lets it commit and
start answering, then drops the connection without passing the answer on.
The client retries with the same key and gets the stored answer.
"""

from __future__ import annotations

import pytest

from desktop.client import IdempotencyKeyReused, LmspClient, RetryPolicy
from tests.integration.client.conftest import ThreadedService
from tests.integration.client.proxy import SWALLOW_ANSWER, BreakingProxy, CutAfter
from tests.integration.conftest import register_fake_model

FAST = RetryPolicy(base_delay_s=0.01, max_delay_s=0.05)


@pytest.fixture
def fake_model(running: ThreadedService) -> str:
    """A model whose file does not exist: its responses fail fast, without llama.cpp."""
    running.call(register_fake_model(running.service, "fake-model"))
    return "fake-model"


def response_ids(client: LmspClient) -> list[str]:
    return [task["id"] for task in client.list_tasks(kind="response").data]


def test_background_create_retried_after_a_lost_answer_creates_one_task(
    client: LmspClient, proxy: BreakingProxy, fake_model: str
) -> None:
    proxy.plan = [SWALLOW_ANSWER]
    through_proxy = LmspClient(proxy.url, client.transport.token, retry=FAST)

    created = through_proxy.create_response(fake_model, "hello", background=True)

    assert proxy.connections == 2
    assert created["status"] == "queued"
    assert response_ids(client) == [created["id"]]


def test_blocking_create_retried_after_a_lost_answer_creates_one_task(
    client: LmspClient, proxy: BreakingProxy, fake_model: str
) -> None:
    proxy.plan = [SWALLOW_ANSWER]
    through_proxy = LmspClient(proxy.url, client.transport.token, retry=FAST)

    finished = through_proxy.create_response(fake_model, "hello")

    assert proxy.connections >= 2
    assert finished["status"] == "failed"  # the model file is missing
    assert response_ids(client) == [finished["id"]]


def test_streamed_create_cut_early_reconnects_to_the_same_task(
    client: LmspClient, proxy: BreakingProxy, fake_model: str
) -> None:
    proxy.plan = [CutAfter(250), CutAfter(450)]
    through_proxy = LmspClient(proxy.url, client.transport.token, retry=FAST)

    stream = through_proxy.stream_response(fake_model, "hello")
    events = list(stream)

    numbers = [event.sequence_number for event in events]
    assert proxy.connections >= 3
    assert numbers == list(range(1, len(events) + 1))
    assert events[0].type == "response.queued" and events[-1].type == "response.failed"
    assert stream.status == "failed" and stream.error is not None
    assert response_ids(client) == [stream.response_id]


def test_the_same_key_with_another_request_is_refused(client: LmspClient, fake_model: str) -> None:
    first = client.create_response(fake_model, "one", background=True, idempotency_key="k-1")
    again = client.create_response(fake_model, "one", background=True, idempotency_key="k-1")
    assert again["id"] == first["id"]
    with pytest.raises(IdempotencyKeyReused):
        client.create_response(fake_model, "two", background=True, idempotency_key="k-1")
    assert response_ids(client) == [first["id"]]
