"""Every cell of the restart table (LMSP §5.4), the crash-loop guard and the report."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop.lmsp.service import Service, ServiceOptions
from desktop.lmsp.store.tasks import NewEvent, TaskRecord
from desktop.lmsp.tasks.states import TaskStatus

S = TaskStatus

# (found at startup, policy) -> (status after recovery, new event type or None, attempt delta)
TABLE = {
    (S.QUEUED, "fail"): (S.FAILED, "response.failed", 0),
    (S.QUEUED, "retry"): (S.QUEUED, None, 0),
    (S.QUEUED, "resume"): (S.QUEUED, None, 0),
    (S.LOADING, "fail"): (S.FAILED, "response.failed", 0),
    (S.LOADING, "retry"): (S.QUEUED, "response.requeued", 1),
    (S.LOADING, "resume"): (S.QUEUED, "response.requeued", 1),
    (S.RUNNING, "fail"): (S.FAILED, "response.failed", 0),
    (S.RUNNING, "retry"): (S.QUEUED, "response.requeued", 1),
    (S.RUNNING, "resume"): (S.RUNNING, "response.resumed", 1),
    (S.CANCELLING, "fail"): (S.CANCELLED, "response.cancelled", 0),
    (S.CANCELLING, "retry"): (S.CANCELLED, "response.cancelled", 0),
    (S.CANCELLING, "resume"): (S.CANCELLED, "response.cancelled", 0),
}


async def leave_task(
    service: Service, status: TaskStatus, policy: str, *, snapshot: bool = True
) -> TaskRecord:
    engine = service.engine
    task = await engine.create(kind="response", owner="local", on_restart=policy, params={})
    if status is S.QUEUED:
        return task
    await engine.transition(task.id, S.LOADING, event_data={"model": "m"})
    if status is S.LOADING:
        return await service.get_task(task.id)
    await engine.transition(task.id, S.RUNNING, event_data={"attempt": 1})
    if snapshot:
        await engine.append_output(
            task.id,
            [NewEvent("response.output_text.delta", {"delta": "Hi", "output_tokens": 1})],
            snapshot={"token_ids": [7], "text": "Hi"},
        )
    if status is S.CANCELLING:
        await engine.cancel(task.id)
    return await service.get_task(task.id)


async def restart(data_dir: Path, **_: object) -> Service:
    service = Service(ServiceOptions(data_dir=data_dir, port=0))
    await service.start()
    return service


@pytest.mark.parametrize(("found", "policy"), list(TABLE), ids=lambda v: getattr(v, "value", v))
async def test_recovery_cell(tmp_path: Path, found: TaskStatus, policy: str) -> None:
    first = await restart(tmp_path)
    before = await leave_task(first, found, policy)
    await first.stop()  # same on-disk state as a crash: nothing runs at stop

    second = await restart(tmp_path)
    try:
        after = await second.get_task(before.id)
        expected_status, expected_event, attempt_delta = TABLE[(found, policy)]
        assert after.status is expected_status
        assert after.attempt == before.attempt + attempt_delta
        events = await second.events_after(before.id, 0, 100)
        numbers = [e.sequence_number for e in events]
        assert numbers == list(range(1, len(events) + 1))
        if expected_event is None:
            assert after.last_sequence_number == before.last_sequence_number
            assert second.recovery_report.still_queued == [before.id]
            return
        assert after.last_sequence_number == before.last_sequence_number + 1
        last = events[-1]
        assert last.type == expected_event
        if expected_status is S.FAILED:
            assert after.error is not None and after.error["code"] == "server_restarted"
            assert last.data["error"]["code"] == "server_restarted"
            assert second.recovery_report.failed == [before.id]
        elif expected_event == "response.requeued":
            assert last.data == {"reason": "server_restarted", "attempt": 2}
            assert second.recovery_report.requeued == [before.id]
        elif expected_event == "response.resumed":
            assert last.data == {
                "reason": "server_restarted",
                "attempt": 2,
                "from_sequence_number": before.snapshot_sequence_number,
            }
            assert after.snapshot == {"token_ids": [7], "text": "Hi"}
            assert second.recovery_report.resumed == [before.id]
        else:
            assert second.recovery_report.cancelled == [before.id]
    finally:
        await second.stop()


async def test_running_resume_without_snapshot_is_retried(tmp_path: Path) -> None:
    first = await restart(tmp_path)
    task = await leave_task(first, S.RUNNING, "resume", snapshot=False)
    await first.stop()
    second = await restart(tmp_path)
    after = await second.get_task(task.id)
    assert after.status is S.QUEUED and after.attempt == 2
    assert (await second.events_after(task.id))[-1].type == "response.requeued"
    await second.stop()


@pytest.mark.parametrize("policy", ["retry", "resume"])
async def test_crash_loop_guard_fails_after_max_attempts(tmp_path: Path, policy: str) -> None:
    service = await restart(tmp_path)
    await service.update_settings({"max_attempts": 3})
    task = await leave_task(service, S.RUNNING, policy)
    await service.stop()
    attempts = []
    for _ in range(3):
        service = await restart(tmp_path)
        current = await service.get_task(task.id)
        attempts.append((current.status, current.attempt))
        if current.status is S.QUEUED:  # a worker would take it again and crash again
            await service.engine.transition(task.id, S.LOADING)
            await service.engine.transition(task.id, S.RUNNING)
        await service.stop()
    expected_live = S.RUNNING if policy == "resume" else S.QUEUED
    assert attempts[0] == (expected_live, 2)
    assert attempts[1] == (expected_live, 3)
    assert attempts[2][0] is S.FAILED and attempts[2][1] == 3
    service = await restart(tmp_path)
    final = await service.get_task(task.id)
    assert final.error is not None and final.error["code"] == "server_restarted"
    assert "attempts" in final.error["message"]
    await service.stop()


async def test_report_summarises_in_plain_words(tmp_path: Path) -> None:
    service = await restart(tmp_path)
    for found, policy in [
        (S.RUNNING, "resume"),
        (S.RUNNING, "resume"),
        (S.LOADING, "retry"),
        (S.QUEUED, "fail"),
        (S.CANCELLING, "resume"),
        (S.QUEUED, "resume"),
    ]:
        await leave_task(service, found, policy)
    await service.stop()
    service = await restart(tmp_path)
    report = service.recovery_report
    assert report.counts() == {
        "resumed": 2,
        "requeued": 1,
        "failed": 1,
        "cancelled": 1,
        "still_queued": 1,
    }
    assert report.summary() == (
        "2 responses resumed, 1 response requeued, 1 response failed (server_restarted), "
        "1 response cancelled"
    )
    assert len(report.touched) == 5
    await service.stop()


async def test_clean_restart_reports_nothing(tmp_path: Path) -> None:
    service = await restart(tmp_path)
    await service.stop()
    service = await restart(tmp_path)
    assert service.recovery_report.is_empty
    assert service.recovery_report.summary() == "No unfinished work needed recovery."
    await service.stop()
