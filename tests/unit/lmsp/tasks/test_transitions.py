"""Every transition of LMSP §4.2 and every row of the cancel table of §4.4."""

from __future__ import annotations

import pytest

from desktop.lmsp.errors import InvalidState
from desktop.lmsp.service import Service
from desktop.lmsp.store.tasks import NewEvent, TaskRecord
from desktop.lmsp.tasks.states import (
    NORMAL_TRANSITIONS,
    RESTART_TRANSITIONS,
    TERMINAL,
    TaskStatus,
    transition_allowed,
)

S = TaskStatus


async def new_task(service: Service, kind: str = "response") -> TaskRecord:
    return await service.engine.create(kind=kind, owner="local", on_restart="resume", params={})


async def drive_to(service: Service, status: TaskStatus) -> TaskRecord:
    """A task brought to ``status`` through legal transitions only."""
    engine = service.engine
    task = await new_task(service)
    path = {
        S.QUEUED: [],
        S.LOADING: [S.LOADING],
        S.RUNNING: [S.LOADING, S.RUNNING],
        S.CANCELLING: [S.LOADING, S.RUNNING, S.CANCELLING],
        S.COMPLETED: [S.LOADING, S.RUNNING, S.COMPLETED],
        S.FAILED: [S.LOADING, S.FAILED],
        S.CANCELLED: [S.CANCELLED],
    }[status]
    for step in path:
        task = await engine.transition(task.id, step)
    assert task.status is status
    return task


async def event_types(service: Service, task_id: str) -> list[str]:
    return [e.type for e in await service.events_after(task_id, 0, 1000)]


def test_terminal_states_have_no_way_out() -> None:
    for terminal in TERMINAL:
        for target in TaskStatus:
            assert not transition_allowed(terminal, target, restart=False)
            assert not transition_allowed(terminal, target, restart=True)


ALL_PAIRS = [(a, b) for a in TaskStatus for b in TaskStatus]


@pytest.mark.parametrize(("source", "target"), ALL_PAIRS, ids=lambda s: s.value)
async def test_transition_table_is_enforced(
    service: Service, source: TaskStatus, target: TaskStatus
) -> None:
    task = await drive_to(service, source)
    before = await event_types(service, task.id)
    if target in NORMAL_TRANSITIONS.get(source, frozenset()):
        moved = await service.engine.transition(task.id, target)
        assert moved.status is target
        assert moved.last_sequence_number == task.last_sequence_number + 1
        assert await event_types(service, task.id) == [*before, f"response.{target.value}"]
        assert (moved.finished_at is not None) == target.is_terminal
    else:
        with pytest.raises(InvalidState):
            await service.engine.transition(task.id, target)
        unchanged = await service.get_task(task.id)
        assert unchanged.status is source
        assert await event_types(service, task.id) == before


async def test_restart_only_moves_are_refused_while_running(service: Service) -> None:
    for source, targets in RESTART_TRANSITIONS.items():
        for target in targets - NORMAL_TRANSITIONS.get(source, frozenset()):
            task = await drive_to(service, source)
            with pytest.raises(InvalidState):
                await service.engine.transition(task.id, target)


async def test_first_event_is_queued_with_sequence_one(service: Service) -> None:
    task = await new_task(service)
    events = await service.events_after(task.id)
    assert [(e.sequence_number, e.type) for e in events] == [(1, "response.queued")]
    assert task.last_sequence_number == 1


async def test_cancel_queued_task_is_cancelled_at_once(service: Service) -> None:
    task = await new_task(service)
    outcome = await service.cancel_task(task.id)
    assert outcome.task.status is S.CANCELLED
    assert outcome.changed and outcome.http_status == 200
    assert (await event_types(service, task.id))[-1] == "response.cancelled"


@pytest.mark.parametrize("status", [S.LOADING, S.RUNNING])
async def test_cancel_working_task_goes_through_cancelling(
    service: Service, status: TaskStatus
) -> None:
    task = await drive_to(service, status)
    flag = service.engine.cancel_flag(task.id)
    outcome = await service.cancel_task(task.id)
    assert outcome.task.status is S.CANCELLING and outcome.http_status == 202
    assert flag.is_set(), "the worker's cancel flag must be raised after commit"
    stopped = await service.engine.stop_cancelled(task.id)
    assert stopped.status is S.CANCELLED
    types = await event_types(service, task.id)
    assert types[-2:] == ["response.cancelling", "response.cancelled"]


