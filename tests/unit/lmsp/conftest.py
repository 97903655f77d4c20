"""Fixtures for service-level unit tests: a real Service on a real SQLite file."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from desktop.lmsp.service import Service, ServiceOptions


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[Service]:
    running = Service(ServiceOptions(data_dir=tmp_path / "data", port=0))
    await running.start()
    yield running
    await running.stop()
