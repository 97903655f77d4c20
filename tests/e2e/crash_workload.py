"""A mixed task workload for the kill -9 tests: run it, then SIGKILL it at any moment.

    python -m tests.e2e.crash_workload DATA_DIR SEED

It prints ``ready`` once the service has started, then ``created <id>`` after
each task creation has *returned* (so the parent knows which tasks were
promised), and drives tasks through transitions, output batches with
snapshots, cancels and completions until it is killed.
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

from desktop.lmsp.errors import InvalidState
from desktop.lmsp.service import Service, ServiceOptions
from desktop.lmsp.store.tasks import NewEvent
from desktop.lmsp.tasks.states import TaskStatus


async def workload(data_dir: Path, seed: int) -> None:
    rng = random.Random(seed)
    service = Service(ServiceOptions(data_dir=data_dir, port=0))
    await service.start()
    print("ready", flush=True)
    engine = service.engine
    live: list[str] = [
        t.id for t in (await service.list_tasks(limit=200))[0] if not t.status.is_terminal
    ]
    while True:
        action = rng.random()
        try:
            if action < 0.25 or not live:
                task = await engine.create(
                    kind=rng.choice(["response", "model.download"]),
                    owner="local",
                    on_restart=rng.choice(["fail", "retry", "resume"]),
                    params={"n": seed},
                )
                print(f"created {task.id}", flush=True)
                live.append(task.id)
                continue
            task_id = rng.choice(live)
            task = await service.get_task(task_id)
            if task.status.is_terminal:
                live.remove(task_id)
            elif action < 0.35:
                await engine.cancel(task_id)
            elif task.status is TaskStatus.QUEUED:
                await engine.start(task_id, TaskStatus.LOADING, {"model": "m"})
            elif task.status is TaskStatus.LOADING:
                await engine.mark_running(task_id, task.attempt)
            elif task.status is TaskStatus.CANCELLING:
                await engine.stop_cancelled(task_id)
            elif action < 0.85:
                count = rng.randint(1, 4)
                await engine.append_output(
                    task_id,
                    [NewEvent("response.output_text.delta", {"delta": "ab"})] * count,
                    snapshot={"token_ids": list(range(task.last_sequence_number + count))},
                )
            elif action < 0.95:
                await engine.finish(task_id, completed_data=lambda t: {"done": True})
            else:
                await engine.fail(task_id, "generation_failed", "simulated")
        except InvalidState:
            pass


if __name__ == "__main__":
    asyncio.run(workload(Path(sys.argv[1]), int(sys.argv[2])))
