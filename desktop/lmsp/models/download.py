"""Downloading a model file over HTTP(S) into the store, resumable after a restart.

:func:`download_file` runs in a worker thread. It writes to a ``.partial`` file,
fsyncs it regularly and reports each durable length through ``on_durable``:
that length is the download task's snapshot (LMSP §5.3). Given that snapshot
back as ``resume_from_bytes``, it asks the server for the rest with a
``Range`` request, and starts over when the server ignores ranges. The SHA-256
always covers the whole file. When everything has arrived and the fingerprint
matches, the partial file is renamed to its final name (without ``.partial``).

On any failure or cancellation the partial file is removed: only a crash leaves
it behind, for the next start to resume. Callers validate the finished file
with ``read_gguf_metadata``.

It uses the standard library's blocking HTTP client on purpose: the work is a
loop of blocking reads, writes, fsyncs and hashing that belongs in a worker
thread anyway, and a synchronous loop checks ``should_stop()`` between chunks
without any coordination with the service's event loop.
"""

from __future__ import annotations

import hashlib
import http.client
import io
import os
import time
import urllib.error
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from desktop.lmsp.errors import TaskFailure
from desktop.lmsp.models.download_http import (
    display_url,
    open_url,
    parse_content_range,
    validate_download_url,
)
from desktop.lmsp.models.durable_files import (
    ensure_free_space,
    is_disk_full,
    make_directories_durably,
    remove_quietly,
    rename_durably,
    storage_full_failure,
)
from desktop.lmsp.models.gguf_header import GGUF_MAGIC
from desktop.lmsp.models.hashing import HashingCancelled, hash_stream, normalize_sha256
from desktop.lmsp.models.progress import (
    DEFAULT_PROGRESS_INTERVAL_S,
    OperationCancelled,
    ProgressThrottle,
    StopCheck,
    never_stop,
)

PARTIAL_SUFFIX = ".partial"
DEFAULT_TIMEOUT_S = 30.0
DEFAULT_CHUNK_SIZE = 1024 * 1024
DEFAULT_DURABLE_EVERY_BYTES = 32 * 1024 * 1024
DEFAULT_DURABLE_INTERVAL_S = 2.0


class DownloadCancelled(OperationCancelled):
    """The download stopped because ``should_stop()`` answered true; its partial file is gone."""


@dataclass(frozen=True)
class DownloadResult:
    """A finished, verified download at its final path."""

    path: Path
    size: int
    sha256: str


def final_path_for(partial_path: str | os.PathLike[str]) -> Path:
    """The path a finished download gets: ``partial_path`` without its ``.partial`` suffix."""
    partial = Path(partial_path)
    if not partial.name.endswith(PARTIAL_SUFFIX) or partial.name == PARTIAL_SUFFIX:
        raise ValueError(f"a partial download's name must end with {PARTIAL_SUFFIX}")
    return partial.with_name(partial.name.removesuffix(PARTIAL_SUFFIX))


