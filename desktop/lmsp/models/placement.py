"""Placing an imported model file in the store, checking it at startup, and removing it.

Three storage modes (LMSP §3):

* ``copy``: the file is copied to ``<models dir>/<subdir>/<file name>`` through a
  temporary file that is fsynced and renamed into place. The copy and the
  SHA-256 share one read pass.
* ``link``: the store holds a hard link to the original file (same disk only).
* ``reference``: the file stays where it is; only its fingerprint is taken.

On any failure or cancellation, everything the placement created is removed.
Callers validate the file with ``read_gguf_metadata`` before placing it.
"""

from __future__ import annotations

import errno
import hashlib
import os
import secrets
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Literal

from desktop.lmsp.errors import TaskFailure
from desktop.lmsp.models.durable_files import (
    ensure_free_space,
    fsync_directory,
    is_disk_full,
    make_directories_durably,
    remove_quietly,
    rename_durably,
    storage_full_failure,
)
from desktop.lmsp.models.hashing import (
    DEFAULT_CHUNK_SIZE,
    Digest,
    HashingCancelled,
    ReadableInto,
    sha256_file,
)
from desktop.lmsp.models.progress import (
    DEFAULT_PROGRESS_INTERVAL_S,
    OperationCancelled,
    ProgressThrottle,
    StopCheck,
    never_stop,
)

StorageMode = Literal["copy", "link", "reference"]
FileState = Literal["ready", "missing", "changed"]
STORAGE_MODES: tuple[StorageMode, ...] = ("copy", "link", "reference")


class PlacementCancelled(OperationCancelled):
    """Placing a file stopped because ``should_stop()`` answered true; nothing was left."""


@dataclass(frozen=True)
class PlacedFile:
    """A model file as the registry records it."""

    path: Path
    size_bytes: int
    mtime_ns: int
    sha256: str
    owned: bool
    """True when ``path`` is the store's own entry (a copy or a link) that it may unlink."""


def place_model_file(
    source: str | os.PathLike[str],
    models_dir: str | os.PathLike[str],
    storage: StorageMode,
    *,
    subdir: str | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    should_stop: StopCheck | None = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    progress_interval_s: float = DEFAULT_PROGRESS_INTERVAL_S,
) -> PlacedFile:
    """Puts ``source`` in the store according to ``storage`` and fingerprints it.

    ``subdir`` (one path component, typically the model id) names the folder
    under ``models_dir`` for ``copy`` and ``link``; a random one is used when it
    is ``None``. ``on_progress(bytes_done, total_bytes)`` reports the single
    read pass. Raises :class:`PlacementCancelled` on cancellation,
    ``TaskFailure`` (``model_missing``, ``invalid_model_file``, ``import_failed``,
    ``storage_full``) for known failures, and ``ValueError`` for a bad
    ``storage`` or ``subdir``.
    """
    if storage not in STORAGE_MODES:
        raise ValueError(f"storage must be one of {', '.join(STORAGE_MODES)}")
    source_path = Path(source).absolute()
    size = _check_source(source_path)
    if storage == "reference":
        return _fingerprint_in_place(
            source_path,
            owned=False,
            on_progress=on_progress,
            should_stop=should_stop,
            chunk_size=chunk_size,
            progress_interval_s=progress_interval_s,
        )
    directory = Path(models_dir).absolute() / _checked_subdir(subdir)
    target = directory / source_path.name
    created: list[Path] = []
    try:
        make_directories_durably(directory, created)
        if target.exists():
            raise FileExistsError(errno.EEXIST, "a file with this name is already stored", target)
        if storage == "link":
            _link(source_path, target)
            created.append(target)
            return _fingerprint_in_place(
                target,
                owned=True,
                on_progress=on_progress,
                should_stop=should_stop,
                chunk_size=chunk_size,
                progress_interval_s=progress_interval_s,
            )
        ensure_free_space(directory, size)
        throttle: ProgressThrottle[int] = ProgressThrottle(on_progress, progress_interval_s)
        return _copy_and_fingerprint(
            source_path, target, throttle, should_stop or never_stop, chunk_size, created
        )
    except BaseException as error:
        for path in reversed(created):
            remove_quietly(path)
        if isinstance(error, HashingCancelled):
            raise PlacementCancelled("placing the model file was cancelled") from error
        if isinstance(error, OSError):
            raise _failure_for(error, source_path, directory) from error
        raise


def file_state(path: str | os.PathLike[str], size_bytes: int, mtime_ns: int) -> FileState:
    """Compares a recorded file with the disk: ``ready``, ``missing`` or ``changed``.

    A path that cannot be read or is no longer a regular file counts as missing.
    """
    try:
        status = Path(path).stat()
    except OSError:
        return "missing"
    if not stat.S_ISREG(status.st_mode):
        return "missing"
    if status.st_size != size_bytes or status.st_mtime_ns != mtime_ns:
        return "changed"
    return "ready"