@pytest.mark.parametrize(("status", "code"), [(S.CANCELLING, 202), (S.CANCELLED, 200)])
async def test_cancel_is_idempotent(service: Service, status: TaskStatus, code: int) -> None:
    task = await drive_to(service, status)
    before = await event_types(service, task.id)
    outcome = await service.cancel_task(task.id)
    assert not outcome.changed and outcome.http_status == code
    assert outcome.task.status is status
    assert await event_types(service, task.id) == before


@pytest.mark.parametrize("status", [S.COMPLETED, S.FAILED])
async def test_cancel_finished_task_is_invalid_state(service: Service, status: TaskStatus) -> None:
    task = await drive_to(service, status)
    with pytest.raises(InvalidState) as caught:
        await service.cancel_task(task.id)
    assert caught.value.body_object is not None
    assert caught.value.body_object["task"]["status"] == status.value


async def test_worker_finishing_a_cancelling_task_ends_it_cancelled(service: Service) -> None:
    task = await drive_to(service, S.CANCELLING)
    final = await service.engine.finish(
        task.id,
        completed_data=lambda t: {"response": {}},
        events_before=[NewEvent("response.output_text.delta", {"delta": "x", "output_tokens": 1})],
    )
    assert final.status is S.CANCELLED
    types = await event_types(service, task.id)
    assert types[-2:] == ["response.output_text.delta", "response.cancelled"]
    assert "response.completed" not in types


async def test_worker_failing_a_cancelling_task_ends_it_cancelled(service: Service) -> None:
    task = await drive_to(service, S.CANCELLING)
    final = await service.engine.fail(task.id, "generation_failed", "boom")
    assert final.status is S.CANCELLED and final.error is None


async def test_fail_records_error_and_event(service: Service) -> None:
    task = await drive_to(service, S.RUNNING)
    final = await service.engine.fail(task.id, "generation_failed", "the model crashed")
    assert final.status is S.FAILED
    assert final.error == {"code": "generation_failed", "message": "the model crashed"}
    last = (await service.events_after(task.id))[-1]
    assert last.type == "response.failed" and last.data["error"]["code"] == "generation_failed"


async def test_snapshot_is_written_with_the_batch_it_matches(service: Service) -> None:
    task = await drive_to(service, S.RUNNING)
    batch = [NewEvent("response.output_text.delta", {"delta": "ab", "output_tokens": 2})]
    updated = await service.engine.append_output(
        task.id,
        batch,
        snapshot={"token_ids": [1, 2], "text": "ab"},
        progress={"done": 2, "total": 8, "unit": "tokens"},
    )
    stored = await service.get_task(task.id)
    assert stored.snapshot == {"token_ids": [1, 2], "text": "ab"}
    assert stored.snapshot_sequence_number == stored.last_sequence_number == 4
    assert stored.progress == {"done": 2, "total": 8, "unit": "tokens"}
    assert updated == stored


async def test_output_after_a_terminal_state_is_refused(service: Service) -> None:
    task = await drive_to(service, S.CANCELLED)
    with pytest.raises(InvalidState):
        await service.engine.append_output(
            task.id, [NewEvent("response.output_text.delta", {"delta": "x"})]
        )
    assert (await event_types(service, task.id))[-1] == "response.cancelled"


async def test_start_returns_none_when_task_was_cancelled_first(service: Service) -> None:
    task = await new_task(service)
    await service.cancel_task(task.id)
    assert await service.engine.start(task.id, S.LOADING, {"model": "m"}) is None


async def test_delete_only_finished_tasks(service: Service) -> None:
    running = await drive_to(service, S.RUNNING)
    with pytest.raises(InvalidState):
        await service.delete_task(running.id)
    done = await drive_to(service, S.COMPLETED)
    await service.delete_task(done.id)
    assert (
        await service.db.fetch_one("SELECT 1 FROM task_events WHERE task_id = ?", (done.id,))
        is None
    )


async def test_notifications_arrive_only_after_commit(service: Service) -> None:
    """A listener that reads through its own connection must already find the event."""
    import sqlite3

    from desktop.lmsp.notifications import TaskChanged

    seen: list[tuple[str, int, bool]] = []
    outside = sqlite3.connect(service.db.path)

    def listener(note: object) -> None:
        if isinstance(note, TaskChanged):
            for event in note.events:
                row = outside.execute(
                    "SELECT 1 FROM task_events WHERE task_id = ? AND sequence_number = ?",
                    (event.task_id, event.sequence_number),
                ).fetchone()
                seen.append((event.task_id, event.sequence_number, row is not None))

    service.hub.add_listener(listener)
    task = await new_task(service)
    await service.engine.transition(task.id, S.LOADING)
    outside.close()
    assert seen == [(task.id, 1, True), (task.id, 2, True)]
