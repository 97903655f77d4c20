"""HTTP to the service with the standard library only: requests, event streams, bounded retries.

``HttpTransport`` opens one ``http.client`` connection per request (the
service is local, so connecting is cheap, and nothing is shared between
threads). A request marked ``retry`` — every read, and every create or cancel
that carries an ``Idempotency-Key`` — is sent again after a connection error,
a 503 ``unavailable`` or a 409 ``idempotency_key_in_progress``, waiting
``Retry-After`` or an exponential backoff, at most ``RetryPolicy.attempts``
times. A refused connection becomes ``ServiceNotRunning``; when the transport
was given a ``locate`` function (the discovery file), it looks the URL up
again before the next try, since a restarted service may use another port.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import time
import urllib.parse
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from .errors import (
    ApiError,
    ConnectionFailed,
    IdempotencyKeyInProgress,
    LmspClientError,
    ServiceNotRunning,
    ServiceUnavailable,
    error_from_reply,
)
from .sse import SseDecoder, SseMessage

USER_AGENT = "lmsp-client/1.0"
DEFAULT_TIMEOUT_S = 30.0
STREAM_READ_TIMEOUT_S = 60.0  # four missed keep-alives (LMSP §4.3 sends one every 15 s)
NETWORK_ERRORS = (OSError, http.client.HTTPException)
Query = Mapping[str, str | int | float | None]
AnswerT = TypeVar("AnswerT", "Reply", "EventStreamReply")


@dataclass(frozen=True)
class RetryPolicy:
    attempts: int = 4  # tries of one request, the first included
    base_delay_s: float = 0.2
    max_delay_s: float = 3.0
    reconnects: int = 8  # consecutive failed reconnections of an event stream

    def delay(self, failures: int, retry_after: float | None = None) -> float:
        """How long to wait after the ``failures``-th failure in a row."""
        if retry_after is not None:
            return min(retry_after, self.max_delay_s)
        return min(self.base_delay_s * 2.0 ** max(0, failures - 1), self.max_delay_s)


@dataclass(frozen=True)
class Reply:
    status: int
    headers: dict[str, str]  # names in lower case
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


class EventStreamReply:
    """An open ``text/event-stream`` answer; iterate ``messages()``, then ``close()``."""

    def __init__(
        self, connection: http.client.HTTPConnection, response: http.client.HTTPResponse
    ) -> None:
        self._connection = connection
        self._response = response
        self.status = response.status
        self.headers = {name.lower(): value for name, value in response.getheaders()}

    def messages(self) -> Iterator[SseMessage]:
        """Messages as they arrive; ends when the server closes the stream.

        A broken connection raises ``OSError`` or ``http.client.HTTPException``.
        """
        decoder = SseDecoder()
        while True:
            chunk = self._response.read1(65536)
            if not chunk:
                yield from decoder.finish()
                return
            yield from decoder.feed(chunk)

    def close(self) -> None:
        self._response.close()
        self._connection.close()


def network_failure(exc: BaseException, url: str) -> ConnectionFailed:
    if isinstance(exc, ConnectionRefusedError):
        return ServiceNotRunning(f"The LMSP service is not running (nothing answers at {url})")
    reason = str(exc) or type(exc).__name__
    return ConnectionFailed(f"The connection to the LMSP service at {url} failed: {reason}")


class HttpTransport:
    def __init__(
        self,
        url: str,
        token: str | None = None,
        *,
        timeout: float = DEFAULT_TIMEOUT_S,
        retry: RetryPolicy | None = None,
        locate: Callable[[], str] | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.retry = retry or RetryPolicy()
        self._locate = locate
        self._sleep = sleep

    # -- public -------------------------------------------------------------

    def request(
        self,
        method: str,
        path: str,
        *,
        body: Any = None,
        query: Query | None = None,
        headers: Mapping[str, str] | None = None,
        retry: bool = True,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> Reply:
        """Send one request (again, if ``retry`` and it failed in a retryable way)."""

        def once() -> Reply:
            connection, response = self._send(method, path, body, query, headers, timeout)
            try:
                data = response.read()
            finally:
                response.close()
                connection.close()
            lowered = {name.lower(): value for name, value in response.getheaders()}
            return Reply(response.status, lowered, data)

        return self._with_retries(once, retry)

    def open_stream(
        self,
        method: str,
        path: str,
        *,
        body: Any = None,
        query: Query | None = None,
        headers: Mapping[str, str] | None = None,
        retry: bool = True,
        last_event_id: int | None = None,
    ) -> EventStreamReply:
        """Open a Server-Sent Events answer (``Accept: text/event-stream``)."""
        stream_headers = {"Accept": "text/event-stream", **(headers or {})}
        if last_event_id is not None:
            stream_headers["Last-Event-ID"] = str(last_event_id)

        def once() -> EventStreamReply:
            connection, response = self._send(
                method, path, body, query, stream_headers, STREAM_READ_TIMEOUT_S
            )
            if response.status >= 400:
                try:
                    data = response.read()
                finally:
                    response.close()
                    connection.close()
                raise error_from_reply(response.status, data, response.getheader("Retry-After"))
            return EventStreamReply(connection, response)

        return self._with_retries(once, retry)

    def failure_of(self, exc: BaseException) -> ConnectionFailed:
        """The client error for a network exception met while reading a stream."""
        failure = network_failure(exc, self.url)
        if isinstance(failure, ServiceNotRunning):
            self.relocate()
        return failure

    def relocate(self) -> None:
        """Look the service URL up again (a restarted service may listen elsewhere)."""
        if self._locate is None:
            return
        with contextlib.suppress(LmspClientError):  # else keep the old URL and try it
            self.url = self._locate().rstrip("/")

    def pause(self, failures: int, retry_after: float | None = None) -> None:
        self._sleep(self.retry.delay(failures, retry_after))

    # -- internals ------------------------------------------------------------

    def _with_retries(self, once: Callable[[], AnswerT], retry: bool) -> AnswerT:
        failures = 0
        while True:
            try:
                reply = once()
            except NETWORK_ERRORS as exc:
                failure = self.failure_of(exc)
                failures += 1
                if not retry or failures >= self.retry.attempts:
                    raise failure from exc
                self.pause(failures)
                continue
            except (ServiceUnavailable, IdempotencyKeyInProgress) as exc:
                failures += 1
                if not retry or failures >= self.retry.attempts:
                    raise
                self.pause(failures, exc.retry_after)
                continue
            if isinstance(reply, Reply) and reply.status >= 400:
                error = error_from_reply(reply.status, reply.body, reply.headers.get("retry-after"))
                if retry and self._retryable(error) and failures + 1 < self.retry.attempts:
                    failures += 1
                    self.pause(failures, error.retry_after)
                    continue
                raise error
            return reply

    @staticmethod
    def _retryable(error: ApiError) -> bool:
        return isinstance(error, (ServiceUnavailable, IdempotencyKeyInProgress))

    def _send(
        self,
        method: str,
        path: str,
        body: Any,
        query: Query | None,
        headers: Mapping[str, str] | None,
        timeout: float | None,
    ) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
        parts = urllib.parse.urlsplit(self.url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise LmspClientError(f"Not an http(s) URL: {self.url}")
        connection_class = (
            http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
        )
        connection = connection_class(parts.hostname, parts.port, timeout=timeout)
        target = parts.path.rstrip("/") + path
        if query:
            pairs = {k: str(v) for k, v in query.items() if v is not None}
            if pairs:
                target += "?" + urllib.parse.urlencode(pairs)
        all_headers = {"User-Agent": USER_AGENT, "Accept": "application/json"}
        if self.token:
            all_headers["Authorization"] = f"Bearer {self.token}"
        all_headers.update(headers or {})
        payload: bytes | None = None
        if body is not None:
            payload = json.dumps(body, separators=(",", ":")).encode("utf-8")
            all_headers["Content-Type"] = "application/json"
        try:
            connection.request(method, target, body=payload, headers=all_headers)
            return connection, connection.getresponse()
        except BaseException:
            connection.close()
            raise
