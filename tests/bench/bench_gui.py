"""The window under load, and its idle memory, against baselines measured in the same run.

* responsiveness: the real ``MainWindow`` with the service on its own thread,
  as the app runs it. A ``QTimer`` fires every 10 ms on the GUI thread; its lag
  is the measured interval minus 10 ms. It is measured first with the window
  idle (the baseline), then while four background responses on the starter
  model stream at full speed (``max_concurrent_tasks`` = 4; they take turns on
  the one loaded model) and the Tasks page shows the running one, its timeline
  and output following the tail (target p99 < 50 ms);
* idle memory: the resident size of the whole app (``run_app``: window shown,
  service running, no model loaded) ÷ that of a bare PySide6 ``QMainWindow``,
  each in its own process, read from ``/proc/self/status``.

Needs a Qt platform; ``make bench`` sets ``QT_QPA_PLATFORM=offscreen``.
"""

from __future__ import annotations

import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parents[2]

TICK_MS = 10
IDLE_S = 3.0
RESPONSES = 4
TOKENS = 48
PROMPT = "Write a short paragraph about the sea."
STREAM_TIMEOUT_S = 240.0
CALL_TIMEOUT_S = 120.0
MEMORY_ROUNDS = 3
SETTLE_MS = 2000
CHILD_TIMEOUT_S = 60.0


# -- memory, each figure in its own process ---------------------------------------


def resident_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc/self/status")


def bare_window_main() -> None:
    """Child process: a bare QMainWindow, shown; prints its resident size once settled."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMainWindow

    app = QApplication(sys.argv)
    window = QMainWindow()
    window.resize(1280, 800)
    window.show()

    def report() -> None:
        print(json.dumps({"rss_kib": resident_kib()}), flush=True)
        app.quit()

    QTimer.singleShot(SETTLE_MS, report)
    app.exec()


def whole_app_main(data_dir: str) -> None:
    """Child process: the app as ``lmsp-desktop`` starts it; its resident size once settled."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from desktop.lmsp.service import ServiceOptions
    from desktop.ui.app import run_app
    from desktop.ui.main_window import MainWindow

    app = QApplication(sys.argv)
    deadline = time.monotonic() + CHILD_TIMEOUT_S / 2

    def window_up() -> bool:
        for widget in app.topLevelWidgets():
            if isinstance(widget, MainWindow) and widget.isVisible() and widget.bridge.running:
                return not widget.tasks_page.model._loading
        return False

    def report() -> None:
        print(json.dumps({"rss_kib": resident_kib()}), flush=True)
        app.quit()

    def check() -> None:
        if window_up():
            QTimer.singleShot(SETTLE_MS, report)
        elif time.monotonic() > deadline:
            print(json.dumps({"error": "the window did not come up"}), flush=True)
            app.quit()
        else:
            QTimer.singleShot(50, check)

    QTimer.singleShot(50, check)
    run_app(ServiceOptions(data_dir=Path(data_dir), port=0))


def child_rss(code: str) -> int:
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**os.environ, "QT_QPA_PLATFORM": os.environ["QT_QPA_PLATFORM"]},
        capture_output=True,
        text=True,
        timeout=CHILD_TIMEOUT_S,
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    answer = json.loads(lines[-1]) if lines else {"error": done.stderr[-2000:]}
    if "rss_kib" not in answer:
        raise RuntimeError(f"memory child failed: {answer.get('error')}")
    return int(answer["rss_kib"])


def memory_figures(folder: Path) -> None:
    module = "tests.bench.bench_gui"
    ratios = []
    for round_number in range(MEMORY_ROUNDS):
        bare = child_rss(f"from {module} import bare_window_main; bare_window_main()")
        data_dir = folder / f"memory-{round_number}"
        whole = child_rss(f"from {module} import whole_app_main; whole_app_main({str(data_dir)!r})")
        ratios.append(whole / bare)
        print(
            f"  round {round_number}: app {whole / 1024:.0f} MiB, "
            f"bare QMainWindow {bare / 1024:.0f} MiB, ratio {whole / bare:.2f}",
            flush=True,
        )
    print(f"idle memory, app ÷ bare QMainWindow: median ratio {statistics.median(ratios):.2f}")


# -- responsiveness, in this process ---------------------------------------------


# The offscreen platform has no window manager to pass size hints or raise requests to.
OFFSCREEN_NOISE = ("does not support propagateSizeHints", "does not support raise")


def quiet_offscreen_noise() -> None:
    from PySide6.QtCore import qInstallMessageHandler

    def handler(_mode: Any, _context: Any, message: str) -> None:
        if not any(noise in message for noise in OFFSCREEN_NOISE):
            print(message, file=sys.stderr)

    qInstallMessageHandler(handler)


