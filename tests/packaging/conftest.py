"""Collects the figures the bundle tests measure and prints them at the end of the run.

They also go to ``build/packaging-measurements.json`` (bundle size, build time,
start times of the bundle and of the virtualenv's program).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MEASUREMENTS: dict[str, str] = {}


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not MEASUREMENTS:
        return
    terminalreporter.section("packaging measurements")
    for what, value in MEASUREMENTS.items():
        terminalreporter.write_line(f"{what}: {value}")
    target = ROOT / "build" / "packaging-measurements.json"
    target.parent.mkdir(exist_ok=True)
    target.write_text(json.dumps(MEASUREMENTS, indent=2) + "\n")
