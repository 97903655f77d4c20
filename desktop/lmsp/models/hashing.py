"""SHA-256 content fingerprints of model files, with throttled progress and cancellation.

The fingerprint is what the registry stores for every model (LMSP §3). Files
are read in large chunks into one reused buffer; ``hashlib`` releases the GIL
while it hashes, so hashing in a worker thread leaves the service loop free.
"""

from __future__ import annotations

import hashlib
import os
import string
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from desktop.lmsp.models.progress import (
    DEFAULT_PROGRESS_INTERVAL_S,
    OperationCancelled,
    ProgressThrottle,
    StopCheck,
    never_stop,
)

DEFAULT_CHUNK_SIZE = 8 * 1024 * 1024
SHA256_HEX_LENGTH = 64


class HashingCancelled(OperationCancelled):
    """Hashing stopped because ``should_stop()`` answered true."""


class Digest(Protocol):
    """The part of a ``hashlib`` hash object that hashing uses."""

    def update(self, data: bytes | bytearray | memoryview, /) -> None: ...

    def hexdigest(self) -> str: ...


class ReadableInto(Protocol):
    """A binary file that can read into a caller's buffer."""

    def readinto(self, buffer: memoryview, /) -> int | None: ...


def normalize_sha256(value: str) -> str:
    """Returns ``value`` as 64 lowercase hex digits, or raises ``ValueError``."""
    text = value.strip().lower()
    if len(text) != SHA256_HEX_LENGTH or not set(text) <= set(string.hexdigits.lower()):
        raise ValueError("sha256 must be 64 hexadecimal digits")
    return text


def sha256_file(
    path: str | os.PathLike[str],
    *,
    on_progress: Callable[[int, int], None] | None = None,
    should_stop: StopCheck | None = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    progress_interval_s: float = DEFAULT_PROGRESS_INTERVAL_S,
) -> str:
    """Returns the SHA-256 of the file at ``path`` as 64 lowercase hex digits.

    ``on_progress(bytes_hashed, total_bytes)`` is called at most every
    ``progress_interval_s`` seconds and once at the end. ``should_stop()`` is
    checked before each chunk; when it answers true, :class:`HashingCancelled`
    is raised. ``OSError`` from reading the file propagates.
    """
    digest = hashlib.sha256()
    with Path(path).open("rb", buffering=0) as file:
        total = os.fstat(file.fileno()).st_size
        throttle: ProgressThrottle[int] = ProgressThrottle(on_progress, progress_interval_s)
        throttle.report(0, total, force=True)
        hashed = hash_stream(
            digest,
            file,
            limit=None,
            should_stop=should_stop,
            on_chunk=lambda done: throttle.report(done, total),
            chunk_size=chunk_size,
        )
        throttle.report(hashed, total, force=True)
    return digest.hexdigest()


def hash_stream(
    digest: Digest,
    file: ReadableInto,
    *,
    limit: int | None,
    should_stop: StopCheck | None = None,
    on_chunk: Callable[[int], None] | None = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
) -> int:
    """Feeds ``file`` from its current position into ``digest``; returns the bytes read.

    Reads up to ``limit`` bytes (to the end when ``None``). ``on_chunk(bytes_so_far)``
    is called after each chunk. Raises :class:`HashingCancelled` when
    ``should_stop()`` answers true between chunks.
    """
    stop = should_stop or never_stop
    buffer = bytearray(chunk_size)
    view = memoryview(buffer)
    done = 0
    while limit is None or done < limit:
        if stop():
            raise HashingCancelled("hashing was cancelled")
        wanted = chunk_size if limit is None else min(chunk_size, limit - done)
        count = file.readinto(view[:wanted])
        if not count:
            break
        digest.update(view[:count])
        done += count
        if on_chunk is not None:
            on_chunk(done)
    return done