class Harness:
    """The window and its bridge, and ways to wait for them without blocking the GUI."""

    def __init__(self, data_dir: Path) -> None:
        from PySide6.QtWidgets import QApplication

        from desktop.lmsp.service import Service, ServiceOptions
        from desktop.ui.bridge import ServiceBridge
        from desktop.ui.main_window import MainWindow

        existing = QApplication.instance()
        self.app = existing if isinstance(existing, QApplication) else QApplication([])
        quiet_offscreen_noise()
        self.bridge = ServiceBridge(Service(ServiceOptions(data_dir=data_dir, port=0)))
        self.service = self.bridge.service
        started = self.bridge.start()
        self.wait_until(lambda: started.done, CALL_TIMEOUT_S)
        if started.error is not None:
            raise started.error
        self.window = MainWindow(self.bridge)
        self.window.service_started()
        self.window.show()
        self.wait_until(lambda: not self.window.tasks_page.model._loading, CALL_TIMEOUT_S)

    def wait_until(self, done: Callable[[], bool], timeout_s: float) -> None:
        from PySide6.QtCore import QEventLoop, QTimer

        loop = QEventLoop()
        poll = QTimer()
        poll.setInterval(20)
        deadline = time.monotonic() + timeout_s

        def check() -> None:
            if done() or time.monotonic() > deadline:
                loop.quit()

        poll.timeout.connect(check)
        poll.start()
        if not done():
            loop.exec()
        poll.stop()
        if not done():
            raise TimeoutError(f"not done within {timeout_s:.0f} s")

    def call(self, factory: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
        """Run a coroutine on the service loop; its result, waited for on the GUI thread."""
        pending = self.bridge.call(factory, on_result=lambda _r: None, on_error=lambda _e: None)
        self.wait_until(lambda: pending.done, CALL_TIMEOUT_S)
        if pending.error is not None:
            raise pending.error
        return pending.result

    def close(self) -> None:
        self.window.close()
        self.bridge.shutdown()
        self.window.deleteLater()


class TimerLag:
    """A 10 ms precise timer on the GUI thread, and the lag of each interval."""

    def __init__(self) -> None:
        from PySide6.QtCore import Qt, QTimer

        self.timer = QTimer()
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(TICK_MS)
        self.timer.timeout.connect(self._tick)
        self.lags_ms: list[float] = []
        self._last = 0.0

    def _tick(self) -> None:
        now = time.perf_counter()
        if self._last:
            self.lags_ms.append((now - self._last) * 1000 - TICK_MS)
        self._last = now

    def start(self) -> None:
        self.lags_ms, self._last = [], 0.0
        self.timer.start()

    def stop(self) -> list[float]:
        self.timer.stop()
        return self.lags_ms


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(1, math.ceil(q / 100 * len(ordered))) - 1]


def shown_id(page: Any) -> str | None:
    task = page.detail.task
    return None if task is None else str(task.id)


def describe(lags: list[float]) -> str:
    return (
        f"p50 {percentile(lags, 50):.1f} ms, p99 {percentile(lags, 99):.1f} ms, "
        f"max {max(lags):.1f} ms over {len(lags)} ticks"
    )


def responsiveness_figures(folder: Path) -> None:
    from desktop.lmsp.notifications import TaskChanged
    from desktop.lmsp.requests import ResponseRequest
    from tests.bench.bench_http import import_starter_model

    harness = Harness(folder / "window")
    service = harness.service
    try:
        model = harness.call(lambda: import_starter_model(service))
        harness.call(lambda: service.update_settings({"max_concurrent_tasks": RESPONSES}))

        def request(tokens: int) -> ResponseRequest:
            return ResponseRequest(
                model=model,
                input=PROMPT,
                max_output_tokens=tokens,
                temperature=0.0,
                seed=7,
                background=True,
            )

        async def warm_up() -> None:  # loads the model, so the figures are about streaming
            created = await service.create_response(request(4), owner="local")
            async for _event in service.follow_events(created["id"]):
                pass

        harness.call(warm_up)

        lag = TimerLag()
        lag.start()
        idle_until = time.monotonic() + IDLE_S
        harness.wait_until(lambda: time.monotonic() > idle_until, IDLE_S + 5)
        idle = lag.stop()

        async def create_all() -> list[str]:
            service.set_paused(True)
            ids = []
            for _ in range(RESPONSES):
                created = await service.create_response(request(TOKENS), owner="local")
                ids.append(str(created["id"]))
            return ids

        ids = harness.call(create_all)
        page = harness.window.tasks_page
        harness.window.show_page("tasks")
        harness.wait_until(lambda: all(page.model.row_of(i) is not None for i in ids), 30)
        finished: set[str] = set()
        shown: set[str] = set()

        def on_task(note: TaskChanged) -> None:
            task = note.task
            if task.id not in ids:
                return
            if task.status.value == "running" and shown_id(page) != task.id:
                page.select_task(task.id)
            if task.status.is_terminal:
                finished.add(task.id)
                if shown_id(page) == task.id and page.detail.output_text():
                    shown.add(task.id)

        harness.bridge.taskChanged.connect(on_task)
        page.select_task(ids[0])
        lag.start()
        harness.call(lambda: _unpause(service))
        start = time.perf_counter()
        harness.wait_until(lambda: len(finished) == RESPONSES, STREAM_TIMEOUT_S)
        elapsed = time.perf_counter() - start
        streaming = lag.stop()
        harness.bridge.taskChanged.disconnect(on_task)
        print(f"GUI timer lag, window idle (baseline): {describe(idle)}", flush=True)
        print(
            f"GUI timer lag, {RESPONSES} responses streaming ({RESPONSES}×{TOKENS} tokens in "
            f"{elapsed:.1f} s; {len(shown)} of {RESPONSES} shown live in turn): "
            f"{describe(streaming)} (target p99 < 50 ms)",
            flush=True,
        )
    finally:
        harness.close()


async def _unpause(service: Any) -> None:
    service.set_paused(False)


def main() -> None:
    with tempfile.TemporaryDirectory(dir=Path.cwd()) as name:
        folder = Path(name)
        responsiveness_figures(folder)
        memory_figures(folder)


if __name__ == "__main__":
    main()
