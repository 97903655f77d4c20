"""Single instance per data dir (LMSP §5.1).

An exclusive ``flock`` on ``<data dir>/lmsp.lock`` is held for the life of the
service. The kernel drops it when the process dies, even by SIGKILL, so a crash
never leaves a stale lock behind. A second instance fails fast with
``AlreadyRunning`` before it opens the database, so it never runs recovery.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

from desktop.lmsp.errors import AlreadyRunning, DataDirNotWritable


class InstanceLock:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def acquire(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except PermissionError as exc:
            raise DataDirNotWritable(
                f"The data folder {self.path.parent} is not writable. "
                "Choose another folder with --data-dir or fix its permissions."
            ) from exc
        except OSError as exc:
            raise DataDirNotWritable(
                f"The data folder {self.path.parent} cannot be used: {exc.strerror}."
            ) from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_pid(fd)
            os.close(fd)
            who = f" (process {holder})" if holder else ""
            raise AlreadyRunning(
                f"LMSP Desktop is already running on {self.path.parent}{who}. "
                "Use the running instance, or stop it first."
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd

    def release(self) -> None:
        if self._fd is None:
            return
        with contextlib.suppress(OSError):
            os.ftruncate(self._fd, 0)
        os.close(self._fd)
        self._fd = None

    @property
    def held(self) -> bool:
        return self._fd is not None


def _read_pid(fd: int) -> int | None:
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        text = os.read(fd, 32).decode().strip()
        return int(text) if text else None
    except (OSError, ValueError):
        return None
