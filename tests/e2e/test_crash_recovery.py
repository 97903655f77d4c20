"""kill -9 at random moments: the database survives, recovery applies, nothing promised is lost.

A child process runs a mixed workload (tests/e2e/crash_workload.py) on a real
database file and is killed with SIGKILL at seeded random moments, at least 50
times. After every kill: ``PRAGMA integrity_check`` passes, a restarted service
runs recovery, every event log is numbered 1..N with nothing after a terminal
event, no task is both cancelled and completed, no unfinished task is left in a
state recovery should have moved, and every task whose creation had returned
before the kill still exists.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from desktop.lmsp.service import Service, ServiceOptions

ROOT = Path(__file__).resolve().parents[2]
KILLS = int(os.environ.get("LMSP_CRASH_KILLS", "50"))


def check_invariants(db_path: Path, promised: set[str]) -> dict[str, str]:
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        tasks = {
            row[0]: (row[1], row[2])
            for row in raw.execute("SELECT id, status, last_sequence_number FROM tasks")
        }
        missing = promised - tasks.keys()
        assert not missing, f"tasks whose creation returned were lost: {sorted(missing)[:3]}"
        for task_id, (_status, last) in tasks.items():
            types = [
                t
                for (t,) in raw.execute(
                    "SELECT type FROM task_events WHERE task_id = ? ORDER BY sequence_number",
                    (task_id,),
                )
            ]
            numbers = [
                n
                for (n,) in raw.execute(
                    "SELECT sequence_number FROM task_events WHERE task_id = ? "
                    "ORDER BY sequence_number",
                    (task_id,),
                )
            ]
            assert numbers == list(range(1, last + 1)), f"gap in {task_id}"
            ends = [
                i
                for i, t in enumerate(types)
                if t.endswith((".completed", ".failed", ".cancelled"))
            ]
            assert ends in ([], [len(types) - 1]), f"event after terminal in {task_id}"
            assert not (
                any(t.endswith(".cancelled") for t in types)
                and any(t.endswith(".completed") for t in types)
            )
        return {task_id: status for task_id, (status, _) in tasks.items()}


async def recover(data_dir: Path) -> None:
    service = Service(ServiceOptions(data_dir=data_dir, port=0))
    await service.start()
    await service.stop()


@pytest.mark.slow
def test_sigkill_at_random_moments(tmp_path: Path) -> None:
    rng = random.Random(20261202)
    data_dir = tmp_path / "data"
    promised: set[str] = set()
    kills = 0
    for round_number in range(KILLS):
        child = subprocess.Popen(
            [sys.executable, "-m", "tests.e2e.crash_workload", str(data_dir), str(round_number)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert child.stdout is not None
        ready = child.stdout.readline().strip()
        assert ready == "ready", child.stderr.read() if child.stderr else ready
        time.sleep(rng.uniform(0.0, 0.25))
        child.send_signal(signal.SIGKILL)
        kills += 1
        output, _ = child.communicate(timeout=30)
        promised.update(
            line.split()[1] for line in output.splitlines() if line.startswith("created ")
        )
        check_invariants(data_dir / "lmsp.sqlite3", promised)
        asyncio.run(recover(data_dir))
        statuses = check_invariants(data_dir / "lmsp.sqlite3", promised)
        assert "cancelling" not in statuses.values(), "recovery left a cancelling task"
        assert "loading" not in statuses.values(), "recovery left a loading task"
    assert kills >= 50 or KILLS < 50
    assert len(promised) > KILLS, "the workload should have created tasks in most rounds"
