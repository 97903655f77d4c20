"""The real program over HTTP: owner commands, and SIGKILL while clients create responses.

Background responses are posted with idempotency keys while the headless
service is killed with SIGKILL and started again, over and over. Afterwards
every key names exactly one task, each acknowledged 202 is replayed with the
same body, and no task exists that no key names (LMSP §5.2 rule 1, §6).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from desktop.lmsp.service import Service, ServiceOptions
from tests.integration.conftest import register_fake_model

ROOT = Path(__file__).resolve().parents[2]
KILLS = 8


def start_headless(data_dir: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "desktop", "--headless", "--data-dir", str(data_dir), "--port", "0"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def wait_for_url(data_dir: Path, process: subprocess.Popen[bytes], timeout: float = 60) -> str:
    """The URL from a discovery file written by *this* process (a killed one leaves its own)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, "the service exited"
        try:
            info = json.loads((data_dir / "service.json").read_text())
        except (OSError, ValueError):
            info = {}
        if info.get("pid") == process.pid:
            return str(info["url"])
        time.sleep(0.05)
    raise AssertionError("the service did not start")


def http(method: str, url: str, token: str, body: Any = None, key: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    if key is not None:
        headers["Idempotency-Key"] = key
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"null"), dict(response.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null"), dict(exc.headers)


def prepare(data_dir: Path) -> str:
    """A fake model and a paired client, made in-process before the program runs."""

    async def setup() -> str:
        service = Service(ServiceOptions(data_dir=data_dir, port=0))
        await service.start()
        try:
            await register_fake_model(service)
            _, token = await service.clients.issue("Crash tester", ["responses:write"])
        finally:
            await service.stop()
        return token

    return asyncio.run(setup())


def lmsp(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "desktop", "--data-dir", str(data_dir), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_owner_commands_against_the_headless_service(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    not_running = lmsp(data_dir, "clients", "list")
    assert not_running.returncode == 1 and "not running" in not_running.stderr
    process = start_headless(data_dir)
    try:
        url = wait_for_url(data_dir, process)
        status, pairing, _ = http("POST", url + "/v1/pairing", "", {"client_name": "Notes"})
        assert status == 202
        listed = lmsp(data_dir, "pairing", "list")
        assert pairing["code"] in listed.stdout and "Notes" in listed.stdout
        approved = lmsp(data_dir, "pairing", "approve", pairing["code"].replace("-", ""))
        assert approved.returncode == 0, approved.stderr
        _, claimed, _ = http("GET", url + f"/v1/pairing/{pairing['id']}", "")
        assert claimed["status"] == "claimed"
        clients = lmsp(data_dir, "clients", "list")
        assert claimed["client_id"] in clients.stdout
        revoked = lmsp(data_dir, "clients", "revoke", claimed["client_id"])
        assert revoked.returncode == 0, revoked.stderr
        status, _, _ = http("GET", url + "/v1/clients/me", claimed["token"])
        assert status == 401
        denied = lmsp(data_dir, "pairing", "deny", "000-000")
        assert denied.returncode == 1 and "No pending request" in denied.stderr
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)
    assert not (data_dir / "service.json").exists()


@pytest.mark.slow
def test_kill_9_while_clients_create_background_responses(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    token = prepare(data_dir)
    rng = random.Random(7)
    acknowledged: dict[str, dict[str, Any]] = {}
    sent: list[str] = []
    for round_number in range(KILLS):
        process = start_headless(data_dir)
        url = wait_for_url(data_dir, process)
        deadline = time.monotonic() + rng.uniform(0.2, 0.8)
        number = 0
        try:
            while time.monotonic() < deadline:
                key = f"r{round_number}-{number}"
                number += 1
                sent.append(key)
                body = {"model": "fake-model", "input": key, "background": True}
                try:
                    status, answer, _ = http("POST", url + "/v1/responses", token, body, key)
                except (urllib.error.URLError, OSError):
                    break
                assert status == 202, answer
                acknowledged[key] = answer
        finally:
            os.kill(process.pid, signal.SIGKILL)
            process.wait(timeout=30)

    process = start_headless(data_dir)
    try:
        url = wait_for_url(data_dir, process)
        final_ids = {}
        for key in sent:
            body = {"model": "fake-model", "input": key, "background": True}
            status, answer, headers = http("POST", url + "/v1/responses", token, body, key)
            assert status == 202, answer
            if key in acknowledged:
                assert answer == acknowledged[key], key
                assert headers.get("Idempotent-Replayed") == "true"
            final_ids[key] = answer["id"]
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)

    assert len(set(final_ids.values())) == len(sent)  # one task per key, never two
    import sqlite3

    with sqlite3.connect(data_dir / "lmsp.sqlite3") as db:
        stored = {row[0] for row in db.execute("SELECT id FROM tasks WHERE kind = 'response'")}
    assert stored == set(final_ids.values())
    assert len(acknowledged) > KILLS  # the clients did get work through between kills
