"""A real service on port 0 and a real HTTP client, plus helpers to pair clients."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from desktop.lmsp.clock import new_id, now_text
from desktop.lmsp.service import Service, ServiceOptions
from desktop.lmsp.store import models as model_sql
from desktop.lmsp.store.models import ModelRecord


@dataclass
class Api:
    """The running service, its base URL, an HTTP session and the owner token."""

    service: Service
    url: str
    http: aiohttp.ClientSession
    owner_token: str

    def auth(self, token: str | None) -> dict[str, str]:
        return {} if token is None else {"Authorization": f"Bearer {token}"}

    async def call(
        self,
        method: str,
        path: str,
        *,
        token: str | None = None,
        json: Any = None,
        headers: dict[str, str] | None = None,
        data: bytes | None = None,
    ) -> tuple[int, Any, aiohttp.typedefs.LooseHeaders]:
        all_headers = {**self.auth(token), **(headers or {})}
        async with self.http.request(
            method, self.url + path, json=json, data=data, headers=all_headers
        ) as response:
            text = await response.text()
            body = None
            if text and response.content_type == "application/json":
                body = await response.json()
            return response.status, body, response.headers

    async def pair(self, name: str = "Writer", scopes: list[str] | None = None) -> dict[str, Any]:
        """Run the pairing flow, approving through the admin endpoint; the claimed answer."""
        body: dict[str, Any] = {"client_name": name}
        if scopes is not None:
            body["scopes"] = scopes
        status, pairing, _ = await self.call("POST", "/v1/pairing", json=body)
        assert status == 202, pairing
        status, approved, _ = await self.call(
            "POST", f"/v1/admin/pairing/{pairing['id']}/approve", token=self.owner_token
        )
        assert status == 200, approved
        status, claimed, _ = await self.call("GET", f"/v1/pairing/{pairing['id']}")
        assert status == 200 and claimed["status"] == "claimed", claimed
        return dict(claimed)


ALL_SCOPES = [
    "models:read",
    "models:write",
    "responses:write",
    "responses:read",
    "tasks:read",
    "tasks:write",
]


@pytest.fixture
async def api(tmp_path: Path) -> AsyncIterator[Api]:
    data_dir = tmp_path / "data"
    service = Service(ServiceOptions(data_dir=data_dir, port=0))
    await service.start()
    owner_token = (data_dir / "owner.token").read_text().strip()
    async with aiohttp.ClientSession() as http:
        yield Api(service, service.url, http, owner_token)
    await service.stop()


async def register_fake_model(service: Service, name: str = "fake-model") -> str:
    """A model row whose file does not exist: tasks using it fail fast, without llama.cpp."""
    model_id = new_id("mdl")
    async with service.db.write() as tx:
        await model_sql.insert_model(
            tx,
            ModelRecord(
                id=model_id,
                name=name,
                format="gguf",
                status="ready",
                storage="reference",
                path=str(Path("/nonexistent") / f"{name}.gguf"),
                size_bytes=1,
                mtime_ns=0,
                sha256="0" * 64,
                metadata={},
                source={},
                created_at=now_text(),
            ),
        )
    return model_id
