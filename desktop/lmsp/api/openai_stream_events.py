"""A response's LMSP event log as an OpenAI Responses event stream, numbered for resuming.

``ResponseEventTranslator`` turns the events of one response task, read from
sequence 1, into OpenAI stream events numbered 0, 1, 2, … . The translation
depends only on the LMSP events (never on the time it runs), so translating
the same log again gives the same events with the same numbers: that is what
makes ``starting_after=N`` resume exactly after event N, with nothing lost or
repeated, however many times a client reconnects.

LMSP event → OpenAI events:

* ``response.queued`` → ``response.created``, ``response.queued``
* ``response.running`` → ``response.in_progress``
* ``response.output_text.delta`` → ``response.output_text.delta``, the first
  one preceded by ``response.output_item.added`` and ``…content_part.added``
* ``response.completed`` → ``…output_text.done``, ``…content_part.done``,
  ``…output_item.done``, ``response.completed``
* ``response.failed`` → ``response.failed``
* ``response.cancelled`` → ``response.cancelled`` (OpenAI has no such event;
  the response's status says ``cancelled``)
* ``response.requeued`` → ``response.requeued``: the output so far is
  discarded and starts again (LMSP §4.3)
* ``loading``, ``cancelling``, ``resumed`` → nothing (the OpenAI status is the same)
"""

from __future__ import annotations

from typing import Any

from desktop.lmsp.api.openai_shapes import (
    ResponseShape,
    message_item,
    message_item_id,
    output_text_part,
)
from desktop.lmsp.store.tasks import TaskEvent

OpenAiEvent = dict[str, Any]


class ResponseEventTranslator:
    def __init__(self, shape: ResponseShape) -> None:
        self._shape = shape
        self._item_id = message_item_id(shape.id)
        self._next_number = 0
        self._status = "queued"
        self._text: str | None = None  # None: no output item opened yet

    def translate(self, event: TaskEvent) -> list[OpenAiEvent]:
        """The OpenAI events for the next LMSP event of the log."""
        kind = event.type.removeprefix("response.")
        if kind in ("queued", "loading", "running", "cancelling"):
            self._status = kind
        if kind == "queued":
            return [self._with_response("response.created"), self._with_response("response.queued")]
        if kind == "running":
            return [self._with_response("response.in_progress")]
        if kind == "output_text.delta":
            return self._delta(str(event.data.get("delta", "")))
        if kind == "requeued":
            self._status, self._text = "queued", None
            return [self._with_response("response.requeued")]
        if kind == "completed":
            return self._completed(event.data.get("response"))
        if kind == "failed":
            self._status = "failed"
            error = event.data.get("error")
            return [self._with_response("response.failed", error=error)]
        if kind == "cancelled":
            self._status = "cancelled"
            return [self._with_response("response.cancelled")]
        return []

    # -- pieces -------------------------------------------------------------------

    def _delta(self, delta: str) -> list[OpenAiEvent]:
        events = self._open_item()
        self._text = (self._text or "") + delta
        events.append(
            self._numbered(
                "response.output_text.delta",
                item_id=self._item_id,
                output_index=0,
                content_index=0,
                delta=delta,
                logprobs=[],
            )
        )
        return events

    def _open_item(self) -> list[OpenAiEvent]:
        if self._text is not None:
            return []
        self._text = ""
        item = message_item(self._shape.id, "", done=False)
        item["content"] = []
        return [
            self._numbered("response.output_item.added", output_index=0, item=item),
            self._numbered(
                "response.content_part.added",
                item_id=self._item_id,
                output_index=0,
                content_index=0,
                part=output_text_part(""),
            ),
        ]

    def _completed(self, final: Any) -> list[OpenAiEvent]:
        events = self._open_item()
        text = self._text or ""
        if isinstance(final, dict) and isinstance(final.get("output_text"), str):
            text = final["output_text"]
        self._status, self._text = "completed", text
        events += [
            self._numbered(
                "response.output_text.done",
                item_id=self._item_id,
                output_index=0,
                content_index=0,
                text=text,
                logprobs=[],
            ),
            self._numbered(
                "response.content_part.done",
                item_id=self._item_id,
                output_index=0,
                content_index=0,
                part=output_text_part(text),
            ),
            self._numbered(
                "response.output_item.done",
                output_index=0,
                item=message_item(self._shape.id, text, done=True),
            ),
        ]
        response = (
            self._shape.from_lmsp(final)
            if isinstance(final, dict)
            else self._shape.snapshot("completed", text)
        )
        events.append(self._numbered("response.completed", response=response))
        return events

    def _with_response(self, kind: str, *, error: Any = None) -> OpenAiEvent:
        snapshot = self._shape.snapshot(
            self._status, self._text, error=error if isinstance(error, dict) else None
        )
        return self._numbered(kind, response=snapshot)

    def _numbered(self, kind: str, **fields: Any) -> OpenAiEvent:
        event = {"type": kind, "sequence_number": self._next_number, **fields}
        self._next_number += 1
        return event
