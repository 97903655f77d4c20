"""Placing model files in the store: copy, link, reference, cleanup, state checks, removal."""

from __future__ import annotations

import errno
import hashlib
import os
from pathlib import Path

import pytest

from desktop.lmsp.errors import TaskFailure
from desktop.lmsp.models import placement
from desktop.lmsp.models.placement import (
    PlacementCancelled,
    file_state,
    place_model_file,
    remove_owned_file,
)


@pytest.fixture
def source(tmp_path: Path) -> Path:
    path = tmp_path / "downloads" / "tiny.gguf"
    path.parent.mkdir()
    path.write_bytes(b"GGUF" + os.urandom(3 * 1024 * 1024))
    return path


@pytest.fixture
def models_dir(tmp_path: Path) -> Path:
    return tmp_path / "data" / "models"


def tree(directory: Path) -> list[str]:
    return sorted(str(p.relative_to(directory)) for p in directory.rglob("*"))


def test_copy_puts_a_fingerprinted_copy_in_its_folder(source: Path, models_dir: Path) -> None:
    reports: list[tuple[int, int]] = []

    placed = place_model_file(
        source,
        models_dir,
        "copy",
        subdir="mdl_1",
        chunk_size=256 * 1024,
        on_progress=lambda done, total: reports.append((done, total)),
        progress_interval_s=0,
    )

    assert placed.path == models_dir / "mdl_1" / "tiny.gguf"
    assert placed.path.read_bytes() == source.read_bytes()
    assert placed.sha256 == hashlib.sha256(source.read_bytes()).hexdigest()
    assert placed.owned is True
    status = placed.path.stat()
    assert (placed.size_bytes, placed.mtime_ns) == (status.st_size, status.st_mtime_ns)
    assert placed.path.stat().st_ino != source.stat().st_ino
    assert reports[0] == (0, placed.size_bytes)
    assert reports[-1] == (placed.size_bytes, placed.size_bytes)
    assert len(reports) > 3
    assert tree(models_dir) == ["mdl_1", "mdl_1/tiny.gguf"]  # no temporary file left


def test_copy_without_subdir_uses_a_fresh_folder(source: Path, models_dir: Path) -> None:
    first = place_model_file(source, models_dir, "copy")
    second = place_model_file(source, models_dir, "copy")

    assert first.path.parent != second.path.parent
    assert first.path.parent.parent == models_dir


def test_link_is_a_hard_link_to_the_original(source: Path, models_dir: Path) -> None:
    placed = place_model_file(source, models_dir, "link", subdir="mdl_2")

    assert placed.path == models_dir / "mdl_2" / "tiny.gguf"
    assert placed.path.stat().st_ino == source.stat().st_ino
    assert placed.owned is True
    assert placed.sha256 == hashlib.sha256(source.read_bytes()).hexdigest()

    assert remove_owned_file(placed.path, models_dir) is True
    assert source.exists()  # dropping the store's link leaves the original
    assert tree(models_dir) == []


def test_reference_leaves_the_file_where_it_is(source: Path, models_dir: Path) -> None:
    before = source.stat()

    placed = place_model_file(source, models_dir, "reference")

    assert placed.path == source
    assert placed.owned is False
    assert placed.sha256 == hashlib.sha256(source.read_bytes()).hexdigest()
    assert (placed.size_bytes, placed.mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert source.stat().st_mtime_ns == before.st_mtime_ns
    assert not models_dir.exists()


@pytest.mark.parametrize("storage", ["copy", "link", "reference"])
def test_cancel_leaves_nothing_behind(source: Path, models_dir: Path, storage: str) -> None:
    models_dir.mkdir(parents=True)
    checks = 0

    def should_stop() -> bool:
        nonlocal checks
        checks += 1
        return checks > 2

    with pytest.raises(PlacementCancelled):
        place_model_file(
            source,
            models_dir,
            storage,  # type: ignore[arg-type]
            subdir="mdl_3",
            chunk_size=64 * 1024,
            should_stop=should_stop,
        )

    assert tree(models_dir) == []
    assert source.exists()


def test_a_failed_copy_leaves_nothing_behind(
    source: Path, models_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def disk_full(*_args: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(placement, "rename_durably", disk_full)

    with pytest.raises(TaskFailure) as failure:
        place_model_file(source, models_dir, "copy", subdir="mdl_4")

    assert failure.value.code == "storage_full"
    assert not models_dir.exists()  # the folders it created are gone too


def test_a_cross_device_link_suggests_a_copy(
    source: Path, models_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def cross_device(*_args: object) -> None:
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    monkeypatch.setattr(os, "link", cross_device)

    with pytest.raises(TaskFailure) as failure:
        place_model_file(source, models_dir, "link", subdir="mdl_5")

    assert failure.value.code == "import_failed"
    assert "different disk" in failure.value.message
    assert '"copy"' in failure.value.message
    assert not models_dir.exists()


def test_a_name_already_in_the_folder_is_not_overwritten(source: Path, models_dir: Path) -> None:
    existing = models_dir / "mdl_6" / "tiny.gguf"
    existing.parent.mkdir(parents=True)
    existing.write_bytes(b"keep me")

    with pytest.raises(TaskFailure) as failure:
        place_model_file(source, models_dir, "copy", subdir="mdl_6")

    assert failure.value.code == "import_failed"
    assert existing.read_bytes() == b"keep me"


def test_missing_or_unusable_sources(tmp_path: Path, models_dir: Path) -> None:
    with pytest.raises(TaskFailure) as missing:
        place_model_file(tmp_path / "nothing.gguf", models_dir, "copy")
    with pytest.raises(TaskFailure) as folder:
        place_model_file(tmp_path, models_dir, "reference")

    assert missing.value.code == "model_missing"
    assert folder.value.code == "invalid_model_file"
    assert not models_dir.exists()


def test_bad_arguments_are_value_errors(source: Path, models_dir: Path) -> None:
    with pytest.raises(ValueError, match="storage"):
        place_model_file(source, models_dir, "move")  # type: ignore[arg-type]
    for subdir in ("", "..", "a/b"):
        with pytest.raises(ValueError, match="subdir"):
            place_model_file(source, models_dir, "copy", subdir=subdir)


def test_file_state(source: Path) -> None:
    status = source.stat()
    assert file_state(source, status.st_size, status.st_mtime_ns) == "ready"
    assert file_state(source, status.st_size + 1, status.st_mtime_ns) == "changed"
    os.utime(source, ns=(status.st_atime_ns, status.st_mtime_ns + 1_000_000_000))
    assert file_state(source, status.st_size, status.st_mtime_ns) == "changed"
    assert file_state(source.parent, 0, 0) == "missing"
    source.unlink()
    assert file_state(source, status.st_size, status.st_mtime_ns) == "missing"


def test_remove_owned_file_refuses_paths_outside_the_store(source: Path, models_dir: Path) -> None:
    placed = place_model_file(source, models_dir, "copy", subdir="mdl_7")

    for outside in (
        source,
        models_dir,
        models_dir / "mdl_7" / "..",
        models_dir / ".." / "models-other" / "x.gguf",
    ):
        with pytest.raises(ValueError, match="outside the model store"):
            remove_owned_file(outside, models_dir)
    assert source.exists()

    assert remove_owned_file(placed.path, models_dir) is True
    assert remove_owned_file(placed.path, models_dir) is False
    assert tree(models_dir) == []
    assert models_dir.exists()
