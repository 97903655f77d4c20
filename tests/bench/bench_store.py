"""Durable task creation and startup recovery, against raw SQLite in the same run.

* creation: tasks created per second through ``TaskEngine.create`` (task row +
  first event, one ``BEGIN IMMEDIATE`` transaction, ``synchronous=FULL``) divided
  by raw ``INSERT`` + ``COMMIT`` per second on a plain sqlite3 connection with
  the same pragmas, on the same disk (target ≥ 0.5);
* recovery: time for ``recover_unfinished_tasks`` over 10,000 unfinished tasks
  holding 1,000,000 events (target < 2 s).
"""

from __future__ import annotations

import asyncio
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from desktop.lmsp.service import Service, ServiceOptions
from desktop.lmsp.store.database import Database
from desktop.lmsp.tasks.recovery import recover_unfinished_tasks

COUNT = 400


def raw_commits_per_second(folder: Path) -> float:
    connection = sqlite3.connect(folder / "raw.sqlite3", isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")
    connection.execute("PRAGMA foreign_keys=ON")
    connection.execute("CREATE TABLE t (id TEXT PRIMARY KEY, body TEXT)")
    start = time.perf_counter()
    for i in range(COUNT):
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("INSERT INTO t VALUES (?, ?)", (f"id{i}", "{}"))
        connection.execute("COMMIT")
    elapsed = time.perf_counter() - start
    connection.close()
    return COUNT / elapsed


async def durable_creations_per_second(folder: Path) -> float:
    service = Service(ServiceOptions(data_dir=folder / "svc", port=0))
    await service.start()
    try:
        start = time.perf_counter()
        for _ in range(COUNT):
            await service.engine.create(
                kind="response", owner="local", on_restart="resume", params={"input": "hi"}
            )
        return COUNT / (time.perf_counter() - start)
    finally:
        await service.stop()


def fill_unfinished(path: Path, tasks: int, events_per_task: int) -> None:
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("BEGIN")
    now = "2026-12-01T00:00:00.000Z"
    statuses = ["queued", "loading", "running", "cancelling"]
    policies = ["fail", "retry", "resume"]
    connection.executemany(
        "INSERT INTO tasks (id, kind, status, owner, on_restart, attempt, last_sequence_number,"
        " snapshot, snapshot_sequence_number, created_at, updated_at) "
        "VALUES (?, 'response', ?, 'local', ?, 1, ?, ?, ?, ?, ?)",
        [
            (
                f"resp_{i:06d}",
                statuses[i % 4],
                policies[i % 3],
                events_per_task,
                '{"token_ids":[1,2,3],"text":"abc"}',
                events_per_task,
                now,
                now,
            )
            for i in range(tasks)
        ],
    )
    connection.executemany(
        "INSERT INTO task_events (task_id, sequence_number, type, data, created_at) "
        "VALUES (?, ?, 'response.output_text.delta', '{\"delta\":\"x\"}', ?)",
        ((f"resp_{i:06d}", n, now) for i in range(tasks) for n in range(1, events_per_task + 1)),
    )
    connection.execute("COMMIT")
    connection.close()


async def recovery_seconds(folder: Path) -> float:
    path = folder / "recovery.sqlite3"
    db = await Database.open(path)
    await db.close()
    fill_unfinished(path, 10_000, 100)
    db = await Database.open(path)
    try:
        start = time.perf_counter()
        report = await recover_unfinished_tasks(db, max_attempts=3)
        elapsed = time.perf_counter() - start
        assert len(report.touched) + len(report.still_queued) == 10_000
        return elapsed
    finally:
        await db.close()


def main() -> None:
    with tempfile.TemporaryDirectory(dir=Path.cwd()) as name:
        folder = Path(name)
        ratios = []
        for round_number in range(3):
            raw = raw_commits_per_second(folder)
            (folder / "raw.sqlite3").unlink()
            for suffix in ("-wal", "-shm"):
                Path(f"{folder / 'raw.sqlite3'}{suffix}").unlink(missing_ok=True)
            durable = asyncio.run(durable_creations_per_second(folder / f"d{round_number}"))
            ratios.append(durable / raw)
            print(
                f"  round {round_number}: raw {raw:.0f} commits/s, "
                f"durable tasks {durable:.0f}/s, ratio {durable / raw:.2f}"
            )
        print(
            f"task creation ÷ raw commit: median ratio {statistics.median(ratios):.2f} "
            "(target ≥ 0.5)"
        )
        seconds = asyncio.run(recovery_seconds(folder))
        print(
            f"recovery of 10,000 unfinished tasks with 1,000,000 events: {seconds:.2f} s "
            "(target < 2 s)"
        )


if __name__ == "__main__":
    main()
