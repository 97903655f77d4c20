"""Screenshots of every page, the pairing dialog and the recovery banner, light and dark.

Run with ``make screenshots`` (or ``xvfb-run -a .venv/bin/python -m tests.gui.take_screenshots``).
It fills a temporary data dir with sample work (a finished response with its
output, tasks left unfinished by an unexpected stop, a model, a paired app),
opens the real window on it at 1280×800 and saves PNGs to docs/screenshots/.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QDeadlineTimer, QEventLoop, QLocale, QTimer
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QStyleFactory, QWidget

from desktop.lmsp.requests import ModelImportRequest
from desktop.lmsp.service import Service
from desktop.lmsp.store.tasks import NewEvent
from desktop.lmsp.tasks.states import TaskStatus
from desktop.ui.bridge import ServiceBridge
from desktop.ui.main_window import MainWindow
from desktop.ui.pairing_queue import PairingQueue
from desktop.ui.resources import app_icon, install_translator
from tests.gui.conftest import run_service
from tests.gui.test_recovery_banner import leave_unfinished_work
from tests.unit.lmsp.models.gguf_samples import write_gguf

OUTPUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
HAIKU = [
    "Quiet ",
    "pages ",
    "turn —\n",
    "rows ",
    "wait ",
    "in ",
    "the ",
    "WAL,\n",
    "commit ",
    "at dawn.",
]


async def sample_work(service: Service, model_file: Path) -> dict[str, Any]:
    ids = await leave_unfinished_work(service)
    engine = service.engine
    task = await engine.create(kind="response", owner="local", on_restart="resume", params={})
    await engine.transition(task.id, TaskStatus.LOADING, event_data={"model": "mdl_tiny"})
    await engine.transition(task.id, TaskStatus.RUNNING, event_data={"attempt": 1})
    for count, piece in enumerate(HAIKU, start=1):
        await engine.append_output(
            task.id,
            [NewEvent("response.output_text.delta", {"delta": piece, "output_tokens": count})],
            progress={"done": count, "total": 64, "unit": "tokens"},
        )
    await engine.finish(task.id, completed_data=lambda _t: {})
    imported = await service.import_model(ModelImportRequest(path=str(model_file)), owner="local")
    while not (await service.get_task(imported.id)).status.is_terminal:
        await asyncio.sleep(0.05)
    await service.clients.issue("Writer Pro", ["models:read", "responses:write"])
    ids["haiku"] = task.id
    return ids


def settle(milliseconds: int = 400) -> None:
    loop = QEventLoop()
    QTimer.singleShot(milliseconds, loop.quit)
    loop.exec()


def wait_until(condition: Any, timeout_ms: int = 10_000) -> None:
    deadline = QDeadlineTimer(timeout_ms)
    while not condition() and not deadline.hasExpired():
        QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)


def dark_palette() -> QPalette:
    palette = QPalette()
    colors = {
        QPalette.ColorRole.Window: "#1f2329",
        QPalette.ColorRole.WindowText: "#e6e8eb",
        QPalette.ColorRole.Base: "#15181c",
        QPalette.ColorRole.AlternateBase: "#262b31",
        QPalette.ColorRole.Text: "#e6e8eb",
        QPalette.ColorRole.Button: "#2a2f36",
        QPalette.ColorRole.ButtonText: "#e6e8eb",
        QPalette.ColorRole.Highlight: "#3182ce",
        QPalette.ColorRole.HighlightedText: "#ffffff",
        QPalette.ColorRole.ToolTipBase: "#2a2f36",
        QPalette.ColorRole.ToolTipText: "#e6e8eb",
        QPalette.ColorRole.PlaceholderText: "#8a929c",
        QPalette.ColorRole.Link: "#63b3ed",
    }
    for role, color in colors.items():
        palette.setColor(role, QColor(color))
    return palette


def save(widget: QWidget, name: str) -> Path:
    OUTPUT.mkdir(parents=True, exist_ok=True)
    path = OUTPUT / f"{name}.png"
    widget.grab().save(str(path))
    print(path)
    return path


def shoot(app: QApplication, data_dir: Path, theme: str, ids: dict[str, Any]) -> None:
    app.setPalette(dark_palette() if theme == "dark" else app.style().standardPalette())
    bridge = ServiceBridge(_service(data_dir))
    pending = bridge.start()
    wait_until(lambda: pending.done)
    window = MainWindow(bridge, app_icon())
    window.resize(1280, 800)
    window.service_started()
    window.show()
    page = window.tasks_page
    wait_until(lambda: page.model.row_of(ids["haiku"]) is not None)
    page.select_task(ids["haiku"])
    wait_until(lambda: page.detail.model.rowCount() > 5)
    settle()
    save(window, f"{theme}-tasks-recovery-banner")
    for key in ("models", "try", "clients"):
        window.show_page(key)
        settle()
        save(window, f"{theme}-{key}")
    window.show_page("tasks")
    window.banner.request_show_tasks()
    settle()
    save(window, f"{theme}-tasks-recovered-filter")
    dialog = window.open_settings()
    settle()
    save(dialog, f"{theme}-settings")
    dialog.close()

    queue = PairingQueue(bridge, window)
    service = bridge.service

    async def ask() -> None:
        service.pairing.create("Writer Pro", ["models:read", "responses:write", "responses:read"])
        service.pairing.create("Notes", None)

    bridge.call(ask)
    wait_until(lambda: queue.dialog is not None)
    settle()
    assert queue.dialog is not None
    save(queue.dialog, f"{theme}-pairing-dialog")
    queue.dialog.close()
    window.hide_on_close = False
    window.close()
    bridge.shutdown()


def _service(data_dir: Path) -> Service:
    from desktop.lmsp.service import ServiceOptions

    return Service(ServiceOptions(data_dir=data_dir, port=0))


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(app, QApplication)
    app.setStyle(QStyleFactory.create("Fusion"))
    install_translator(app, QLocale(QLocale.Language.English))
    with tempfile.TemporaryDirectory() as temp:
        data_dir = Path(temp) / "data"
        model_file = write_gguf(Path(temp) / "gemma-demo.gguf", name="Gemma demo")
        ids = run_service(data_dir, lambda service: sample_work(service, model_file))
        for theme in ("light", "dark"):
            # Each opening after the first finds a clean stop; bring the leftovers back first.
            if theme == "dark":
                run_service(data_dir, leave_unfinished_work)
            shoot(app, data_dir, theme, ids)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
