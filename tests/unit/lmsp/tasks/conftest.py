"""The one loaded starter model that every generation test in this folder shares."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop.lmsp.runtime import LlamaEngine


@pytest.fixture(scope="session")
def shared_llama(starter_model_path: Path) -> Iterator[LlamaEngine]:
    loaded = LlamaEngine()
    loaded.load(starter_model_path)
    yield loaded
    loaded.unload()
