"""The database file: pragmas, migrations, and the bad inputs a user can meet."""

from __future__ import annotations

import hashlib
import os
import sqlite3
from pathlib import Path

import pytest

from desktop.lmsp.errors import (
    AlreadyRunning,
    DatabaseCorrupt,
    DatabaseTooNew,
    DataDirNotWritable,
    StorageFull,
)
from desktop.lmsp.service import Service, ServiceOptions
from desktop.lmsp.store.database import Database
from desktop.lmsp.store.migrations import LATEST_VERSION

EXPECTED_TABLES = {
    "service_config",
    "clients",
    "models",
    "responses",
    "tasks",
    "task_events",
    "idempotency_keys",
}


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


async def test_new_database_has_schema_and_pragmas(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "lmsp.sqlite3")
    try:
        tables = {
            r[0] for r in await db.fetch_all("SELECT name FROM sqlite_master WHERE type='table'")
        }
        assert tables >= EXPECTED_TABLES
        assert (await db.fetch_one("PRAGMA user_version"))[0] == LATEST_VERSION  # type: ignore[index]
        assert (await db.fetch_one("PRAGMA journal_mode"))[0] == "wal"  # type: ignore[index]
        async with db.write() as tx:
            sync = await tx.fetch_one("PRAGMA synchronous")
            fks = await tx.fetch_one("PRAGMA foreign_keys")
            busy = await tx.fetch_one("PRAGMA busy_timeout")
        assert sync is not None and sync[0] == 2  # FULL
        assert fks is not None and fks[0] == 1
        assert busy is not None and busy[0] > 0
        index = await db.fetch_all("PRAGMA index_list('task_events')")
        assert any(row["unique"] for row in index)
    finally:
        await db.close()


async def test_event_numbers_are_unique_per_task(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "lmsp.sqlite3")
    try:
        async with db.write() as tx:
            await tx.execute(
                "INSERT INTO tasks (id, kind, status, owner, on_restart, created_at, updated_at) "
                "VALUES ('t', 'response', 'queued', 'local', 'fail', 'x', 'x')"
            )
            await tx.execute("INSERT INTO task_events VALUES ('t', 1, 'a', '{}', 'x')")
        with pytest.raises(sqlite3.IntegrityError):
            async with db.write() as tx:
                await tx.execute("INSERT INTO task_events VALUES ('t', 1, 'b', '{}', 'x')")
    finally:
        await db.close()


async def test_failed_transaction_rolls_back_and_publishes_nothing(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "lmsp.sqlite3")
    published: list[int] = []
    try:
        with pytest.raises(RuntimeError):
            async with db.write() as tx:
                await tx.execute("INSERT INTO service_config VALUES ('k', '1')")
                tx.after_commit(lambda: published.append(1))
                raise RuntimeError("boom")
        assert await db.fetch_one("SELECT 1 FROM service_config WHERE key = 'k'") is None
        assert published == []
    finally:
        await db.close()


async def test_newer_database_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "lmsp.sqlite3"
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE future (x)")
    raw.execute(f"PRAGMA user_version = {LATEST_VERSION + 5}")
    raw.commit()
    raw.close()
    before = digest(path)
    with pytest.raises(DatabaseTooNew) as caught:
        await Database.open(path)
    assert "newer version" in caught.value.message and str(path) in caught.value.message
    assert digest(path) == before
    assert not Path(f"{path}-wal").exists()


