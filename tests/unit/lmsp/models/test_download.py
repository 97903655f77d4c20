"""Downloads from a real local HTTP server: full, resumed, restarted, failed, cancelled."""

from __future__ import annotations

import hashlib
import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop.lmsp.errors import TaskFailure
from desktop.lmsp.models.download import (
    DownloadCancelled,
    DownloadResult,
    download_file,
    final_path_for,
)
from desktop.lmsp.models.download_http import (
    display_url,
    parse_content_range,
    validate_download_url,
)
from tests.unit.lmsp.models.file_server import ServedFile, serve_file

CONTENT = b"GGUF" + os.urandom(4 * 1024 * 1024 - 4)
CONTENT_SHA256 = hashlib.sha256(CONTENT).hexdigest()
SMALL = 256 * 1024


@pytest.fixture
def server() -> Iterator[ServedFile]:
    with serve_file(CONTENT) as served:
        yield served


@pytest.fixture
def no_range_server() -> Iterator[ServedFile]:
    with serve_file(CONTENT, honour_range=False) as served:
        yield served


@pytest.fixture
def partial(tmp_path: Path) -> Path:
    return tmp_path / "models" / "mdl_1" / "model.gguf.partial"


def download(url: str, partial: Path, **options: object) -> DownloadResult:
    options.setdefault("chunk_size", 64 * 1024)
    options.setdefault("timeout_s", 5)
    return download_file(url, partial, **options)  # type: ignore[arg-type]


def test_full_download(server: ServedFile, partial: Path) -> None:
    progress: list[tuple[int, int | None]] = []
    durable: list[int] = []

    result = download(
        server.url(),
        partial,
        expected_sha256=CONTENT_SHA256.upper(),
        on_progress=lambda done, total: progress.append((done, total)),
        on_durable=durable.append,
        durable_every_bytes=SMALL,
        progress_interval_s=0,
    )

    assert result == DownloadResult(partial.parent / "model.gguf", len(CONTENT), CONTENT_SHA256)
    assert result.path.read_bytes() == CONTENT
    assert not partial.exists()
    assert server.bytes_sent == len(CONTENT)
    assert server.range_headers == [None]
    assert progress[0] == (0, len(CONTENT))
    assert progress[-1] == (len(CONTENT), len(CONTENT))
    assert durable == sorted(durable)
    assert len(durable) >= len(CONTENT) // SMALL - 1
    assert durable[-1] == len(CONTENT)


def test_resume_sends_only_the_missing_bytes(server: ServedFile, partial: Path) -> None:
    already = 1_500_000
    partial.parent.mkdir(parents=True)
    # Bytes past the durable length are not trusted and are dropped.
    partial.write_bytes(CONTENT[:already] + b"not fsynced")

    result = download(
        server.url(), partial, resume_from_bytes=already, expected_sha256=CONTENT_SHA256
    )

    assert server.range_headers == [f"bytes={already}-"]
    assert server.bytes_sent == len(CONTENT) - already
    assert result.sha256 == CONTENT_SHA256
    assert result.path.read_bytes() == CONTENT


def test_resume_after_a_crash_from_the_last_durable_length(
    server: ServedFile, partial: Path
) -> None:
    class Crash(Exception):
        pass

    snapshot: dict[str, object] = {}

    def crash_after_1_mib(length: int) -> None:
        if length >= 1024 * 1024:
            snapshot["length"] = length
            snapshot["bytes"] = partial.read_bytes()[:length]
            raise Crash

    with pytest.raises(Crash):
        download(server.url(), partial, on_durable=crash_after_1_mib, durable_every_bytes=SMALL)
    length = snapshot["length"]
    assert isinstance(length, int)
    assert snapshot["bytes"] == CONTENT[:length]

    # What a crash leaves behind: the durable prefix, maybe with a tail.
    partial.parent.mkdir(parents=True, exist_ok=True)
    partial.write_bytes(CONTENT[:length] + b"x" * 1000)
    sent_before = server.bytes_sent
    result = download(server.url(), partial, resume_from_bytes=length)

    assert server.bytes_sent - sent_before == len(CONTENT) - length
    assert result.sha256 == CONTENT_SHA256


def test_a_server_without_range_support_starts_over(
    no_range_server: ServedFile, partial: Path
) -> None:
    partial.parent.mkdir(parents=True)
    partial.write_bytes(CONTENT[:1_000_000])
    durable: list[int] = []

    result = download(
        no_range_server.url(),
        partial,
        resume_from_bytes=1_000_000,
        expected_sha256=CONTENT_SHA256,
        on_durable=durable.append,
    )

    assert no_range_server.range_headers == ["bytes=1000000-"]
    assert durable[0] == 0  # the snapshot goes back to zero before the bytes come again
    assert durable[-1] == len(CONTENT)
    assert no_range_server.bytes_sent == len(CONTENT)
    assert result.path.read_bytes() == CONTENT


