"""``ResponseStream`` puts the text together and follows restarts and endings."""

from __future__ import annotations

from typing import Any

from desktop.client import Event, ResponseStream


def event(number: int, kind: str, **data: Any) -> Event:
    return Event(number, f"response.{kind}", "resp_1", "", data)


def test_text_status_and_final_object() -> None:
    stream = ResponseStream(
        iter(
            [
                event(1, "queued"),
                event(2, "running", attempt=1),
                event(3, "output_text.delta", delta="Quiet ", output_tokens=1),
                event(4, "requeued", reason="server_restarted", attempt=2),
                event(5, "output_text.delta", delta="Quiet pages", output_tokens=2),
                event(6, "completed", response={"id": "resp_1", "output_text": "Quiet pages"}),
            ]
        )
    )
    assert stream.until_done() == "Quiet pages"
    assert stream.response_id == "resp_1" and stream.status == "completed"
    assert stream.restarts == 1
    assert stream.response == {"id": "resp_1", "output_text": "Quiet pages"}


def test_failure_keeps_the_error() -> None:
    failed = event(2, "failed", error={"code": "model_missing", "message": "gone"})
    stream = ResponseStream(iter([event(1, "queued"), failed]))
    assert list(stream.deltas()) == []
    assert stream.status == "failed"
    assert stream.error == {"code": "model_missing", "message": "gone"}


def test_terminal_detection() -> None:
    assert event(1, "cancelled").is_terminal
    assert not event(1, "output_text.delta").is_terminal
    assert Event(1, "model.import.completed", "t", "", {}).is_terminal
