"""Pairing requests are answered in the dialog; paired apps can be revoked from the Clients page."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from pytestqt.qtbot import QtBot

from desktop.ui.clients_page import ClientsPage
from desktop.ui.main_window import MainWindow
from desktop.ui.pairing_queue import PairingQueue
from tests.gui.conftest import WAIT_MS, call_and_wait


def ask_to_pair(qtbot: QtBot, window: MainWindow, name: str, scopes: list[str]) -> dict[str, Any]:
    service = window.bridge.service

    async def create() -> dict[str, Any]:
        return service.pairing.create(name, scopes).to_api()

    return call_and_wait(qtbot, window.bridge, create)


def test_allow_with_a_scope_unticked_then_deny_the_next(
    qtbot: QtBot, data_dir: Path, open_window: Callable[[Path], MainWindow]
) -> None:
    window = open_window(data_dir)
    queue = PairingQueue(window.bridge, window)
    with qtbot.waitSignal(queue.dialogShown, timeout=WAIT_MS) as shown:
        first = ask_to_pair(
            qtbot, window, "Writer Pro", ["models:read", "responses:write", "responses:read"]
        )
    second = ask_to_pair(qtbot, window, "Notes", ["models:read"])
    dialog = shown.args[0]
    assert dialog.pairing_id == first["id"]
    assert dialog.code.text() == first["code"]
    assert 0 < dialog.seconds_left() <= 120
    qtbot.waitUntil(lambda: queue.pending_ids() == [first["id"], second["id"]], timeout=WAIT_MS)
    assert dialog.waiting.isVisibleTo(dialog)

    dialog.scope_boxes["responses:read"].setChecked(False)
    with (
        qtbot.waitSignal(queue.decisionSent, timeout=WAIT_MS),
        qtbot.waitSignal(queue.dialogShown, timeout=WAIT_MS) as next_shown,
    ):
        dialog.allow_button.click()
    approved = window.bridge.service.pairing.get(first["id"])
    assert approved.status == "approved"
    assert approved.granted_scopes == ("models:read", "responses:write")

    next_dialog = next_shown.args[0]
    assert next_dialog.pairing_id == second["id"]
    with qtbot.waitSignal(queue.decisionSent, timeout=WAIT_MS):
        next_dialog.deny_button.click()
    assert window.bridge.service.pairing.get(second["id"]).status == "denied"
    assert queue.dialog is None


def test_revoke_from_clients_page(
    qtbot: QtBot, data_dir: Path, open_window: Callable[[Path], MainWindow]
) -> None:
    window = open_window(data_dir)
    page = window.pages["clients"]
    assert isinstance(page, ClientsPage)
    service = window.bridge.service
    client, _token = call_and_wait(
        qtbot, window.bridge, lambda: service.clients.issue("Writer Pro", ["models:read"])
    )
    qtbot.waitUntil(lambda: page.select_client(client.id), timeout=WAIT_MS)
    assert page.revoke_button.isEnabled()
    assert page.table.item(0, 0).text() == "Writer Pro"
    page.revoke(client.id)
    qtbot.waitUntil(lambda: page.table.rowCount() == 0, timeout=WAIT_MS)
    assert page.empty.isVisibleTo(page)
    assert call_and_wait(qtbot, window.bridge, service.list_clients) == []
