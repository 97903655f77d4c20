"""A real service running on its own thread and event loop, for the blocking client library.

``ThreadedService.call`` runs a coroutine on the service's loop and waits for
it; ``approve_when_asked`` plays the owner approving (or denying) the next
pairing request through the admin endpoint, with the owner token.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
import urllib.request
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from desktop.client import LmspClient, pair
from desktop.lmsp.service import Service, ServiceOptions
from tests.integration.client.proxy import BreakingProxy

T = TypeVar("T")

ALL_SCOPES = [
    "models:read",
    "models:write",
    "responses:write",
    "responses:read",
    "tasks:read",
    "tasks:write",
]


class ThreadedService:
    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()
        self.service = Service(ServiceOptions(data_dir=data_dir, port=0))
        self.call(self.service.start())
        self.url = self.service.url
        self.port = self.service.port
        self.owner_token = (data_dir / "owner.token").read_text().strip()

    def call(self, coroutine: Coroutine[Any, Any, T], timeout: float = 30) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def stop(self) -> None:
        self.call(self.service.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)
        self.loop.close()

    # -- the owner's side -------------------------------------------------------

    def admin(self, method: str, path: str, body: Any = None) -> Any:
        request = urllib.request.Request(
            self.url + path,
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={
                "Authorization": f"Bearer {self.owner_token}",
                "Content-Type": "application/json",
            },
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            raw = answer.read()
        return json.loads(raw) if raw else None

    def pending_pairing(self, timeout: float = 10) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pending = self.admin("GET", "/v1/admin/pairing")["data"]
            if pending:
                return dict(pending[0])
            time.sleep(0.02)
        raise AssertionError("no pairing request arrived")

    def approve_when_asked(
        self, scopes: list[str] | None = None, *, deny: bool = False
    ) -> threading.Thread:
        """In the background: wait for the next pairing request and answer it."""

        def answer() -> None:
            request = self.pending_pairing()
            verb = "deny" if deny else "approve"
            body = {} if deny or scopes is None else {"scopes": scopes}
            self.admin("POST", f"/v1/admin/pairing/{request['id']}/{verb}", body)

        thread = threading.Thread(target=answer, daemon=True)
        thread.start()
        return thread

    def paired_token(self, scopes: list[str] | None = None, name: str = "Test app") -> str:
        approver = self.approve_when_asked()
        paired = pair(self.url, name, scopes or ALL_SCOPES)
        approver.join(10)
        return paired.token


@pytest.fixture
def running(tmp_path: Path) -> Iterator[ThreadedService]:
    service = ThreadedService(tmp_path / "data")
    yield service
    service.stop()


@pytest.fixture
def client(running: ThreadedService) -> LmspClient:
    return LmspClient(running.url, running.paired_token())


@pytest.fixture
def proxy(running: ThreadedService) -> Iterator[BreakingProxy]:
    breaking = BreakingProxy("127.0.0.1", running.port)
    # The client names the proxy in its Host header; let the service accept it.
    running.call(running.service.update_settings({"allowed_hosts": [f"127.0.0.1:{breaking.port}"]}))
    yield breaking
    breaking.close()
