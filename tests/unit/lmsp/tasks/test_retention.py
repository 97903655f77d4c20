"""Retention cleanup deletes only old finished tasks, and expired idempotency keys."""

from __future__ import annotations

import contextlib
import sqlite3
from datetime import timedelta

import pytest

from desktop.lmsp.clock import format_time, utc_now
from desktop.lmsp.service import Service
from desktop.lmsp.store import idempotency
from desktop.lmsp.store.tasks import NewEvent
from desktop.lmsp.tasks import retention
from desktop.lmsp.tasks.states import TaskStatus

S = TaskStatus


async def age_task(service: Service, task_id: str, days: int) -> None:
    old = format_time(utc_now() - timedelta(days=days))
    async with service.db.write() as tx:
        await tx.execute(
            "UPDATE tasks SET created_at = ?, finished_at = CASE WHEN finished_at IS NULL "
            "THEN NULL ELSE ? END WHERE id = ?",
            (old, old, task_id),
        )


async def test_cleanup_deletes_only_old_finished_tasks(service: Service) -> None:
    engine = service.engine
    ids: dict[str, str] = {}
    for name, status in [
        ("old_done", S.COMPLETED),
        ("old_failed", S.FAILED),
        ("old_cancelled", S.CANCELLED),
        ("new_done", S.COMPLETED),
        ("old_queued", S.QUEUED),
        ("old_running", S.RUNNING),
        ("old_cancelling", S.CANCELLING),
    ]:
        task = await engine.create(kind="response", owner="local", on_restart="fail", params={})
        if status is S.CANCELLED:
            await engine.cancel(task.id)
        elif status is not S.QUEUED:
            await engine.transition(task.id, S.LOADING)
            if status is S.FAILED:
                await engine.fail(task.id, "generation_failed", "x")
            else:
                await engine.transition(task.id, S.RUNNING)
                await engine.append_output(
                    task.id, [NewEvent("response.output_text.delta", {"delta": "a"})] * 3
                )
                if status is S.COMPLETED:
                    await engine.finish(task.id, completed_data=lambda t: {})
                elif status is S.CANCELLING:
                    await engine.cancel(task.id)
        ids[name] = task.id
        if name.startswith("old"):
            await age_task(service, task.id, days=40)
    result = await retention.run_cleanup(service.db, retention_days=30)
    assert result.tasks_deleted == 3
    remaining = {t.id for t in (await service.list_tasks(limit=100))[0]}
    assert remaining == {
        ids["new_done"],
        ids["old_queued"],
        ids["old_running"],
        ids["old_cancelling"],
    }
    for gone in ("old_done", "old_failed", "old_cancelled"):
        rows = await service.db.fetch_all(
            "SELECT 1 FROM task_events WHERE task_id = ?", (ids[gone],)
        )
        assert rows == []


async def test_cleanup_of_a_long_task_keeps_a_gap_free_prefix(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Events go newest first in small transactions: after every commit the events
    still stored are numbered 1..k without a gap."""
    monkeypatch.setattr(retention, "EVENT_CHUNK", 7)
    engine = service.engine
    task = await engine.create(kind="response", owner="local", on_restart="fail", params={})
    await engine.transition(task.id, S.LOADING)
    await engine.transition(task.id, S.RUNNING)
    delta = NewEvent("response.output_text.delta", {"delta": "a"})
    await engine.append_output(task.id, [delta] * 30)
    await engine.finish(task.id, completed_data=lambda t: {})
    await age_task(service, task.id, days=31)
    outside = sqlite3.connect(service.db.path)
    prefixes: list[int] = []
    real_write = service.db.write

    @contextlib.asynccontextmanager
    async def checked_write():  # type: ignore[no-untyped-def]
        async with real_write() as tx:
            yield tx
        numbers = [
            r[0]
            for r in outside.execute(
                "SELECT sequence_number FROM task_events WHERE task_id = ? ORDER BY 1", (task.id,)
            )
        ]
        assert numbers == list(range(1, len(numbers) + 1))
        prefixes.append(len(numbers))

    monkeypatch.setattr(service.db, "write", checked_write)
    result = await retention.delete_expired_tasks(service.db, retention_days=30)
    outside.close()
    assert result.tasks_deleted == 1 and result.events_deleted == 34
    assert prefixes == [27, 20, 13, 6, 0, 0]


async def test_expired_idempotency_keys_are_deleted(service: Service) -> None:
    async with service.db.write() as tx:
        for key, hours in (("fresh", 24), ("stale", 1)):
            await idempotency.record_in(
                tx,
                owner="cli_a",
                key=key,
                fingerprint="f",
                ttl_hours=hours,
                task_id=None,
                status_code=200,
                body={},
            )
        await tx.execute(
            "UPDATE idempotency_keys SET expires_at = ? WHERE key = 'stale'",
            (format_time(utc_now() - timedelta(minutes=1)),),
        )
    assert await idempotency.lookup(service.db, "cli_a", "stale", "f") is None
    await retention.delete_expired_idempotency_keys(service.db)
    keys = [r["key"] for r in await service.db.fetch_all("SELECT key FROM idempotency_keys")]
    assert keys == ["fresh"]
    assert await idempotency.lookup(service.db, "cli_a", "fresh", "f") is not None