def remove_owned_file(path: str | os.PathLike[str], models_dir: str | os.PathLike[str]) -> bool:
    """Deletes a store-owned file (a copy, a download, a link, a partial download).

    Also removes its folder when that folder is left empty. Unlinking a
    ``link`` entry leaves the original file untouched. Returns False when the
    file was already gone. Raises ``ValueError`` for any path outside
    ``models_dir``, so that a file the user owns is never deleted.
    """
    store = Path(models_dir).resolve()
    candidate = Path(path)
    entry = candidate.parent.resolve() / candidate.name
    if candidate.name in {"", ".", ".."} or store not in entry.parents:
        raise ValueError(f"{candidate} is outside the model store {store}; it is not deleted")
    try:
        entry.unlink()
        removed = True
    except FileNotFoundError:
        removed = False
    folder = entry.parent
    if folder != store:
        try:
            folder.rmdir()
        except OSError:
            pass  # Not empty, or already gone.
        else:
            fsync_directory(folder.parent)
    if removed:
        fsync_directory(folder)
    return removed


def _check_source(source: Path) -> int:
    try:
        status = source.stat()
    except FileNotFoundError as error:
        raise TaskFailure("model_missing", f"There is no file at {source}.") from error
    except OSError as error:
        raise TaskFailure(
            "import_failed", f"{source} cannot be read: {error.strerror or error}."
        ) from error
    if not source.is_file():
        raise TaskFailure("invalid_model_file", f"{source} is not a regular file.")
    return status.st_size


def _checked_subdir(subdir: str | None) -> str:
    if subdir is None:
        return secrets.token_hex(8)
    if not subdir or subdir in {".", ".."} or "/" in subdir or os.sep in subdir:
        raise ValueError(f"subdir must be a single folder name, not {subdir!r}")
    return subdir


def _link(source: Path, target: Path) -> None:
    try:
        os.link(source, target)
    except OSError as error:
        if error.errno == errno.EXDEV:
            raise TaskFailure(
                "import_failed",
                f"{source} is on a different disk than the model store, so it cannot be "
                'linked. Import it with storage "copy" or "reference" instead.',
            ) from error
        if error.errno in {errno.EPERM, errno.EACCES, errno.EMLINK, errno.ENOTSUP}:
            raise TaskFailure(
                "import_failed",
                f"{source} cannot be linked into the model store ({error.strerror}). "
                'Import it with storage "copy" or "reference" instead.',
            ) from error
        raise
    fsync_directory(target.parent)


def _fingerprint_in_place(
    path: Path,
    *,
    owned: bool,
    on_progress: Callable[[int, int], None] | None,
    should_stop: StopCheck | None,
    chunk_size: int,
    progress_interval_s: float,
) -> PlacedFile:
    try:
        before = path.stat()
        digest = sha256_file(
            path,
            on_progress=on_progress,
            should_stop=should_stop,
            chunk_size=chunk_size,
            progress_interval_s=progress_interval_s,
        )
        after = path.stat()
    except HashingCancelled as error:
        raise PlacementCancelled("placing the model file was cancelled") from error
    except OSError as error:
        raise _failure_for(error, path, path.parent) from error
    _check_unchanged(path, before, after, bytes_read=after.st_size)
    return PlacedFile(path, after.st_size, after.st_mtime_ns, digest, owned)


def _copy_and_fingerprint(
    source: Path,
    target: Path,
    throttle: ProgressThrottle[int],
    should_stop: StopCheck,
    chunk_size: int,
    created: list[Path],
) -> PlacedFile:
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(4)}.importing")
    digest = hashlib.sha256()
    with source.open("rb", buffering=0) as reader:
        before = os.fstat(reader.fileno())
        total = before.st_size
        throttle.report(0, total, force=True)
        with temporary.open("xb") as writer:
            created.append(temporary)
            done = _copy_stream(reader, writer, digest, should_stop, throttle, total, chunk_size)
            writer.flush()
            os.fsync(writer.fileno())
        after = os.fstat(reader.fileno())
    _check_unchanged(source, before, after, bytes_read=done)
    rename_durably(temporary, target)
    created.remove(temporary)
    created.append(target)
    throttle.report(done, total, force=True)
    status = target.stat()
    return PlacedFile(target, status.st_size, status.st_mtime_ns, digest.hexdigest(), True)


def _copy_stream(
    reader: ReadableInto,
    writer: BinaryIO,
    digest: Digest,
    should_stop: StopCheck,
    throttle: ProgressThrottle[int],
    total: int,
    chunk_size: int,
) -> int:
    buffer = bytearray(chunk_size)
    view = memoryview(buffer)
    done = 0
    while True:
        if should_stop():
            raise HashingCancelled("copying was cancelled")
        count = reader.readinto(view)
        if not count:
            return done
        digest.update(view[:count])
        writer.write(view[:count])
        done += count
        throttle.report(done, total)


def _check_unchanged(
    path: Path, before: os.stat_result, after: os.stat_result, *, bytes_read: int
) -> None:
    if (before.st_size, before.st_mtime_ns) != (after.st_size, after.st_mtime_ns) or (
        bytes_read != after.st_size
    ):
        raise TaskFailure(
            "import_failed",
            f"{path} changed while it was being read. Wait until it is complete and import "
            "it again.",
        )


def _failure_for(error: OSError, source: Path, directory: Path) -> TaskFailure:
    if isinstance(error, FileNotFoundError) and error.filename in {str(source), source}:
        return TaskFailure("model_missing", f"{source} disappeared while it was imported.")
    if is_disk_full(error):
        return storage_full_failure(directory)
    if isinstance(error, FileExistsError):
        return TaskFailure("import_failed", f"{error.filename} already exists in the model store.")
    return TaskFailure(
        "import_failed", f"{source} could not be imported: {error.strerror or error}."
    )
