"""Property-based test of the task engine: random create / transition / cancel /
output / restart / cleanup sequences, with the LMSP §4–§5 invariants checked
after every step on the real database file."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import sqlite3
import tempfile
from datetime import timedelta
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from desktop.lmsp.clock import format_time, utc_now
from desktop.lmsp.errors import InvalidState
from desktop.lmsp.service import Service, ServiceOptions
from desktop.lmsp.store.tasks import NewEvent
from desktop.lmsp.tasks import retention
from desktop.lmsp.tasks.states import TaskStatus

TERMINAL_SUFFIXES = (".completed", ".failed", ".cancelled")
KINDS = ("response", "model.import", "model.download")


class TaskEngineMachine(RuleBasedStateMachine):
    tasks = Bundle("tasks")

    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.folder = Path(tempfile.mkdtemp(prefix="lmsp-prop-"))
        self.service: Service | None = None
        self.created: set[str] = set()
        self.deleted_by_cleanup: set[str] = set()

    def run(self, coroutine):  # type: ignore[no-untyped-def]
        return self.loop.run_until_complete(coroutine)

    @initialize()
    def start(self) -> None:
        self.service = Service(ServiceOptions(data_dir=self.folder, port=0, run_tasks=False))
        self.run(self.service.start())

    def teardown(self) -> None:
        if self.service is not None:
            self.run(self.service.stop())
        self.loop.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    @property
    def svc(self) -> Service:
        assert self.service is not None
        return self.service

    @rule(
        target=tasks,
        kind=st.sampled_from(KINDS),
        policy=st.sampled_from(["fail", "retry", "resume"]),
    )
    def create(self, kind: str, policy: str) -> str:
        task = self.run(
            self.svc.engine.create(kind=kind, owner="local", on_restart=policy, params={})
        )
        self.created.add(task.id)
        return task.id

    @rule(task_id=tasks, new_status=st.sampled_from(list(TaskStatus)))
    def transition(self, task_id: str, new_status: TaskStatus) -> None:
        if task_id in self.deleted_by_cleanup:
            return
        with contextlib.suppress(InvalidState):
            self.run(self.svc.engine.transition(task_id, new_status))

    @rule(task_id=tasks)
    def cancel(self, task_id: str) -> None:
        if task_id in self.deleted_by_cleanup:
            return
        with contextlib.suppress(InvalidState):
            self.run(self.svc.cancel_task(task_id))

    @rule(task_id=tasks, count=st.integers(1, 5), with_snapshot=st.booleans())
    def output(self, task_id: str, count: int, with_snapshot: bool) -> None:
        if task_id in self.deleted_by_cleanup:
            return
        events = [NewEvent("response.output_text.delta", {"delta": "x"})] * count
        snapshot = {"token_ids": [1] * count} if with_snapshot else None
        try:
            if snapshot is None:
                self.run(self.svc.engine.append_output(task_id, events))
            else:
                self.run(self.svc.engine.append_output(task_id, events, snapshot=snapshot))
        except InvalidState:
            pass

    @rule(task_id=tasks, succeed=st.booleans())
    def worker_ends(self, task_id: str, succeed: bool) -> None:
        if task_id in self.deleted_by_cleanup:
            return
        try:
            if succeed:
                self.run(self.svc.engine.finish(task_id, completed_data=lambda t: {}))
            else:
                self.run(self.svc.engine.fail(task_id, "generation_failed", "boom"))
        except InvalidState:
            pass

    @rule(max_attempts=st.integers(1, 4))
    def restart(self, max_attempts: int) -> None:
        self.run(self.svc.update_settings({"max_attempts": max_attempts}))
        self.run(self.svc.stop())
        self.service = Service(ServiceOptions(data_dir=self.folder, port=0, run_tasks=False))
        self.run(self.service.start())

    @precondition(lambda self: bool(self.created))
    @rule(days=st.integers(0, 60))
    def cleanup(self, days: int) -> None:
        old = format_time(utc_now() - timedelta(days=days))
        before = self.snapshot_status()
        self.run(self.age_every_task(old))
        self.run(retention.run_cleanup(self.svc.db, retention_days=30))
        after = self.snapshot_status()
        for task_id, status in before.items():
            if task_id not in after:
                assert status in ("completed", "failed", "cancelled"), (
                    f"cleanup removed unfinished task {task_id} ({status})"
                )
                self.deleted_by_cleanup.add(task_id)

    async def age_every_task(self, old: str) -> None:
        """Finished or not, every task looks ``old`` to the cleanup."""
        async with self.svc.db.write() as tx:
            await tx.execute(
                "UPDATE tasks SET created_at = ?, finished_at = CASE WHEN "
                "finished_at IS NULL THEN NULL ELSE ? END",
                (old, old),
            )

    def snapshot_status(self) -> dict[str, str]:
        with sqlite3.connect(self.svc.db.path) as raw:
            return dict(raw.execute("SELECT id, status FROM tasks").fetchall())

    @invariant()
    def event_logs_are_well_formed(self) -> None:
        if self.service is None:
            return
        with sqlite3.connect(self.svc.db.path) as raw:
            tasks = raw.execute("SELECT id, status, last_sequence_number FROM tasks").fetchall()
            for task_id, status, last in tasks:
                rows = raw.execute(
                    "SELECT sequence_number, type FROM task_events WHERE task_id = ? "
                    "ORDER BY sequence_number",
                    (task_id,),
                ).fetchall()
                numbers = [n for n, _ in rows]
                types = [t for _, t in rows]
                assert numbers == list(range(1, last + 1)), f"gap or duplicate in {task_id}"
                terminal_positions = [
                    i for i, t in enumerate(types) if t.endswith(TERMINAL_SUFFIXES)
                ]
                assert len(terminal_positions) <= 1, f"two terminal events in {task_id}"
                if terminal_positions:
                    assert terminal_positions[0] == len(types) - 1, "event after terminal event"
                    assert status in ("completed", "failed", "cancelled")
                    assert types[-1].endswith("." + status)
                else:
                    assert status not in ("completed", "failed", "cancelled")
                assert not (
                    any(t.endswith(".cancelled") for t in types)
                    and any(t.endswith(".completed") for t in types)
                )
            present = {row[0] for row in tasks}
        missing = self.created - present - self.deleted_by_cleanup
        assert not missing, f"tasks lost: {missing}"


TaskEngineMachine.TestCase.settings = settings(
    max_examples=30,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_task_engine_properties = TaskEngineMachine.TestCase
