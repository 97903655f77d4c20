"""SHA-256 fingerprints: correctness, throttled progress, cancellation, and speed."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from desktop.lmsp.models.hashing import HashingCancelled, normalize_sha256, sha256_file


def test_hash_matches_hashlib(tmp_path: Path) -> None:
    content = os.urandom(3 * 1024 * 1024 + 17)
    path = tmp_path / "blob.bin"
    path.write_bytes(content)

    assert sha256_file(path, chunk_size=64 * 1024) == hashlib.sha256(content).hexdigest()
    assert sha256_file(path) == hashlib.sha256(content).hexdigest()


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.bin"
    path.write_bytes(b"")
    reports: list[tuple[int, int]] = []

    assert sha256_file(path, on_progress=lambda done, total: reports.append((done, total))) == (
        hashlib.sha256(b"").hexdigest()
    )
    assert reports == [(0, 0)]


def test_progress_is_throttled_but_ends_at_the_total(tmp_path: Path) -> None:
    path = tmp_path / "blob.bin"
    path.write_bytes(os.urandom(2 * 1024 * 1024))
    reports: list[tuple[int, int]] = []

    sha256_file(
        path,
        chunk_size=1024,  # 2048 chunks
        on_progress=lambda done, total: reports.append((done, total)),
        progress_interval_s=60,
    )

    assert reports == [(0, 2 * 1024 * 1024), (2 * 1024 * 1024, 2 * 1024 * 1024)]


def test_progress_is_reported_while_hashing(tmp_path: Path) -> None:
    path = tmp_path / "blob.bin"
    path.write_bytes(os.urandom(256 * 1024))
    reports: list[int] = []

    sha256_file(
        path,
        chunk_size=1024,
        on_progress=lambda done, _: reports.append(done),
        progress_interval_s=0,
    )

    assert reports == sorted(reports)
    assert len(reports) > 100
    assert reports[-1] == 256 * 1024


def test_cancel_between_chunks(tmp_path: Path) -> None:
    path = tmp_path / "blob.bin"
    path.write_bytes(os.urandom(1024 * 1024))
    checks = 0

    def should_stop() -> bool:
        nonlocal checks
        checks += 1
        return checks > 3

    with pytest.raises(HashingCancelled):
        sha256_file(path, chunk_size=1024, should_stop=should_stop)
    assert checks == 4


def test_missing_file_raises_os_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        sha256_file(tmp_path / "nothing")


def test_normalize_sha256() -> None:
    digest = hashlib.sha256(b"x").hexdigest()
    assert normalize_sha256(" " + digest.upper() + "\n") == digest
    for bad in ("", "abc", digest[:-1] + "g", digest + "0"):
        with pytest.raises(ValueError, match="64 hexadecimal digits"):
            normalize_sha256(bad)


@pytest.mark.model
@pytest.mark.skipif(shutil.which("sha256sum") is None, reason="needs coreutils sha256sum")
def test_throughput_is_close_to_sha256sum(starter_model_path: Path) -> None:
    """At least 0.9 x the speed of sha256sum on the same (page-cached) file."""
    sha256_file(starter_model_path)  # warm the page cache

    started = time.perf_counter()
    reference = subprocess.run(
        ["sha256sum", str(starter_model_path)], check=True, capture_output=True, text=True
    ).stdout.split()[0]
    sha256sum_seconds = time.perf_counter() - started

    started = time.perf_counter()
    ours = sha256_file(starter_model_path, on_progress=lambda _done, _total: None)
    our_seconds = time.perf_counter() - started

    assert ours == reference
    assert sha256sum_seconds / our_seconds >= 0.9
