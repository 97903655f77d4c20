"""Retries: which failures are retried, how often, and that the Idempotency-Key stays the same."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from desktop.client import (
    ConnectionFailed,
    InvalidRequest,
    LmspClient,
    RetryPolicy,
    ServiceNotRunning,
    ServiceUnavailable,
)
from desktop.client.transport import HttpTransport


class ScriptedServer:
    """Answers each request with the next (status, body) of ``script``; records the requests."""

    def __init__(self) -> None:
        self.script: list[tuple[int, Any]] = []
        self.seen: list[dict[str, str]] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                owner.seen.append(dict(self.headers))
                status, body = owner.script.pop(0)
                if status == 0:  # drop the connection without answering
                    self.connection.shutdown(socket.SHUT_RDWR)
                    self.close_connection = True
                    return
                raw = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                if status == 503:
                    self.send_header("Retry-After", "0")
                self.end_headers()
                self.wfile.write(raw)

            do_GET = do_POST

            def log_message(self, *_args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.01,), daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    scripted = ScriptedServer()
    yield scripted
    scripted.close()


UNAVAILABLE = (503, {"error": {"code": "unavailable", "message": "starting"}})
QUEUED = (202, {"id": "resp_1", "object": "response", "status": "queued"})
POLICY = RetryPolicy(attempts=4, base_delay_s=0.001, max_delay_s=0.002)


def test_a_create_is_retried_with_the_same_key(server: ScriptedServer) -> None:
    server.script = [UNAVAILABLE, (0, None), QUEUED]
    client = LmspClient(server.url, "lmsp_token", retry=POLICY)

    created = client.create_response("m", "hi", background=True)

    assert created["id"] == "resp_1"
    keys = {headers["Idempotency-Key"] for headers in server.seen}
    assert len(server.seen) == 3 and len(keys) == 1
    assert server.seen[0]["Authorization"] == "Bearer lmsp_token"


def test_each_logical_create_gets_its_own_key(server: ScriptedServer) -> None:
    server.script = [QUEUED, QUEUED]
    client = LmspClient(server.url, "lmsp_token", retry=POLICY)
    client.create_response("m", "hi", background=True)
    client.create_response("m", "hi", background=True)
    assert server.seen[0]["Idempotency-Key"] != server.seen[1]["Idempotency-Key"]


def test_retries_are_bounded(server: ScriptedServer) -> None:
    server.script = [UNAVAILABLE] * 4
    client = LmspClient(server.url, None, retry=POLICY)
    with pytest.raises(ServiceUnavailable):
        client.create_response("m", "hi", background=True)
    assert len(server.seen) == 4


def test_client_errors_are_not_retried(server: ScriptedServer) -> None:
    server.script = [(400, {"error": {"code": "invalid_request", "message": "bad", "param": "x"}})]
    client = LmspClient(server.url, None, retry=POLICY)
    with pytest.raises(InvalidRequest) as caught:
        client.create_response("m", "hi", background=True)
    assert caught.value.param == "x" and len(server.seen) == 1


def test_requests_without_retry_fail_at_once(server: ScriptedServer) -> None:
    server.script = [(0, None)]
    transport = HttpTransport(server.url, retry=POLICY)
    with pytest.raises(ConnectionFailed):
        transport.request("POST", "/v1/x", retry=False)
    assert len(server.seen) == 1


def test_a_refused_connection_means_not_running_and_asks_where_the_service_went() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    asked: list[int] = []

    def locate() -> str:
        asked.append(1)
        return f"http://127.0.0.1:{port}"

    sleeps: list[float] = []
    transport = HttpTransport(
        f"http://127.0.0.1:{port}", retry=POLICY, locate=locate, sleep=sleeps.append
    )
    with pytest.raises(ServiceNotRunning):
        transport.request("GET", "/v1/models")
    assert len(asked) == 4 and len(sleeps) == 3
    assert sleeps == sorted(sleeps)


def test_backoff_grows_and_honours_retry_after() -> None:
    policy = RetryPolicy(base_delay_s=0.1, max_delay_s=1.0)
    assert [policy.delay(n) for n in (1, 2, 3, 4, 5)] == [0.1, 0.2, 0.4, 0.8, 1.0]
    assert policy.delay(1, retry_after=0.5) == 0.5
    assert policy.delay(1, retry_after=30) == 1.0
