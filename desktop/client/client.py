"""``LmspClient``: models, responses, tasks and events of one LMSP service, for one token.

Every method is a plain blocking call that returns the service's JSON objects
(``dict``) or raises a typed error from ``desktop.client.errors``. Calls that
create or cancel send an ``Idempotency-Key`` made once per call (a uuid4) and
reused by each of its retries, so a retried create after a lost answer never
creates a second task. Streams (``stream_response``, ``follow_events``)
reconnect by themselves from the last event seen.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .discovery import read_discovery_file, resolve_service_url
from .events import Event, follow_events
from .response_stream import ResponseStream
from .transport import DEFAULT_TIMEOUT_S, EventStreamReply, HttpTransport, RetryPolicy

JsonObject = dict[str, Any]
RestartPolicy = Literal["fail", "retry", "resume"]
Message = Mapping[str, str]  # {"role": "user" | "system" | "assistant", "content": "..."}


@dataclass(frozen=True)
class Page:
    """One page of a list: ``data`` and whether more follow."""

    data: list[JsonObject]
    has_more: bool


def new_idempotency_key() -> str:
    return str(uuid.uuid4())


class LmspClient:
    def __init__(
        self,
        url: str,
        token: str | None,
        *,
        timeout: float = DEFAULT_TIMEOUT_S,
        retry: RetryPolicy | None = None,
        locate: Callable[[], str] | None = None,
    ) -> None:
        """A client of the service at ``url``; ``locate`` finds it again if it moves."""
        self.transport = HttpTransport(url, token, timeout=timeout, retry=retry, locate=locate)
        self.timeout = timeout

    @classmethod
    def discover(
        cls,
        token: str | None,
        *,
        url: str | None = None,
        data_dir: str | os.PathLike[str] | None = None,
        retry: RetryPolicy | None = None,
    ) -> LmspClient:
        """A client of ``url`` (or ``$LMSP_URL``), else of the service in the data dir's
        ``service.json`` — looked up again whenever the service stops answering."""
        if url or os.environ.get("LMSP_URL"):
            return cls(resolve_service_url(url), token, retry=retry)

        def locate() -> str:
            return read_discovery_file(data_dir).url

        return cls(locate(), token, retry=retry, locate=locate)

    @property
    def url(self) -> str:
        return self.transport.url

    # -- service and identity -----------------------------------------------

    def service_info(self) -> JsonObject:
        return self._get("/v1/service")

    def health(self) -> str:
        """``"ok"``; ``ServiceUnavailable`` while the service is starting."""
        return str(self._get("/v1/health").get("status"))

    def me(self) -> JsonObject:
        """The paired client behind the token: id, name, scopes."""
        return self._get("/v1/clients/me")

    # -- models ---------------------------------------------------------------

    def list_models(self) -> list[JsonObject]:
        return list(self._get("/v1/models")["data"])

    def get_model(self, id_or_name: str) -> JsonObject:
        return self._get(f"/v1/models/{id_or_name}")

    # -- responses ------------------------------------------------------------

    def create_response(
        self,
        model: str,
        input: str | Sequence[Message],
        *,
        background: bool = False,
        instructions: str | None = None,
        max_output_tokens: int | None = None,
        temperature: float | None = None,
        top_p: float | None = None,
        seed: int | None = None,
        on_restart: RestartPolicy | None = None,
        metadata: Mapping[str, str] | None = None,
        idempotency_key: str | None = None,
    ) -> JsonObject:
        """Blocking: the finished response. ``background=True``: the queued response at once."""
        body = response_body(
            model,
            input,
            instructions=instructions,
            max_output_tokens=max_output_tokens,
            temperature=temperature,
            top_p=top_p,
            seed=seed,
            on_restart=on_restart,
            metadata=metadata,
        )
        body["background"] = background
        reply = self.transport.request(
            "POST",
            "/v1/responses",
            body=body,
            headers={"Idempotency-Key": idempotency_key or new_idempotency_key()},
            timeout=self.timeout if background else None,
        )
        return dict(reply.json())

    def stream_response(
        self,
        model: str,
        input: str | Sequence[Message],
        *,
        instructions: str | None = None,
        max_output_tokens: int | None = None,
        temperature: float | None = None,
        top_p: float | None = None,
        seed: int | None = None,
        on_restart: RestartPolicy | None = None,
        metadata: Mapping[str, str] | None = None,
        idempotency_key: str | None = None,
    ) -> ResponseStream:
        """Create a response and stream its events (``stream: true``), reconnecting on drops."""
        body = response_body(
            model,
            input,
            instructions=instructions,
            max_output_tokens=max_output_tokens,
            temperature=temperature,
            top_p=top_p,
            seed=seed,
            on_restart=on_restart,
            metadata=metadata,
        )
        body["stream"] = True
        key = idempotency_key or new_idempotency_key()

        def open_stream(task_id: str | None, last: int) -> EventStreamReply:
            if task_id is None:  # nothing seen yet: (re)send the create, same key
                return self.transport.open_stream(
                    "POST", "/v1/responses", body=body, headers={"Idempotency-Key": key}
                )
            return self.transport.open_stream(
                "GET", f"/v1/responses/{task_id}/events", last_event_id=last
            )

        return ResponseStream(follow_events(self.transport, None, 0, open_stream=open_stream))

    def get_response(self, response_id: str) -> JsonObject:
        return self._get(f"/v1/responses/{response_id}")

    def cancel_response(self, response_id: str) -> JsonObject:
        """Cancel (LMSP §4.4); the response as it is now (``cancelling`` or ``cancelled``)."""
        return self._post(f"/v1/responses/{response_id}/cancel")

    def delete_response(self, response_id: str) -> None:
        self.transport.request("DELETE", f"/v1/responses/{response_id}")

    def follow_response(self, response_id: str, after: int = 0) -> ResponseStream:
        """Follow an existing response (e.g. a background one) to its end."""
        return ResponseStream(self.follow_events(response_id, after), response_id)

    # -- tasks and events -------------------------------------------------------

    def list_tasks(
        self,
        *,
        status: str | Sequence[str] | None = None,
        kind: str | Sequence[str] | None = None,
        limit: int = 50,
        after: str | None = None,
    ) -> Page:
        """The client's tasks, newest first; pass the last id as ``after`` for the next page."""
        query: dict[str, str | int | None] = {
            "status": _joined(status),
            "kind": _joined(kind),
            "limit": limit,
            "after": after,
        }
        body = self.transport.request("GET", "/v1/tasks", query=query).json()
        return Page(list(body["data"]), bool(body["has_more"]))

    def get_task(self, task_id: str) -> JsonObject:
        return self._get(f"/v1/tasks/{task_id}")

    def cancel_task(self, task_id: str) -> JsonObject:
        return self._post(f"/v1/tasks/{task_id}/cancel")

    def list_events(
        self, task_id: str, *, after: int = 0, limit: int = 100
    ) -> tuple[list[Event], bool]:
        """Stored events after ``after`` (one page) and whether more are stored."""
        path = f"/v1/{'responses' if task_id.startswith('resp_') else 'tasks'}/{task_id}/events"
        body = self.transport.request("GET", path, query={"after": after, "limit": limit}).json()
        return [Event.from_json(item) for item in body["data"]], bool(body["has_more"])

    def follow_events(self, task_id: str, after: int = 0) -> Iterator[Event]:
        """Every event after ``after``, stored then live, to the terminal one; reconnects."""
        return follow_events(self.transport, task_id, after)

    def wait(self, task_id: str) -> JsonObject:
        """Block until the task ends; the task object then."""
        for _event in self.follow_events(task_id):
            pass
        return self.get_task(task_id)

    # -- internals ----------------------------------------------------------------

    def _get(self, path: str) -> JsonObject:
        return dict(self.transport.request("GET", path).json())

    def _post(self, path: str, body: Any = None) -> JsonObject:
        reply = self.transport.request(
            "POST", path, body=body, headers={"Idempotency-Key": new_idempotency_key()}
        )
        return dict(reply.json())


def response_body(
    model: str,
    input: str | Sequence[Message],
    *,
    instructions: str | None,
    max_output_tokens: int | None,
    temperature: float | None,
    top_p: float | None,
    seed: int | None,
    on_restart: RestartPolicy | None,
    metadata: Mapping[str, str] | None,
) -> JsonObject:
    """The ``POST /v1/responses`` body; fields left ``None`` take the service's defaults."""
    body: JsonObject = {
        "model": model,
        "input": input if isinstance(input, str) else [dict(message) for message in input],
    }
    optional = {
        "instructions": instructions,
        "max_output_tokens": max_output_tokens,
        "temperature": temperature,
        "top_p": top_p,
        "seed": seed,
        "on_restart": on_restart,
        "metadata": dict(metadata) if metadata else None,
    }
    body.update({name: value for name, value in optional.items() if value is not None})
    return body


def _joined(value: str | Sequence[str] | None) -> str | None:
    if value is None or isinstance(value, str):
        return value
    return ",".join(value)
