"""The SQLite database file: opening it, its pragmas, and write transactions.

One ``Database`` owns two aiosqlite connections to ``lmsp.sqlite3``:

* the **writer**: every write goes through ``Database.write()``, which holds an
  asyncio lock (one writer in the process), starts ``BEGIN IMMEDIATE``, and
  runs the after-commit callbacks only once ``COMMIT`` has succeeded — this is
  how "notify after commit" (LMSP §4.3) is enforced;
* the **reader**: ``query_only`` reads that never see another coroutine's
  uncommitted writes (WAL gives each read its own committed snapshot).

SQLite failures that the user can act on become typed errors here: a full
disk is ``StorageFull``, a read-only file ``DataDirNotWritable``, a damaged
file ``DatabaseCorrupt``. Nothing here ever deletes or rewrites a database it
could not open.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeVar, cast

import aiosqlite

from desktop.lmsp.errors import (
    DatabaseCorrupt,
    DatabaseTooNew,
    DataDirNotWritable,
    LmspError,
    StorageFull,
)
from desktop.lmsp.store.migrations import LATEST_VERSION, pending_steps

BUSY_TIMEOUT_MS = 5000
_T = TypeVar("_T")
Params = Sequence[Any] | dict[str, Any]


def translate_sqlite_error(exc: sqlite3.Error, path: Path) -> LmspError | None:
    """The typed error for a SQLite failure the user can act on, else None."""
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    text = str(exc).lower()
    if primary == sqlite3.SQLITE_FULL or "disk is full" in text:
        return StorageFull("The disk is full; nothing was stored. Free some space and retry.")
    if primary in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM):
        return DataDirNotWritable(
            f"The database {path} cannot be written. Check the permissions of its folder, "
            "or choose another data folder with --data-dir."
        )
    if primary in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
        return DatabaseCorrupt(
            f"The database {path} is damaged or is not an LMSP Desktop database. "
            "It was left untouched; move it away (or restore a backup) to start afresh."
        )
    return None


def reraise(exc: sqlite3.Error, path: Path) -> NoReturn:
    """Raise the typed error for ``exc`` if the user can act on it, else ``exc`` itself."""
    typed = translate_sqlite_error(exc, path)
    if typed is None:
        raise exc
    raise typed from exc


class WriteTransaction:
    """An open ``BEGIN IMMEDIATE`` transaction on the writer connection.

    Each call that needs an answer (``execute``'s row count, ``fetch_*``) is one
    round trip to the connection's thread. Writes whose answer nobody needs
    (``defer``, ``executemany``) are queued and sent with the next round trip —
    at the latest with ``COMMIT`` — so creating a task costs one round trip, not
    one per statement. ``BEGIN IMMEDIATE`` itself travels with the first one.
    A queued write that fails fails the transaction, which then rolls back whole.
    """

    def __init__(self, connection: aiosqlite.Connection, path: Path) -> None:
        self._connection = connection
        self._path = path
        self._after_commit: list[Callable[[], None]] = []
        self._queued: list[tuple[bool, str, Any]] = []
        self._begun = False

    async def _round_trip(self, job: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run ``job`` on the writer thread after BEGIN (if needed) and the queued writes."""
        queued, self._queued = self._queued, []
        begin = not self._begun
        self._begun = True
        connection = self._connection

        def run() -> _T:
            raw: sqlite3.Connection = connection._conn
            if begin:
                raw.execute("BEGIN IMMEDIATE")
            for many, sql, params in queued:
                if many:
                    raw.executemany(sql, params)
                else:
                    raw.execute(sql, params)
            return job(raw)

        # aiosqlite's own queue to its thread: one hop for the whole job.
        in_thread = cast(Callable[[Callable[[], Any]], Awaitable[Any]], connection._execute)
        try:
            return cast(_T, await in_thread(run))
        except sqlite3.Error as exc:
            reraise(exc, self._path)

    def defer(self, sql: str, params: Params = ()) -> None:
        """Queue a write whose row count is not needed; it is sent with the next round trip."""
        self._queued.append((False, sql, params))

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; return the number of changed rows."""

        def job(raw: sqlite3.Connection) -> int:
            before = raw.total_changes
            raw.execute(sql, params).close()
            return raw.total_changes - before

        return await self._round_trip(job)

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        """Queue one statement for many rows (sent with the next round trip)."""
        self._queued.append((True, sql, list(rows)))

    async def fetch_all(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        return await self._round_trip(lambda raw: raw.execute(sql, params).fetchall())

    async def fetch_one(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    async def _commit(self) -> None:
        await self._round_trip(lambda raw: raw.execute("COMMIT").close())

    def after_commit(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` once the transaction has committed (never if it rolls back)."""
        self._after_commit.append(callback)


class Database:
    """The service's SQLite database: one writer connection, one reader."""

    def __init__(self, path: Path, writer: aiosqlite.Connection, reader: aiosqlite.Connection):
        self.path = path
        self._writer = writer
        self._reader = reader
        self._write_lock = asyncio.Lock()
        self.schema_version = LATEST_VERSION

    @classmethod
    async def open(cls, path: Path) -> Database:
        """Open (creating if needed) and upgrade the database at ``path``.

        A database written by a newer version of LMSP Desktop is refused before
        anything is written to it.
        """
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DataDirNotWritable(
                f"The data folder {path.parent} cannot be created: {exc.strerror}"
            ) from exc
        writer = await _connect(path)
        try:
            version = await _read_schema_version(writer, path)
            if version > LATEST_VERSION:
                raise DatabaseTooNew(
                    f"The database {path} was written by a newer version of LMSP Desktop "
                    f"(schema {version}; this version understands up to {LATEST_VERSION}). "
                    "It was left untouched. Install the newer version, or use another data "
                    "folder with --data-dir."
                )
            await _execute_pragmas(writer, path)
            await _migrate(writer, path, version)
            reader = await _connect(path)
            await reader.execute("PRAGMA query_only=ON")
        except BaseException:
            await writer.close()
            raise
        return cls(path, writer, reader)

    async def close(self) -> None:
        async with self._write_lock:
            with contextlib.suppress(sqlite3.Error):
                await self._writer.execute("PRAGMA optimize")
            await self._reader.close()
            await self._writer.close()

    @contextlib.asynccontextmanager
    async def write(self) -> AsyncIterator[WriteTransaction]:
        """One ``BEGIN IMMEDIATE`` transaction; commit on success, rollback on error."""
        async with self._write_lock:
            transaction = WriteTransaction(self._writer, self.path)
            try:
                yield transaction
                await transaction._commit()
            except BaseException:
                await asyncio.shield(self._rollback())
                raise
        for callback in transaction._after_commit:
            callback()

    async def _rollback(self) -> None:
        if self._writer.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                await self._writer.execute("ROLLBACK")

    async def fetch_all(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        try:
            rows = await self._reader.execute_fetchall(sql, params)
        except sqlite3.Error as exc:
            reraise(exc, self.path)
        return list(rows)

    async def fetch_one(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    async def integrity_check(self) -> str:
        row = await self.fetch_one("PRAGMA integrity_check")
        return str(row[0]) if row else "no answer"


async def _connect(path: Path) -> aiosqlite.Connection:
    try:
        connection = await aiosqlite.connect(path, isolation_level=None)
    except sqlite3.Error as exc:
        reraise(exc, path)
    connection.row_factory = sqlite3.Row
    await connection.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    return connection


async def _read_schema_version(connection: aiosqlite.Connection, path: Path) -> int:
    """Read ``user_version``, checking on the way that the file is a database."""
    try:
        await connection.execute_fetchall("SELECT count(*) FROM sqlite_master")
        rows = list(await connection.execute_fetchall("PRAGMA user_version"))
    except sqlite3.Error as exc:
        reraise(exc, path)
    return int(rows[0][0])


async def _execute_pragmas(connection: aiosqlite.Connection, path: Path) -> None:
    try:
        rows = list(await connection.execute_fetchall("PRAGMA journal_mode=WAL"))
        if rows and str(rows[0][0]).lower() != "wal":
            raise DataDirNotWritable(f"The database {path} cannot use write-ahead logging.")
        await connection.execute("PRAGMA synchronous=FULL")
        await connection.execute("PRAGMA foreign_keys=ON")
    except sqlite3.Error as exc:
        reraise(exc, path)


async def _migrate(connection: aiosqlite.Connection, path: Path, version: int) -> None:
    """Apply every pending numbered step, and the new version, in one transaction."""
    steps = pending_steps(version)
    if not steps:
        return
    try:
        await connection.execute("BEGIN IMMEDIATE")
        for step in steps:
            for statement in step.statements:
                await connection.execute(statement)
        await connection.execute(f"PRAGMA user_version={steps[-1].version}")
        await connection.execute("COMMIT")
    except BaseException as exc:
        if connection.in_transaction:
            await connection.execute("ROLLBACK")
        if isinstance(exc, sqlite3.Error):
            reraise(exc, path)
        raise
