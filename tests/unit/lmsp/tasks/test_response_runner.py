"""Response tasks on the real starter model: batches, completion, cancellation, failures."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from desktop.lmsp.requests import IdempotencyRequest, ResponseRequest
from desktop.lmsp.runtime import ChatMessage, GenerationSettings, LlamaEngine
from desktop.lmsp.service import Service, ServiceOptions
from desktop.lmsp.store import idempotency as idempotency_sql
from desktop.lmsp.store.tasks import NewEvent
from desktop.lmsp.tasks.states import TaskStatus
from tests.starter_model import STARTER_MODEL_NAME, register_starter_model
from tests.unit.lmsp.service_tasks import events_until_end

pytestmark = pytest.mark.model

PROMPT = "Name three colours."
TOKENS = 12


@pytest.fixture
async def service(
    tmp_path: Path, shared_llama: LlamaEngine, starter_model_path: Path
) -> AsyncIterator[Service]:
    running = Service(ServiceOptions(data_dir=tmp_path / "data", port=0), llama_engine=shared_llama)
    await running.start()
    await register_starter_model(running, starter_model_path)
    await running.update_settings({"snapshot_every_tokens": 4})
    yield running
    await running.stop()


def reference_text(llama: LlamaEngine, seed: int, temperature: float) -> str:
    prompt = llama.format_prompt([ChatMessage("user", PROMPT)])
    settings = GenerationSettings(TOKENS, temperature=temperature, top_p=0.95, seed=seed)
    return llama.generate(prompt, settings).text


def request(**changes: object) -> ResponseRequest:
    fields: dict[str, object] = {
        "model": STARTER_MODEL_NAME,
        "input": PROMPT,
        "max_output_tokens": TOKENS,
        "temperature": 0.0,
        "top_p": 0.95,
        "seed": 7,
        "background": True,
    }
    fields.update(changes)
    return ResponseRequest(**fields)  # type: ignore[arg-type]


async def test_background_response_completes_with_batched_deltas(
    service: Service, shared_llama: LlamaEngine
) -> None:
    created = await service.create_response(request(), owner="local")
    assert created["status"] == "queued"
    assert created["on_restart"] == "resume"
    events = await events_until_end(service, created["id"])
    types = [event.type for event in events]
    assert types[:3] == ["response.queued", "response.loading", "response.running"]
    assert events[1].data == {"model": "mdl_starter"}
    assert events[2].data == {"attempt": 1}
    assert types[-1] == "response.completed"
    deltas = [event.data for event in events if event.type == "response.output_text.delta"]
    assert len(deltas) >= 2
    assert all(d["output_tokens"] % 4 == 0 for d in deltas[:-1])
    text = "".join(d["delta"] for d in deltas)
    final = events[-1].data["response"]
    assert final["status"] == "completed"
    assert final["output_text"] == text == reference_text(shared_llama, 7, 0.0)
    assert final["output"][0]["content"][0]["text"] == text
    assert final["usage"]["output_tokens"] == deltas[-1]["output_tokens"]
    assert final["last_sequence_number"] == events[-1].sequence_number
    stored = await service.get_response(created["id"])
    assert stored == final
    task = await service.get_task(created["id"])
    assert task.snapshot is None
    assert task.progress == {
        "done": final["usage"]["output_tokens"],
        "total": TOKENS,
        "unit": "tokens",
    }


async def test_seeded_sampling_without_a_seed_stores_one(
    service: Service, shared_llama: LlamaEngine
) -> None:
    created = await service.create_response(request(seed=None, temperature=0.8), owner="local")
    events = await events_until_end(service, created["id"])
    task = await service.get_task(created["id"])
    seed = task.params["seed"]
    assert isinstance(seed, int)
    final = events[-1].data["response"]
    assert final["output_text"] == reference_text(shared_llama, seed, 0.8)


async def test_cancel_while_running_ends_cancelled_and_nothing_follows(service: Service) -> None:
    await service.update_settings({"snapshot_every_tokens": 1})
    created = await service.create_response(request(), owner="local")
    seen = []
    async for event in service.follow_events(created["id"]):
        seen.append(event)
        if event.type == "response.output_text.delta" and len(seen) == 4:
            outcome = await service.cancel_task(created["id"])
            assert outcome.task.status is TaskStatus.CANCELLING
    types = [event.type for event in seen]
    assert "response.cancelling" in types
    assert types[-1] == "response.cancelled"
    stored = await service.events_after(created["id"], 0, 1000)
    assert stored[-1].type == "response.cancelled"
    assert [e.sequence_number for e in stored] == list(range(1, len(stored) + 1))
    response = await service.get_response(created["id"])
    assert response["status"] == "cancelled"
    assert response["usage"]["output_tokens"] < TOKENS


async def test_synchronous_response_completes_its_idempotency_key(service: Service) -> None:
    key = IdempotencyRequest(owner="local", key="k-1", fingerprint="f" * 64, ttl_hours=24)
    created = await service.create_response(
        request(background=False), owner="local", idempotency=key
    )
    assert created["on_restart"] == "fail"
    stored = await idempotency_sql.lookup(service.db, "local", "k-1", "f" * 64)
    assert stored is not None and not stored.answered and stored.task_id == created["id"]
    events = await events_until_end(service, created["id"])
    stored = await idempotency_sql.lookup(service.db, "local", "k-1", "f" * 64)
    assert stored is not None and stored.status_code == 200
    assert stored.body == events[-1].data["response"]


async def test_a_missing_model_file_fails_the_task(service: Service, tmp_path: Path) -> None:
    async with service.db.write() as tx:
        await tx.execute(
            "UPDATE models SET path = ? WHERE id = 'mdl_starter'", (str(tmp_path / "gone.gguf"),)
        )
    created = await service.create_response(request(), owner="local")
    events = await events_until_end(service, created["id"])
    assert events[-1].type == "response.failed"
    assert events[-1].data["error"]["code"] == "model_missing"


async def test_an_unusable_snapshot_restarts_from_scratch(
    tmp_path: Path, shared_llama: LlamaEngine, starter_model_path: Path
) -> None:
    data = tmp_path / "data"
    options = ServiceOptions(data_dir=data, port=0, run_tasks=False)
    first = Service(options, llama_engine=shared_llama)
    await first.start()
    await register_starter_model(first, starter_model_path)
    created = await first.create_response(request(), owner="local")
    engine = first.engine
    await engine.transition(created["id"], TaskStatus.LOADING, event_data={"model": "mdl_starter"})
    await engine.transition(created["id"], TaskStatus.RUNNING, event_data={"attempt": 1})
    await engine.append_output(
        created["id"],
        [NewEvent("response.output_text.delta", {"delta": "Bogus", "output_tokens": 1})],
        snapshot={"generation": {"version": 99}},
    )
    await first.stop()
    second = Service(ServiceOptions(data_dir=data, port=0), llama_engine=shared_llama)
    await second.start()
    try:
        events = await events_until_end(second, created["id"])
        types = [event.type for event in events]
        assert "response.resumed" in types
        requeued = [e for e in events if e.type == "response.requeued"]
        assert requeued and requeued[0].data["reason"] == "unusable_snapshot"
        after = events[events.index(requeued[0]) + 1 :]
        text = "".join(e.data["delta"] for e in after if e.type == "response.output_text.delta")
        final = events[-1].data["response"]
        assert final["output_text"] == text == reference_text(shared_llama, 7, 0.0)
    finally:
        await second.stop()


async def test_paused_service_starts_no_new_task(service: Service) -> None:
    service.set_paused(True)
    created = await service.create_response(request(), owner="local")
    task = await service.get_task(created["id"])
    assert task.status is TaskStatus.QUEUED
    service.set_paused(False)
    events = await events_until_end(service, created["id"])
    assert events[-1].type == "response.completed"
