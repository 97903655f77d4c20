"""Durable writes in the model store: fsync of directories, atomic renames, disk-full errors.

A file in the store is either complete and durable, or absent: it is written
under a temporary name, fsynced, renamed into place, and its directory is
fsynced so that the rename itself survives a power loss.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
from pathlib import Path

from desktop.lmsp.errors import TaskFailure

_DISK_FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT})


def fsync_directory(directory: Path) -> None:
    """Makes renames and new entries in ``directory`` durable (a no-op where unsupported)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return  # Windows cannot open a directory; its renames are durable on return.
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def rename_durably(source: Path, target: Path) -> None:
    """Atomically renames ``source`` to ``target`` and makes the rename durable."""
    source.replace(target)
    fsync_directory(target.parent)


def make_directories_durably(directory: Path, created: list[Path]) -> None:
    """Creates ``directory`` and its missing parents, appending each one made to ``created``.

    ``created`` lists them outermost first, so that a caller cleaning up after
    a failure removes them in reverse order.
    """
    missing: list[Path] = []
    current = directory
    while not current.exists() and current.parent != current:
        missing.append(current)
        current = current.parent
    for path in reversed(missing):
        try:
            path.mkdir()
        except FileExistsError:
            continue
        created.append(path)
        fsync_directory(path.parent)


def remove_quietly(path: Path) -> None:
    """Removes a file or an empty directory, ignoring any error (used while cleaning up)."""
    with contextlib.suppress(OSError):
        if path.is_dir() and not path.is_symlink():
            path.rmdir()
        else:
            path.unlink()


def is_disk_full(error: OSError) -> bool:
    """True when ``error`` means the disk (or the user's quota) is full."""
    return error.errno in _DISK_FULL_ERRNOS


def storage_full_failure(directory: Path, needed_bytes: int | None = None) -> TaskFailure:
    """The task failure for a disk too full to hold a model file in ``directory``."""
    needed = f" ({needed_bytes:,} bytes needed)" if needed_bytes is not None else ""
    return TaskFailure(
        "storage_full",
        f"Not enough disk space in {directory} to store the model file{needed}.",
    )


def ensure_free_space(directory: Path, needed_bytes: int) -> None:
    """Fails early with ``storage_full`` when ``directory``'s disk cannot hold ``needed_bytes``."""
    try:
        free = shutil.disk_usage(directory).free
    except OSError:
        return  # Unknown: the write itself will tell.
    if free < needed_bytes:
        raise storage_full_failure(directory, needed_bytes)
