"""Engines on the real starter model, loaded once per test session."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop.lmsp.runtime import LlamaEngine


@pytest.fixture(scope="session")
def engine(starter_model_path: Path) -> Iterator[LlamaEngine]:
    """The engine most model tests share."""
    loaded = LlamaEngine()
    loaded.load(starter_model_path)
    yield loaded
    loaded.unload()


@pytest.fixture(scope="session")
def second_engine(starter_model_path: Path) -> Iterator[LlamaEngine]:
    """A separately loaded engine: resumes run here, as after a restart."""
    loaded = LlamaEngine()
    loaded.load(starter_model_path)
    yield loaded
    loaded.unload()