def download_file(
    url: str,
    partial_path: str | os.PathLike[str],
    *,
    resume_from_bytes: int = 0,
    expected_sha256: str | None = None,
    on_progress: Callable[[int, int | None], None] | None = None,
    on_durable: Callable[[int], None] | None = None,
    should_stop: StopCheck | None = None,
    require_gguf: bool = True,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    durable_every_bytes: int = DEFAULT_DURABLE_EVERY_BYTES,
    durable_interval_s: float = DEFAULT_DURABLE_INTERVAL_S,
    progress_interval_s: float = DEFAULT_PROGRESS_INTERVAL_S,
) -> DownloadResult:
    """Downloads ``url`` to ``partial_path``, verifies it and renames it to its final path.

    ``resume_from_bytes`` is the last length ``on_durable`` reported; a partial
    file shorter than that is not trusted and the download starts over.
    ``on_progress(bytes_so_far, total_or_None)`` is throttled to
    ``progress_interval_s``. ``on_durable(length)`` is called after each fsync,
    every ``durable_every_bytes`` or ``durable_interval_s``, whichever comes
    first. With ``require_gguf``, a body that does not start with the GGUF
    signature (a web page, say) fails at once with ``invalid_model_file``.

    Raises :class:`DownloadCancelled`, or ``TaskFailure`` with ``download_failed``
    (bad URL, HTTP error, connection error), ``hash_mismatch``,
    ``invalid_model_file`` or ``storage_full``. Raises ``ValueError`` for a
    malformed ``expected_sha256`` or ``partial_path``: the caller checks those first.
    """
    expected = normalize_sha256(expected_sha256) if expected_sha256 is not None else None
    partial = Path(partial_path).absolute()
    final = final_path_for(partial)
    try:
        url = validate_download_url(url)
    except ValueError as error:
        raise TaskFailure("download_failed", f"Cannot download {url!r}: {error}.") from error
    created: list[Path] = []
    try:
        make_directories_durably(partial.parent, created)
        fd = os.open(partial, os.O_RDWR | os.O_CREAT, 0o644)
        with os.fdopen(fd, "r+b") as file:
            job = _DownloadJob(
                url=url,
                file=file,
                partial=partial,
                should_stop=should_stop or never_stop,
                on_durable=on_durable,
                throttle=ProgressThrottle(on_progress, progress_interval_s),
                require_gguf=require_gguf,
                timeout_s=timeout_s,
                chunk_size=chunk_size,
                durable_every_bytes=durable_every_bytes,
                durable_interval_s=durable_interval_s,
            )
            size, sha256 = job.run(max(resume_from_bytes, 0))
        if expected is not None and sha256 != expected:
            raise TaskFailure(
                "hash_mismatch",
                f"The downloaded file's SHA-256 is {sha256}, not the expected {expected}.",
            )
        rename_durably(partial, final)
        return DownloadResult(final, size, sha256)
    except BaseException as error:
        remove_quietly(partial)
        for path in reversed(created):
            remove_quietly(path)
        if isinstance(error, HashingCancelled):
            raise DownloadCancelled("the download was cancelled") from error
        if isinstance(error, OSError):
            raise _local_failure(error, partial) from error
        raise


