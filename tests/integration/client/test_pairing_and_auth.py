"""Pairing through the client library against a real service, and what each failure raises."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from desktop.client import (
    InsufficientScope,
    LmspClient,
    PairingCode,
    PairingDenied,
    RetryPolicy,
    ServiceNotRunning,
    Unauthorized,
    load_token,
    pair,
    save_token,
)
from tests.integration.client.conftest import ThreadedService

FAST = RetryPolicy(attempts=2, base_delay_s=0.01, max_delay_s=0.02, reconnects=1)


def test_pairing_approved_by_the_owner_gives_a_working_token(
    running: ThreadedService, tmp_path: Path
) -> None:
    shown: list[PairingCode] = []
    approver = running.approve_when_asked(scopes=["models:read", "responses:read"])

    paired = pair(
        running.url,
        "Writer Pro",
        ["models:read", "responses:write", "responses:read"],
        on_code=shown.append,
    )
    approver.join(10)

    assert len(shown) == 1 and len(shown[0].code) == 7  # "482-913"
    assert paired.scopes == ("models:read", "responses:read")  # the owner unticked one
    path = save_token(paired.token, tmp_path / "config" / "token")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    client = LmspClient(running.url, load_token(path))
    me = client.me()
    assert me["id"] == paired.client_id and me["name"] == "Writer Pro"
    assert client.list_models() == []


def test_a_denied_pairing_raises(running: ThreadedService) -> None:
    approver = running.approve_when_asked(deny=True)
    with pytest.raises(PairingDenied):
        pair(running.url, "Unwanted")
    approver.join(10)


def test_a_revoked_token_raises_unauthorized(running: ThreadedService) -> None:
    client = LmspClient(running.url, running.paired_token())
    client_id = client.me()["id"]
    running.admin("DELETE", f"/v1/admin/clients/{client_id}")
    with pytest.raises(Unauthorized):
        client.list_models()


def test_a_missing_scope_raises_insufficient_scope(running: ThreadedService) -> None:
    client = LmspClient(running.url, running.paired_token(scopes=["models:read"]))
    with pytest.raises(InsufficientScope) as caught:
        client.list_tasks()
    assert "tasks:read" in caught.value.message


def test_discovery_finds_the_service_and_its_absence_is_clear(
    running: ThreadedService, tmp_path: Path
) -> None:
    client = LmspClient.discover(running.paired_token(), data_dir=running.data_dir)
    assert client.url == running.url
    assert client.service_info()["protocol"] == "lmsp/1.0"
    with pytest.raises(ServiceNotRunning, match=r"no service\.json"):
        LmspClient.discover("lmsp_x", data_dir=tmp_path / "empty")


def test_a_stopped_service_is_reported_as_not_running(tmp_path: Path) -> None:
    service = ThreadedService(tmp_path / "data")
    url = service.url
    service.stop()
    client = LmspClient(url, "lmsp_" + "A" * 43, retry=FAST)
    with pytest.raises(ServiceNotRunning, match="not running"):
        client.list_models()
    with pytest.raises(ServiceNotRunning):
        LmspClient.discover("lmsp_x", data_dir=tmp_path / "data")


def test_owner_endpoints_stay_closed_to_paired_clients(running: ThreadedService) -> None:
    token = running.paired_token()
    client = LmspClient(running.url, token)
    with pytest.raises(InsufficientScope):
        client.transport.request("GET", "/v1/admin/clients")
