"""Model import tasks, the model object, deletion rules, verification and the startup check."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from desktop.lmsp.errors import InvalidRequest, ModelInUse, ModelNotFound, NotFound
from desktop.lmsp.requests import ModelImportRequest, ResponseRequest
from desktop.lmsp.service import Service, ServiceOptions
from tests.unit.lmsp.models.gguf_samples import write_gguf
from tests.unit.lmsp.service_tasks import events_until_end

MODEL_KEYS = {
    "id",
    "object",
    "name",
    "format",
    "status",
    "size_bytes",
    "sha256",
    "path",
    "storage",
    "metadata",
    "created_at",
}


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[Service]:
    running = Service(ServiceOptions(data_dir=tmp_path / "data", port=0))
    await running.start()
    yield running
    await running.stop()


@pytest.fixture
def tiny_model(tmp_path: Path) -> Path:
    (tmp_path / "outside").mkdir()
    return write_gguf(tmp_path / "outside" / "tiny-model.gguf", name="Tiny")


def store_files(service: Service) -> list[Path]:
    models = service.layout.models
    if not models.exists():
        return []
    return sorted(p for p in models.rglob("*") if p.is_file())


async def import_file(service: Service, path: Path, storage: str = "copy") -> dict[str, object]:
    task = await service.import_model(
        ModelImportRequest(path=str(path), storage=storage), owner="local"
    )
    events = await events_until_end(service, task.id)
    assert events[-1].type == "model.import.completed", events[-1].data
    model = events[-1].data["model"]
    assert isinstance(model, dict)
    return model


@pytest.mark.parametrize("storage", ["copy", "link", "reference"])
async def test_import_registers_the_model_object(
    service: Service, tiny_model: Path, storage: str
) -> None:
    task = await service.import_model(
        ModelImportRequest(path=str(tiny_model), storage=storage), owner="local"
    )
    assert task.kind == "model.import"
    events = await events_until_end(service, task.id)
    types = [event.type for event in events]
    assert types[0] == "model.import.queued"
    assert types[1] == "model.import.running"
    assert "model.import.progress" in types
    assert types[-1] == "model.import.completed"
    progress = [e.data for e in events if e.type == "model.import.progress"]
    assert progress[-1] == {"bytes_done": tiny_model.stat().st_size, "bytes_total": None} or (
        progress[-1]["bytes_done"] == progress[-1]["bytes_total"] == tiny_model.stat().st_size
    )
    model = events[-1].data["model"]
    assert set(model) == MODEL_KEYS
    assert model["object"] == "model"
    assert model["name"] == "tiny-model"
    assert model["format"] == "gguf"
    assert model["status"] == "ready"
    assert model["storage"] == storage
    assert model["size_bytes"] == tiny_model.stat().st_size
    assert model["metadata"]["architecture"] == "llama"
    assert model["metadata"]["has_chat_template"] is True
    path = Path(model["path"])
    if storage == "reference":
        assert path == tiny_model
        assert store_files(service) == []
    else:
        assert path.parent == service.layout.models / model["id"]
        assert path.read_bytes() == tiny_model.read_bytes()
    if storage == "link":
        assert path.stat().st_ino == tiny_model.stat().st_ino
    assert await service.get_model(model["id"]) == model
    assert await service.get_model("tiny-model") == model
    assert await service.list_models() == [model]


async def test_a_second_import_gets_a_unique_name(service: Service, tiny_model: Path) -> None:
    first = await import_file(service, tiny_model, "reference")
    second = await import_file(service, tiny_model, "copy")
    assert (first["name"], second["name"]) == ("tiny-model", "tiny-model-2")


@pytest.mark.parametrize("kind", ["not_gguf", "truncated"])
async def test_an_invalid_file_fails_and_leaves_nothing(
    service: Service, tmp_path: Path, tiny_model: Path, kind: str
) -> None:
    bad = tmp_path / "bad.gguf"
    if kind == "not_gguf":
        bad.write_bytes(b"<html>not a model</html>" * 100)
    else:
        bad.write_bytes(tiny_model.read_bytes()[:-20])
    task = await service.import_model(ModelImportRequest(path=str(bad)), owner="local")
    events = await events_until_end(service, task.id)
    assert events[-1].type == "model.import.failed"
    assert events[-1].data["error"]["code"] == "invalid_model_file"
    assert store_files(service) == []
    assert await service.list_models() == []


async def test_a_relative_path_or_bad_storage_is_refused(service: Service) -> None:
    with pytest.raises(InvalidRequest):
        await service.import_model(ModelImportRequest(path="relative.gguf"), owner="local")
    with pytest.raises(InvalidRequest):
        await service.import_model(
            ModelImportRequest(path="/abs.gguf", storage="move"), owner="local"
        )


async def test_delete_removes_owned_files_and_never_a_reference(
    service: Service, tiny_model: Path
) -> None:
    copied = await import_file(service, tiny_model, "copy")
    linked = await import_file(service, tiny_model, "link")
    referenced = await import_file(service, tiny_model, "reference")
    for model in (copied, linked, referenced):
        await service.delete_model(str(model["id"]))
        with pytest.raises(NotFound):
            await service.get_model(str(model["id"]))
    assert store_files(service) == []
    assert tiny_model.exists()
    with pytest.raises(NotFound):
        await service.delete_model("no-such-model")


async def test_delete_is_refused_while_a_task_uses_the_model(
    service: Service, tiny_model: Path
) -> None:
    model = await import_file(service, tiny_model, "reference")
    service.set_paused(True)
    assert service.paused
    created = await service.create_response(
        ResponseRequest(model=str(model["name"]), input="Hi", background=True), owner="local"
    )
    assert created["status"] == "queued"
    with pytest.raises(ModelInUse):
        await service.delete_model(str(model["id"]))
    await service.cancel_task(created["id"])
    await service.delete_model(str(model["id"]))


async def test_a_response_for_an_unknown_model_is_refused(service: Service) -> None:
    with pytest.raises(ModelNotFound):
        await service.create_response(ResponseRequest(model="nope", input="Hi"), owner="local")


async def test_startup_check_marks_missing_and_changed(tmp_path: Path, tiny_model: Path) -> None:
    data = tmp_path / "data"
    service = Service(ServiceOptions(data_dir=data, port=0))
    await service.start()
    gone = write_gguf(tmp_path / "outside" / "gone.gguf")
    edited = write_gguf(tmp_path / "outside" / "edited.gguf")
    gone_model = await import_file(service, gone, "reference")
    edited_model = await import_file(service, edited, "reference")
    kept_model = await import_file(service, tiny_model, "reference")
    await service.stop()
    gone.unlink()
    with edited.open("ab") as file:
        file.write(b"\0" * 64)
    service = Service(ServiceOptions(data_dir=data, port=0))
    await service.start()
    try:
        assert (await service.get_model(str(gone_model["id"])))["status"] == "missing"
        assert (await service.get_model(str(edited_model["id"])))["status"] == "changed"
        assert (await service.get_model(str(kept_model["id"])))["status"] == "ready"
    finally:
        await service.stop()


async def test_verify_rehashes(service: Service, tiny_model: Path) -> None:
    model = await import_file(service, tiny_model, "reference")
    assert (await service.verify_model(str(model["id"])))["status"] == "ready"
    content = bytearray(tiny_model.read_bytes())
    content[-1] ^= 0xFF
    stat = tiny_model.stat()
    tiny_model.write_bytes(bytes(content))
    os.utime(tiny_model, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert (await service.verify_model(str(model["id"])))["status"] == "changed"
    tiny_model.unlink()
    assert (await service.verify_model(str(model["id"])))["status"] == "missing"


async def test_cancel_during_import_leaves_nothing(service: Service, tmp_path: Path) -> None:
    service.set_paused(True)
    big = write_gguf(tmp_path / "big.gguf", tensor_shapes=((1024, 1024),))
    task = await service.import_model(ModelImportRequest(path=str(big)), owner="local")
    outcome = await service.cancel_task(task.id)
    assert outcome.task.status.value == "cancelled"
    service.set_paused(False)
    events = await events_until_end(service, task.id)
    assert [e.type for e in events] == ["model.import.queued", "model.import.cancelled"]
    assert store_files(service) == []
