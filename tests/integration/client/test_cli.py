"""The ``lmsp`` command as a user runs it (a subprocess), against a real service."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from desktop.client import LmspClient
from tests.integration.client.conftest import ThreadedService
from tests.integration.conftest import register_fake_model

ROOT = Path(__file__).resolve().parents[3]


def clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LMSP_")}
    env["PYTHONPATH"] = str(ROOT)
    return env


def lmsp(*args: str, token_file: Path, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "desktop.client.cli", "--token-file", str(token_file), *args]
    return subprocess.run(
        command, cwd=ROOT, env=clean_env(), capture_output=True, text=True, timeout=timeout
    )


@pytest.fixture
def token_file(running: ThreadedService, tmp_path: Path) -> Path:
    path = tmp_path / "config" / "token"
    path.parent.mkdir()
    path.write_text(running.paired_token() + "\n")
    return path


def test_pair_prints_the_code_waits_and_saves_the_token(
    running: ThreadedService, tmp_path: Path
) -> None:
    token_file = tmp_path / "config" / "token"
    command = [sys.executable, "-m", "desktop.client.cli", "--data-dir", str(running.data_dir)]
    command += ["--token-file", str(token_file), "pair", "--name", "Terminal"]
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        env=clean_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        first_line = process.stdout.readline()
        assert first_line.startswith("Pairing code: ")
        pending = running.pending_pairing()
        assert pending["code"] == first_line.split(": ")[1].strip()
        assert pending["client_name"] == "Terminal"
        running.admin("POST", f"/v1/admin/pairing/{pending['id']}/approve", {})
        _out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0, err
    assert "Paired as cli_" in err
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
    assert LmspClient(running.url, token_file.read_text().strip()).me()["name"] == "Terminal"


def test_models_run_tasks_events_show_and_cancel(
    running: ThreadedService, token_file: Path
) -> None:
    running.call(register_fake_model(running.service, "fake-model"))
    url = ["--url", running.url]

    models = lmsp(*url, "models", token_file=token_file)
    assert models.returncode == 0 and "fake-model" in models.stdout

    background = lmsp(*url, "run", "fake-model", "hi", "--background", token_file=token_file)
    assert background.returncode == 0, background.stderr
    response_id = background.stdout.strip()
    assert response_id.startswith("resp_")

    events = lmsp(*url, "events", response_id, "--follow", token_file=token_file)
    assert events.returncode == 0
    lines = events.stdout.splitlines()
    assert "response.queued" in lines[0] and "response.failed" in lines[-1]

    tasks = lmsp(*url, "tasks", token_file=token_file)
    assert response_id in tasks.stdout and "failed" in tasks.stdout
    shown = lmsp(*url, "show", response_id, token_file=token_file)
    assert f'"id": "{response_id}"' in shown.stdout

    cancel = lmsp(*url, "cancel", response_id, token_file=token_file)
    assert cancel.returncode == 1 and "already failed" in cancel.stderr

    foreground = lmsp(*url, "run", "fake-model", "hi", token_file=token_file)
    assert foreground.returncode == 1 and "the response failed" in foreground.stderr

    unknown = lmsp(*url, "run", "no-such-model", "hi", token_file=token_file)
    assert unknown.returncode == 1 and "model_not_found" in unknown.stderr


def test_clear_messages_and_exit_codes_when_something_is_wrong(
    running: ThreadedService, token_file: Path, tmp_path: Path
) -> None:
    not_running = lmsp("--data-dir", str(tmp_path / "nothing"), "models", token_file=token_file)
    assert not_running.returncode == 3
    assert "not running" in not_running.stderr

    not_paired = lmsp("--url", running.url, "models", token_file=tmp_path / "missing")
    assert not_paired.returncode == 4
    assert "lmsp pair" in not_paired.stderr

    client_id = LmspClient(running.url, token_file.read_text().strip()).me()["id"]
    running.admin("DELETE", f"/v1/admin/clients/{client_id}")
    revoked = lmsp("--url", running.url, "models", token_file=token_file)
    assert revoked.returncode == 4
    assert "the token was revoked or is unknown; run `lmsp pair` again" in revoked.stderr

    usage = lmsp("run", token_file=token_file)
    assert usage.returncode == 2
    for result in (not_running, not_paired, revoked, usage):
        assert "Traceback" not in result.stderr