def test_a_partial_shorter_than_its_snapshot_starts_over(server: ServedFile, partial: Path) -> None:
    partial.parent.mkdir(parents=True)
    partial.write_bytes(CONTENT[:1000])

    result = download(server.url(), partial, resume_from_bytes=5000)

    assert server.range_headers == [None]
    assert result.sha256 == CONTENT_SHA256


def test_a_partial_that_is_already_complete(server: ServedFile, partial: Path) -> None:
    partial.parent.mkdir(parents=True)
    partial.write_bytes(CONTENT)

    result = download(server.url(), partial, resume_from_bytes=len(CONTENT))

    assert server.range_headers == [f"bytes={len(CONTENT)}-"]
    assert server.bytes_sent == 0
    assert result.sha256 == CONTENT_SHA256


def test_a_wrong_hash_fails_and_removes_the_file(server: ServedFile, partial: Path) -> None:
    with pytest.raises(TaskFailure) as failure:
        download(server.url(), partial, expected_sha256="0" * 64)

    assert failure.value.code == "hash_mismatch"
    assert CONTENT_SHA256 in failure.value.message
    assert not partial.parent.exists()


def test_a_404_fails_with_a_clear_message(server: ServedFile, partial: Path) -> None:
    with pytest.raises(TaskFailure) as failure:
        download(server.url("/missing.gguf?token=secret"), partial)

    assert failure.value.code == "download_failed"
    assert "HTTP 404" in failure.value.message
    assert "/missing.gguf" in failure.value.message
    assert "secret" not in failure.value.message
    assert not partial.parent.exists()


def test_a_refused_connection_fails(partial: Path) -> None:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]

    with pytest.raises(TaskFailure) as failure:
        download(f"http://127.0.0.1:{port}/model.gguf", partial)

    assert failure.value.code == "download_failed"
    assert "refused" in failure.value.message.lower()


def test_a_connection_closed_early_fails(server: ServedFile, partial: Path) -> None:
    with pytest.raises(TaskFailure) as failure:
        download(server.url("/short.gguf"), partial)

    assert failure.value.code == "download_failed"
    assert f"of {len(CONTENT):,} bytes" in failure.value.message
    assert not partial.exists()


def test_a_stalled_server_times_out(server: ServedFile, partial: Path) -> None:
    with pytest.raises(TaskFailure) as failure:
        download(server.url("/stall.gguf"), partial, timeout_s=0.3)

    assert failure.value.code == "download_failed"
    assert "sent nothing for 0.3 seconds" in failure.value.message


def test_a_web_page_is_not_a_model(server: ServedFile, partial: Path) -> None:
    with pytest.raises(TaskFailure) as failure:
        download(server.url("/page.html"), partial)

    assert failure.value.code == "invalid_model_file"
    assert "text/html" in failure.value.message
    assert not partial.parent.exists()


def test_redirects_are_followed_only_to_http(server: ServedFile, partial: Path) -> None:
    result = download(server.url("/moved.gguf"), partial)
    assert result.sha256 == CONTENT_SHA256

    with pytest.raises(TaskFailure) as failure:
        download(server.url("/moved-to-file.gguf"), partial)
    assert failure.value.code == "download_failed"


def test_cancel_stops_the_download_and_removes_the_partial(
    server: ServedFile, partial: Path
) -> None:
    received: list[int] = []

    def should_stop() -> bool:
        return bool(received) and received[-1] >= 512 * 1024

    with pytest.raises(DownloadCancelled):
        download(
            server.url(),
            partial,
            should_stop=should_stop,
            on_progress=lambda done, _total: received.append(done),
            progress_interval_s=0,
        )

    assert 512 * 1024 <= received[-1] < len(CONTENT)
    assert not partial.parent.exists()


@pytest.mark.parametrize("url", ["ftp://example.com/a.gguf", "file:///etc/passwd", "http:///x"])
def test_only_http_and_https_urls_are_accepted(url: str, partial: Path) -> None:
    with pytest.raises(ValueError, match="URL"):
        validate_download_url(url)
    with pytest.raises(TaskFailure) as failure:
        download(url, partial)
    assert failure.value.code == "download_failed"
    assert not partial.parent.exists()


def test_argument_errors_are_value_errors(server: ServedFile, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"\.partial"):
        download(server.url(), tmp_path / "model.gguf")
    with pytest.raises(ValueError, match="64 hexadecimal"):
        download(server.url(), tmp_path / "model.gguf.partial", expected_sha256="abc")
    assert final_path_for("/m/a.gguf.partial") == Path("/m/a.gguf")


def test_http_helpers() -> None:
    assert parse_content_range("bytes 10-99/100") == (10, 99, 100)
    assert parse_content_range("bytes */100") == (None, None, 100)
    assert parse_content_range("bytes 0-9/*") == (0, 9, None)
    assert parse_content_range("nonsense") == (None, None, None)
    assert display_url("https://user:pw@host:8443/f.gguf?sig=1") == "https://host:8443/f.gguf"
