"""A response and a download killed with SIGKILL in the middle, then finished by a restart.

The child (``work_child.py``) runs a real service on a temporary data dir. The
test polls the database file read-only until output has been committed, kills
the child, and finishes the work with a new service in this process:

* a resumed response produces exactly the text of an uninterrupted run (greedy
  and seeded sampling); a retried one starts over and produces it too;
* a resumed download asks for the rest with a Range request, so the server
  sends far less than the file twice.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from desktop.lmsp.runtime import ChatMessage, GenerationSettings, LlamaEngine
from desktop.lmsp.service import Service, ServiceOptions
from tests.e2e.work_child import MAX_OUTPUT_TOKENS, PROMPT
from tests.unit.lmsp.models.gguf_samples import write_gguf
from tests.unit.lmsp.service_tasks import events_until_end
from tests.unit.lmsp.tasks.throttled_server import serve_slowly

REPO = Path(__file__).resolve().parents[2]
POLL_TIMEOUT_S = 120.0


@pytest.fixture(scope="module")
def llama(starter_model_path: Path) -> Iterator[LlamaEngine]:
    loaded = LlamaEngine()
    loaded.load(starter_model_path)
    yield loaded
    loaded.unload()


def start_child(*args: str) -> tuple[subprocess.Popen[str], str]:
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.e2e.work_child", *args],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    task_id = child.stdout.readline().strip()
    assert task_id, "the child did not create its task"
    return child, task_id


def kill_when(
    child: subprocess.Popen[str], database: Path, ready: Callable[[sqlite3.Connection], bool]
) -> None:
    deadline = time.monotonic() + POLL_TIMEOUT_S
    try:
        while time.monotonic() < deadline:
            assert child.poll() is None, "the child stopped before it was killed"
            with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
                if ready(connection):
                    return
            time.sleep(0.02)
        pytest.fail("the child never committed any output")
    finally:
        child.kill()
        child.wait()
        if child.stdout is not None:
            child.stdout.close()


def reference_text(llama: LlamaEngine, seed: int, temperature: float) -> str:
    prompt = llama.format_prompt([ChatMessage("user", PROMPT)])
    settings = GenerationSettings(MAX_OUTPUT_TOKENS, temperature=temperature, top_p=0.95, seed=seed)
    return llama.generate(prompt, settings).text


@pytest.mark.model
@pytest.mark.slow
@pytest.mark.parametrize(
    ("temperature", "on_restart"), [(0.0, "resume"), (0.9, "resume"), (0.9, "retry")]
)
async def test_response_killed_mid_generation_completes_exactly(
    tmp_path: Path,
    starter_model_path: Path,
    llama: LlamaEngine,
    temperature: float,
    on_restart: str,
) -> None:
    data = tmp_path / "data"
    spec = {"temperature": temperature, "seed": 1234, "on_restart": on_restart}
    child, task_id = start_child("response", str(data), str(starter_model_path), json.dumps(spec))

    def has_deltas(connection: sqlite3.Connection) -> bool:
        row = connection.execute(
            "SELECT count(*) FROM task_events WHERE task_id = ? AND type LIKE '%.delta'",
            (task_id,),
        ).fetchone()
        return bool(row[0] >= 2)

    kill_when(child, data / "lmsp.sqlite3", has_deltas)
    service = Service(ServiceOptions(data_dir=data, port=0), llama_engine=llama)
    await service.start()
    try:
        report = service.recovery_report
        assert task_id in (report.resumed if on_restart == "resume" else report.requeued)
        events = await events_until_end(service, task_id)
        types = [event.type for event in events]
        assert types[-1] == "response.completed"
        final = events[-1].data["response"]
        assert final["attempt"] == 2
        expected = reference_text(llama, 1234, temperature)
        assert final["output_text"] == expected
        if on_restart == "resume":
            resumed = events[types.index("response.resumed")]
            before = events[: resumed.sequence_number - 1]
            assert resumed.data["from_sequence_number"] == before[-1].sequence_number
            text = "".join(e.data["delta"] for e in events if e.type.endswith(".delta"))
            assert text == expected
        else:
            requeued = types.index("response.requeued")
            after = events[requeued:]
            text = "".join(e.data["delta"] for e in after if e.type.endswith(".delta"))
            assert text == expected
    finally:
        await service.stop()


@pytest.mark.slow
async def test_download_killed_midway_resumes_with_a_range_request(tmp_path: Path) -> None:
    source = write_gguf(tmp_path / "served.gguf", tensor_shapes=((1024, 1024),))
    content = source.read_bytes()
    digest = hashlib.sha256(content).hexdigest()
    data = tmp_path / "data"
    with serve_slowly(content) as served:
        child, task_id = start_child("download", str(data), served.url(), digest)

        def has_durable_bytes(connection: sqlite3.Connection) -> bool:
            row = connection.execute(
                "SELECT snapshot FROM tasks WHERE id = ?", (task_id,)
            ).fetchone()
            return bool(row and row[0] and json.loads(row[0]).get("bytes_durable", 0) > 0)

        kill_when(child, data / "lmsp.sqlite3", has_durable_bytes)
        service = Service(ServiceOptions(data_dir=data, port=0))
        await service.start()
        try:
            task = await service.get_task(task_id)
            durable = int((task.snapshot or {})["bytes_durable"])
            assert task_id in service.recovery_report.resumed
            events = await events_until_end(service, task_id)
            assert events[-1].type == "model.download.completed", events[-1].data
            model = events[-1].data["model"]
            assert model["sha256"] == digest
            assert model["storage"] == "download"
            assert Path(model["path"]).read_bytes() == content
            assert served.range_headers[-1] == f"bytes={durable}-"
            assert served.bytes_sent < 2 * len(content) - durable // 2
            assert list(service.layout.downloads.glob("*.partial")) == []
        finally:
            await service.stop()