class _DownloadJob:
    """One attempt at a download, from the opened partial file to the verified length."""

    def __init__(
        self,
        *,
        url: str,
        file: io.BufferedRandom,
        partial: Path,
        should_stop: StopCheck,
        on_durable: Callable[[int], None] | None,
        throttle: ProgressThrottle[int | None],
        require_gguf: bool,
        timeout_s: float,
        chunk_size: int,
        durable_every_bytes: int,
        durable_interval_s: float,
    ) -> None:
        self._url = url
        self._file = file
        self._partial = partial
        self._should_stop = should_stop
        self._on_durable = on_durable
        self._throttle = throttle
        self._require_gguf = require_gguf
        self._timeout_s = timeout_s
        self._chunk_size = chunk_size
        self._durable_every_bytes = durable_every_bytes
        self._durable_interval_s = durable_interval_s
        self._digest = hashlib.sha256()
        self._written = 0
        self._durable = 0
        self._durable_at = time.monotonic()

    def run(self, resume_from: int) -> tuple[int, str]:
        start = self._keep_prefix(resume_from)
        response, total = self._open(start)
        if response is not None:
            with response:
                self._receive(response, total)
        self._make_durable()
        if total is not None and self._written != total:
            raise TaskFailure(
                "download_failed",
                f"The connection to {display_url(self._url)} closed after "
                f"{self._written:,} of {total:,} bytes.",
            )
        if self._require_gguf and self._written < len(GGUF_MAGIC):
            raise self._not_gguf(None)
        return self._written, self._digest.hexdigest()

    def _keep_prefix(self, resume_from: int) -> int:
        """Keeps the first ``resume_from`` bytes of the partial file if it has them; hashes them."""
        existing = os.fstat(self._file.fileno()).st_size
        start = resume_from if 0 < resume_from <= existing else 0
        self._file.truncate(start)
        self._file.seek(0)
        hash_stream(self._digest, self._file, limit=start, should_stop=self._should_stop)
        self._file.seek(start)
        self._written = self._durable = start
        return start

    def _start_over(self) -> None:
        """Empties the partial file; the durable length, and so the snapshot, goes back to 0."""
        self._file.seek(0)
        self._file.truncate(0)
        self._digest = hashlib.sha256()
        self._written = 0
        if self._durable:
            self._make_durable()

    def _open(self, start: int) -> tuple[http.client.HTTPResponse | None, int | None]:
        """Sends the request; returns the response (None if nothing is left) and the total size."""
        try:
            response = open_url(self._url, start=start, timeout_s=self._timeout_s)
        except urllib.error.HTTPError as error:
            error.close()
            if error.code == 416 and start:
                if parse_content_range(error.headers.get("Content-Range", ""))[2] == start:
                    return None, start  # The partial file already holds everything.
                self._start_over()
                return self._open(0)
            raise TaskFailure(
                "download_failed",
                f"The server answered HTTP {error.code} ({error.reason}) "
                f"for {display_url(self._url)}.",
            ) from error
        except (urllib.error.URLError, OSError, http.client.HTTPException) as error:
            raise self._connection_failure(error) from error
        if response.status == 206 and start:
            first, _, total = parse_content_range(response.headers.get("Content-Range", ""))
            if first != start:
                response.close()
                raise TaskFailure(
                    "download_failed",
                    f"The server sent bytes from {first} instead of {start} when resuming "
                    f"{display_url(self._url)}.",
                )
        elif response.status == 200:
            if start:
                self._start_over()  # The server ignores Range: everything comes again.
            length = response.headers.get("Content-Length", "")
            total = int(length) if length.isdigit() else None
        else:
            response.close()
            raise TaskFailure(
                "download_failed",
                f"The server answered HTTP {response.status} for {display_url(self._url)}.",
            )
        if total is not None:
            ensure_free_space(self._partial.parent, total - self._written)
        self._throttle.report(self._written, total, force=True)
        return response, total

    def _receive(self, response: http.client.HTTPResponse, total: int | None) -> None:
        check_signature = self._require_gguf and self._written == 0
        head = b""
        while True:
            if self._should_stop():
                raise DownloadCancelled("the download was cancelled")
            try:
                chunk = response.read1(self._chunk_size)
            except (OSError, http.client.HTTPException) as error:
                raise self._connection_failure(error) from error
            if not chunk:
                break
            if check_signature:
                head += chunk[: len(GGUF_MAGIC)]
                if len(head) >= len(GGUF_MAGIC):
                    if not head.startswith(GGUF_MAGIC):
                        raise self._not_gguf(response.headers.get("Content-Type"))
                    check_signature = False
            self._file.write(chunk)
            self._digest.update(chunk)
            self._written += len(chunk)
            self._throttle.report(self._written, total)
            now = time.monotonic()
            if (
                self._written - self._durable >= self._durable_every_bytes
                or now - self._durable_at >= self._durable_interval_s
            ):
                self._make_durable()
        self._throttle.report(self._written, total, force=True)

    def _make_durable(self) -> None:
        self._file.flush()
        os.fsync(self._file.fileno())
        self._durable_at = time.monotonic()
        if self._written != self._durable:
            self._durable = self._written
            if self._on_durable is not None:
                self._on_durable(self._written)

    def _connection_failure(self, error: BaseException) -> TaskFailure:
        reason: object = error
        if isinstance(error, urllib.error.URLError) and not isinstance(error.reason, str):
            reason = error.reason
        if isinstance(reason, TimeoutError):
            detail = f"the server sent nothing for {self._timeout_s:g} seconds"
        elif isinstance(reason, OSError) and reason.strerror:
            detail = reason.strerror
        elif isinstance(error, urllib.error.URLError):
            detail = str(error.reason)
        else:
            detail = str(reason) or type(reason).__name__
        received = f" after {self._written:,} bytes" if self._written else ""
        return TaskFailure(
            "download_failed", f"Downloading {display_url(self._url)} failed{received}: {detail}."
        )

    def _not_gguf(self, content_type: str | None) -> TaskFailure:
        sent = f" (it sent {content_type})" if content_type else ""
        return TaskFailure(
            "invalid_model_file",
            f"{display_url(self._url)} is not a GGUF model file{sent}. Use the address of the "
            ".gguf file itself, not of a page about it.",
        )


def _local_failure(error: OSError, partial: Path) -> TaskFailure:
    if is_disk_full(error):
        return storage_full_failure(partial.parent)
    return TaskFailure("download_failed", f"Could not write {partial}: {error.strerror or error}.")