@pytest.mark.parametrize("content", [b"this is not a database at all" * 200, b"\x00" * 4096])
async def test_corrupt_database_is_refused_and_left_untouched(
    tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "lmsp.sqlite3"
    path.write_bytes(content)
    with pytest.raises(DatabaseCorrupt) as caught:
        await Database.open(path)
    assert "left untouched" in caught.value.message
    assert path.read_bytes() == content


async def test_service_start_on_corrupt_database_releases_lock(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "lmsp.sqlite3").write_bytes(b"garbage" * 1000)
    service = Service(ServiceOptions(data_dir=data, port=0))
    with pytest.raises(DatabaseCorrupt):
        await service.start()
    assert service.state == "stopped"
    (data / "lmsp.sqlite3").unlink()
    again = Service(ServiceOptions(data_dir=data, port=0))
    await again.start()  # the lock was released: a fixed data dir starts
    await again.stop()


def make_read_only(folder: Path) -> None:
    """Read-only even for root: the immutable attribute (chmod for other users)."""
    import subprocess

    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i", str(folder)], check=True)
    else:
        folder.chmod(0o555)


def make_writable(folder: Path) -> None:
    import subprocess

    if os.geteuid() == 0:
        subprocess.run(["chattr", "-i", str(folder)], check=True)
    folder.chmod(0o755)


def test_read_only_data_dir_gives_clear_error(tmp_path: Path) -> None:
    """The CLI says what is wrong (exit code 2, no traceback) and the database is intact."""
    import subprocess
    import sys

    data = tmp_path / "data"
    data.mkdir()
    raw = sqlite3.connect(data / "lmsp.sqlite3")
    raw.execute("CREATE TABLE keep (x)")
    raw.commit()
    raw.close()
    before = digest(data / "lmsp.sqlite3")
    make_read_only(data)
    try:
        result = subprocess.run(
            [sys.executable, "-m", "desktop", "--headless", "--data-dir", str(data)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        make_writable(data)
    assert result.returncode == 2, result.stderr
    assert "not writable" in result.stderr
    assert "Traceback" not in result.stderr
    assert digest(data / "lmsp.sqlite3") == before


async def test_read_only_database_file_gives_clear_error(tmp_path: Path) -> None:
    """As root, directory permissions don't apply; a read-only mount is simulated with
    SQLite's own read-only open of an existing database."""
    path = tmp_path / "lmsp.sqlite3"
    db = await Database.open(path)
    await db.close()
    before = digest(path)
    import aiosqlite

    from desktop.lmsp.store.database import reraise

    async with aiosqlite.connect(f"file:{path}?mode=ro", uri=True) as conn:
        with pytest.raises(DataDirNotWritable):
            try:
                await conn.execute("INSERT INTO service_config VALUES ('a', 'b')")
            except sqlite3.Error as exc:
                reraise(exc, path)
    assert digest(path) == before


async def test_data_dir_that_is_a_file_gives_clear_error(tmp_path: Path) -> None:
    not_a_dir = tmp_path / "data"
    not_a_dir.write_text("I am a file")
    with pytest.raises(DataDirNotWritable):
        await Service(ServiceOptions(data_dir=not_a_dir, port=0)).start()
    assert not_a_dir.read_text() == "I am a file"


async def test_full_disk_is_storage_full_and_keeps_committed_data(tmp_path: Path) -> None:
    """SQLite's page limit makes SQLite itself report SQLITE_FULL, as on a full disk."""
    service = Service(ServiceOptions(data_dir=tmp_path / "data", port=0))
    await service.start()
    try:
        kept = await service.engine.create(
            kind="response", owner="local", on_restart="fail", params={}
        )
        async with service.db.write() as tx:
            row = await tx.fetch_one("PRAGMA page_count")
            assert row is not None
            await tx.execute(f"PRAGMA max_page_count = {row[0]}")
        with pytest.raises(StorageFull) as caught:
            for _ in range(200):
                await service.engine.create(
                    kind="response",
                    owner="local",
                    on_restart="fail",
                    params={"padding": "x" * 4000},
                )
        assert caught.value.http_status == 507 and "nothing was stored" in caught.value.message
        assert (await service.get_task(kept.id)).id == kept.id
        assert await service.db.integrity_check() == "ok"
    finally:
        await service.stop()


async def test_second_instance_is_refused_and_runs_no_recovery(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = Service(ServiceOptions(data_dir=data, port=0))
    await first.start()
    try:
        task = await first.engine.create(
            kind="response", owner="local", on_restart="fail", params={}
        )
        second = Service(ServiceOptions(data_dir=data, port=0))
        with pytest.raises(AlreadyRunning) as caught:
            await second.start()
        assert str(os.getpid()) in caught.value.message
        still = await first.get_task(task.id)
        assert still.status.value == "queued", "the second instance must not recover tasks"
    finally:
        await first.stop()
