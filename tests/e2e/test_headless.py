"""The headless entry point as a user runs it: start, report, single instance, clean stop."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def start_headless(data_dir: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "desktop", "--headless", "--data-dir", str(data_dir), "--port", "0"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def read_until(process: subprocess.Popen[str], prefix: str) -> list[str]:
    assert process.stdout is not None
    lines: list[str] = []
    for line in process.stdout:
        lines.append(line.rstrip("\n"))
        if line.startswith(prefix):
            return lines
    raise AssertionError(f"no line starting with {prefix!r}; got {lines}")


@pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGINT])
def test_headless_starts_reports_and_stops_cleanly(tmp_path: Path, stop_signal: int) -> None:
    service = start_headless(tmp_path / "data")
    try:
        lines = read_until(service, "Recovery:")
        assert lines[-1] == "Recovery: No unfinished work needed recovery."
        assert (tmp_path / "data" / "lmsp.sqlite3").exists()
    finally:
        service.send_signal(stop_signal)
        output, errors = service.communicate(timeout=60)
    assert service.returncode == 0, errors
    assert "Stopped cleanly." in output
    assert "Traceback" not in errors


def test_second_instance_exits_with_a_clear_message(tmp_path: Path) -> None:
    first = start_headless(tmp_path / "data")
    try:
        read_until(first, "Recovery:")
        second = subprocess.run(
            [
                sys.executable,
                "-m",
                "desktop",
                "--headless",
                "--data-dir",
                str(tmp_path / "data"),
                "--port",
                "0",
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert second.returncode == 2
        assert "already running" in second.stderr
        assert str(first.pid) in second.stderr
        assert "Recovery:" not in second.stdout
    finally:
        first.send_signal(signal.SIGTERM)
        first.communicate(timeout=60)
    assert first.returncode == 0


def test_version_flag() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "desktop", "--version"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0
    assert "lmsp/1.0" in result.stdout
