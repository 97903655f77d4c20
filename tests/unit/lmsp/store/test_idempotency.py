"""Idempotency keys: validation, fingerprints, replays and conflicts (LMSP §6)."""

from __future__ import annotations

import pytest

from desktop.lmsp.errors import IdempotencyKeyReused, InvalidIdempotencyKey
from desktop.lmsp.service import Service
from desktop.lmsp.store import idempotency


@pytest.mark.parametrize("key", ["", "a" * 256, "tab\tkey", "naïve", "new\nline"])
def test_invalid_keys_are_refused(key: str) -> None:
    with pytest.raises(InvalidIdempotencyKey):
        idempotency.validate_key(key)


@pytest.mark.parametrize("key", ["a", "A-1_2.3~ !", "x" * 255])
def test_valid_keys_are_kept(key: str) -> None:
    assert idempotency.validate_key(key) == key


def test_fingerprint_ignores_key_order_and_whitespace() -> None:
    one = idempotency.request_fingerprint("post", "/v1/responses", {"a": 1, "b": [1, 2]})
    two = idempotency.request_fingerprint("POST", "/v1/responses", {"b": [1, 2], "a": 1})
    assert one == two
    assert one != idempotency.request_fingerprint("POST", "/v1/models", {"a": 1, "b": [1, 2]})
    assert one != idempotency.request_fingerprint("POST", "/v1/responses", {"a": 2, "b": [1, 2]})


async def test_key_written_with_the_task_it_created(service: Service) -> None:
    fingerprint = idempotency.request_fingerprint("POST", "/v1/responses", {"x": 1})

    async def with_key(tx, task) -> None:  # type: ignore[no-untyped-def]
        await idempotency.record_in(
            tx,
            owner="cli_a",
            key="k1",
            fingerprint=fingerprint,
            ttl_hours=24,
            task_id=task.id,
            status_code=202,
            body={"id": task.id},
        )

    task = await service.engine.create(
        kind="response", owner="cli_a", on_restart="fail", params={}, in_transaction=with_key
    )
    stored = await idempotency.lookup(service.db, "cli_a", "k1", fingerprint)
    assert stored is not None and stored.task_id == task.id and stored.status_code == 202
    assert stored.body == {"id": task.id}
    # scoped by client: the same key from another client is unknown
    assert await idempotency.lookup(service.db, "cli_b", "k1", fingerprint) is None
    with pytest.raises(IdempotencyKeyReused):
        await idempotency.lookup(service.db, "cli_a", "k1", "another-fingerprint")


async def test_key_and_task_roll_back_together(service: Service) -> None:
    async def fail_after_key(tx, task) -> None:  # type: ignore[no-untyped-def]
        await idempotency.record_in(
            tx,
            owner="cli_a",
            key="k2",
            fingerprint="f",
            ttl_hours=24,
            task_id=task.id,
            status_code=202,
            body={},
        )
        raise RuntimeError("crash before commit")

    with pytest.raises(RuntimeError):
        await service.engine.create(
            kind="response",
            owner="cli_a",
            on_restart="fail",
            params={},
            in_transaction=fail_after_key,
        )
    assert await idempotency.lookup(service.db, "cli_a", "k2", "f") is None
    assert (await service.list_tasks())[0] == []


async def test_in_progress_key_then_completed(service: Service) -> None:
    async with service.db.write() as tx:
        await idempotency.record_in(
            tx,
            owner="local",
            key="k3",
            fingerprint="f",
            ttl_hours=1,
            task_id=None,
            status_code=None,
            body=None,
        )
    pending = await idempotency.lookup(service.db, "local", "k3", "f")
    assert pending is not None and not pending.answered
    async with service.db.write() as tx:
        await idempotency.complete_in(
            tx, owner="local", key="k3", status_code=200, body={"ok": True}
        )
    done = await idempotency.lookup(service.db, "local", "k3", "f")
    assert done is not None and done.answered and done.body == {"ok": True}
