"""OpenAI shapes: request translation, and the numbered stream of a response's events."""

from __future__ import annotations

from typing import Any

import pytest

from desktop.lmsp.api.openai_schemas import ChatCompletionBody, CreateResponseBody
from desktop.lmsp.api.openai_shapes import ResponseShape
from desktop.lmsp.api.openai_stream_events import ResponseEventTranslator
from desktop.lmsp.errors import InvalidRequest
from desktop.lmsp.store.tasks import TaskEvent

LMSP_RESPONSE = {
    "id": "resp_abc",
    "status": "queued",
    "created_at": "2026-12-02T08:25:42.123Z",
    "instructions": None,
    "metadata": {},
    "background": True,
}


def event(number: int, kind: str, **data: Any) -> TaskEvent:
    return TaskEvent("resp_abc", number, f"response.{kind}", data, "2026-12-02T08:25:42.123Z")


def translate(events: list[TaskEvent]) -> list[dict[str, Any]]:
    translator = ResponseEventTranslator(ResponseShape(LMSP_RESPONSE, "gemma", {}))
    return [out for e in events for out in translator.translate(e)]


LOG = [
    event(1, "queued"),
    event(2, "loading", model="mdl_1"),
    event(3, "running", attempt=1),
    event(4, "output_text.delta", delta="Hel", output_tokens=1),
    event(5, "output_text.delta", delta="lo", output_tokens=2),
    event(
        6, "completed", response={**LMSP_RESPONSE, "status": "completed", "output_text": "Hello"}
    ),
]


def test_the_translation_is_numbered_and_repeatable() -> None:
    first = translate(LOG)
    assert first == translate(LOG)
    assert [e["sequence_number"] for e in first] == list(range(len(first)))
    assert [e["type"] for e in first] == [
        "response.created",
        "response.queued",
        "response.in_progress",
        "response.output_item.added",
        "response.content_part.added",
        "response.output_text.delta",
        "response.output_text.delta",
        "response.output_text.done",
        "response.content_part.done",
        "response.output_item.done",
        "response.completed",
    ]
    assert first[0]["response"]["status"] == "queued"
    assert first[2]["response"]["status"] == "in_progress"
    assert first[-1]["response"]["status"] == "completed"
    assert first[-1]["response"]["output"][0]["content"][0]["text"] == "Hello"
    assert first[-1]["response"]["model"] == "gemma"


def test_a_restart_discards_earlier_output_and_endings_are_reported() -> None:
    log = [
        event(1, "queued"),
        event(2, "running", attempt=1),
        event(3, "output_text.delta", delta="old"),
        event(4, "requeued", reason="server_restarted", attempt=2),
        event(5, "running", attempt=2),
        event(6, "cancelling"),
        event(7, "cancelled"),
    ]
    types = [e["type"] for e in translate(log)]
    assert types[-3:] == ["response.requeued", "response.in_progress", "response.cancelled"]
    assert translate(log)[-1]["response"]["status"] == "cancelled"
    assert translate(log)[-1]["response"]["output"] == []
    failed = translate(
        [event(1, "queued"), event(2, "failed", error={"code": "x", "message": "m"})]
    )
    assert failed[-1]["type"] == "response.failed"
    assert failed[-1]["response"]["error"] == {"code": "x", "message": "m"}


def test_chat_messages_become_lmsp_input() -> None:
    body = ChatCompletionBody.model_validate(
        {
            "model": "gemma",
            "messages": [
                {"role": "developer", "content": "Be brief."},
                {
                    "role": "user",
                    "content": [{"type": "text", "text": "Hi "}, {"type": "text", "text": "there"}],
                },
            ],
            "max_completion_tokens": 5,
            "seed": -1,
            "stop": "\n",
            "user": "ignored",
        }
    )
    request = body.to_request()
    assert request.input == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Hi there"},
    ]
    assert request.max_output_tokens == 5 and request.seed == 2**63 - 1
    assert request.background is False and body.stops == ["\n"]


def test_unsupported_features_are_refused() -> None:
    with pytest.raises(InvalidRequest, match="image_url"):
        ChatCompletionBody.model_validate(
            {"model": "m", "messages": [{"role": "user", "content": [{"type": "image_url"}]}]}
        ).to_request()
    with pytest.raises(ValueError, match="n"):
        ChatCompletionBody.model_validate({"model": "m", "messages": [{"role": "user"}], "n": 3})


def test_a_background_stream_is_a_background_task() -> None:
    body = CreateResponseBody.model_validate(
        {"model": "m", "input": "hi", "background": True, "stream": True}
    )
    request = body.to_request()
    assert request.background and not request.stream
