"""``model.download`` tasks against a real local HTTP server."""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from desktop.lmsp.errors import InvalidRequest
from desktop.lmsp.requests import ModelDownloadRequest
from desktop.lmsp.service import Service, ServiceOptions
from tests.unit.lmsp.models.file_server import serve_file
from tests.unit.lmsp.models.gguf_samples import write_gguf
from tests.unit.lmsp.service_tasks import events_until_end


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[Service]:
    running = Service(ServiceOptions(data_dir=tmp_path / "data", port=0))
    await running.start()
    yield running
    await running.stop()


@pytest.fixture
def content(tmp_path: Path) -> bytes:
    return write_gguf(tmp_path / "served.gguf", tensor_shapes=((256, 256),)).read_bytes()


def stored_files(service: Service) -> list[Path]:
    folder = service.layout.models
    return sorted(p for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


async def test_download_registers_the_model(service: Service, content: bytes) -> None:
    digest = hashlib.sha256(content).hexdigest()
    with serve_file(content) as served:
        task = await service.download_model(
            ModelDownloadRequest(url=served.url(), sha256=digest.upper(), name="fetched"),
            owner="local",
        )
        events = await events_until_end(service, task.id)
    types = [event.type for event in events]
    assert types[:2] == ["model.download.queued", "model.download.running"]
    assert "model.download.progress" in types
    assert types[-1] == "model.download.completed"
    model = events[-1].data["model"]
    assert model["name"] == "fetched"
    assert model["storage"] == "download"
    assert model["sha256"] == digest
    assert Path(model["path"]) == service.layout.models / model["id"] / "fetched.gguf"
    assert stored_files(service) == [Path(model["path"])]
    await service.delete_model(model["id"])
    assert stored_files(service) == []


async def test_wrong_sha256_fails_with_hash_mismatch(service: Service, content: bytes) -> None:
    with serve_file(content) as served:
        task = await service.download_model(
            ModelDownloadRequest(url=served.url(), sha256="0" * 64), owner="local"
        )
        events = await events_until_end(service, task.id)
    assert events[-1].type == "model.download.failed"
    assert events[-1].data["error"]["code"] == "hash_mismatch"
    assert stored_files(service) == []
    assert await service.list_models() == []


async def test_a_web_page_fails_and_leaves_nothing(service: Service, content: bytes) -> None:
    with serve_file(content) as served:
        task = await service.download_model(
            ModelDownloadRequest(url=served.url("/page.html")), owner="local"
        )
        events = await events_until_end(service, task.id)
    assert events[-1].data["error"]["code"] == "invalid_model_file"
    assert stored_files(service) == []


async def test_bad_urls_and_digests_are_refused(service: Service) -> None:
    with pytest.raises(InvalidRequest) as bad_url:
        await service.download_model(ModelDownloadRequest(url="ftp://x/y.gguf"), owner="local")
    assert bad_url.value.param == "source.url"
    with pytest.raises(InvalidRequest) as bad_digest:
        await service.download_model(
            ModelDownloadRequest(url="http://127.0.0.1/y.gguf", sha256="xyz"), owner="local"
        )
    assert bad_digest.value.param == "source.sha256"
