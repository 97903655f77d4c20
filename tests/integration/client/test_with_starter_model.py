"""The OpenAI SDK, the client library and the ``lmsp`` command on the real starter model.

One service and one imported model serve the whole module; every generation
is at most 8 tokens and seeded, so the same request gives the same text.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openai
import pytest

from desktop.client import LmspClient
from desktop.lmsp.requests import ModelImportRequest
from tests.integration.client.conftest import ALL_SCOPES, ThreadedService
from tests.integration.client.test_cli import ROOT, clean_env

pytestmark = pytest.mark.model

SEED = 7
PROMPT = [{"role": "user", "content": "Name three colours."}]


@pytest.fixture(scope="module")
def model_service(
    tmp_path_factory: pytest.TempPathFactory, starter_model_path: Path
) -> Iterator[tuple[ThreadedService, str, str]]:
    running = ThreadedService(tmp_path_factory.mktemp("model-service") / "data")
    try:
        service = running.service
        request = ModelImportRequest(path=str(starter_model_path), storage="reference")
        task = running.call(service.import_model(request, owner="local"))

        async def wait_for_import() -> None:
            async for _event in service.follow_events(task.id):
                pass

        running.call(wait_for_import(), timeout=120)
        models = running.call(service.list_models())
        assert len(models) == 1, models
        yield running, str(models[0]["name"]), running.paired_token(ALL_SCOPES)
    finally:
        running.stop()


@pytest.fixture
def oai(model_service: tuple[ThreadedService, str, str]) -> Iterator[openai.OpenAI]:
    running, _model, token = model_service
    with openai.OpenAI(
        base_url=running.url + "/openai/v1", api_key=token, max_retries=0, timeout=60
    ) as client:
        yield client


@pytest.fixture
def model(model_service: tuple[ThreadedService, str, str]) -> str:
    return model_service[1]


def chat(oai: openai.OpenAI, model: str, **options: Any) -> Any:
    return oai.chat.completions.create(
        model=model, messages=PROMPT, max_tokens=8, seed=SEED, temperature=0.8, **options
    )


def test_chat_completion_streamed_and_not_give_the_same_text(
    oai: openai.OpenAI, model: str
) -> None:
    whole = chat(oai, model)
    text = whole.choices[0].message.content
    assert text and whole.choices[0].finish_reason in ("stop", "length")
    assert whole.usage is not None and 0 < whole.usage.completion_tokens <= 8
    assert whole.model == model

    pieces: list[str] = []
    usage = None
    for chunk in chat(oai, model, stream=True, stream_options={"include_usage": True}):
        if chunk.usage is not None:
            usage = chunk.usage
        if chunk.choices and chunk.choices[0].delta.content:
            pieces.append(chunk.choices[0].delta.content)
    assert "".join(pieces) == text
    assert usage is not None and usage.completion_tokens == whole.usage.completion_tokens


def test_a_stop_string_ends_the_text_before_it(oai: openai.OpenAI, model: str) -> None:
    text = chat(oai, model).choices[0].message.content
    assert text is not None and len(text.strip()) >= 4
    middle = len(text) // 2
    stop = text[middle : middle + 2]
    stopped = chat(oai, model, stop=[stop])
    assert stopped.choices[0].message.content == text[: text.index(stop)]
    assert stopped.choices[0].finish_reason == "stop"

    streamed = "".join(
        chunk.choices[0].delta.content or ""
        for chunk in chat(oai, model, stop=stop, stream=True)
        if chunk.choices
    )
    assert streamed == text[: text.index(stop)]


def test_background_response_then_retrieve_until_completed(oai: openai.OpenAI, model: str) -> None:
    created = oai.responses.create(
        model=model, input="Say hello.", max_output_tokens=8, background=True
    )
    assert created.status == "queued"
    final = created
    for _event in oai.responses.retrieve(created.id, stream=True):
        pass  # follow to the end instead of polling in a loop
    final = oai.responses.retrieve(created.id)
    assert final.status == "completed" and final.output_text
    assert final.usage is not None and final.usage.output_tokens <= 8


def test_background_stream_resumed_with_starting_after(oai: openai.OpenAI, model: str) -> None:
    first: list[Any] = []
    with oai.responses.create(
        model=model, input="Count to five.", max_output_tokens=8, background=True, stream=True
    ) as stream:
        for event in stream:
            first.append(event)
            if event.type == "response.in_progress":
                break
    response_id = first[0].response.id
    rest = list(
        oai.responses.retrieve(response_id, stream=True, starting_after=first[-1].sequence_number)
    )
    events = first + rest
    assert [e.sequence_number for e in events] == list(range(len(events)))
    assert events[-1].type == "response.completed"
    text = "".join(e.delta for e in events if e.type == "response.output_text.delta")
    assert (
        text == events[-1].response.output_text == oai.responses.retrieve(response_id).output_text
    )


def test_cancel_and_the_native_client_see_the_same_task(
    model_service: tuple[ThreadedService, str, str], oai: openai.OpenAI, model: str
) -> None:
    running, _model, token = model_service
    running.service.set_paused(True)
    try:
        created = oai.responses.create(
            model=model, input="Hi", max_output_tokens=8, background=True
        )
        assert oai.responses.cancel(created.id).status == "cancelled"
    finally:
        running.service.set_paused(False)
    native = LmspClient(running.url, token)
    assert native.get_task(created.id)["status"] == "cancelled"
    assert created.id in [task["id"] for task in native.list_tasks().data]


def test_library_and_command_line_generate(
    model_service: tuple[ThreadedService, str, str], model: str, tmp_path: Path
) -> None:
    running, _model, token = model_service
    client = LmspClient(running.url, token)
    stream = client.stream_response(model, "Say hi.", max_output_tokens=8, seed=SEED)
    assert stream.until_done() and stream.status == "completed"
    blocking = client.create_response(model, "Say hi.", max_output_tokens=8, seed=SEED)
    assert blocking["status"] == "completed" and blocking["output_text"] == stream.text

    token_file = tmp_path / "token"
    token_file.write_text(token)
    command = [sys.executable, "-m", "desktop.client.cli", "--url", running.url]
    command += ["--token-file", str(token_file), "run", model, "Say hi.", "--max-tokens", "8"]
    command += ["--seed", str(SEED)]
    result = subprocess.run(
        command, cwd=ROOT, env=clean_env(), capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == stream.text.strip()
