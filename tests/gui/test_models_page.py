"""Importing from the Models page: the transfer bar reaches 100 % and the model is listed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pytestqt.qtbot import QtBot

from desktop.lmsp.requests import ModelImportRequest
from desktop.ui.main_window import MainWindow
from desktop.ui.model_dialogs import removal_explanation
from desktop.ui.models_page import ModelsPage
from tests.gui.conftest import WAIT_MS
from tests.unit.lmsp.models.gguf_samples import write_gguf


def test_import_progress_reaches_100_and_model_is_listed(
    qtbot: QtBot, tmp_path: Path, data_dir: Path, open_window: Callable[[Path], MainWindow]
) -> None:
    window = open_window(data_dir)
    page = window.pages["models"]
    assert isinstance(page, ModelsPage)
    qtbot.waitUntil(lambda: page.model.loaded, timeout=WAIT_MS)
    assert page.model.rowCount() == 0
    source = write_gguf(tmp_path / "tiny.gguf", tensor_shapes=((256, 1024),))

    page.start_import(ModelImportRequest(path=str(source), storage="copy"))
    qtbot.waitUntil(lambda: page.model.rowCount() == 1, timeout=WAIT_MS)
    qtbot.waitUntil(
        lambda: any(row.bar.value() == 1000 for row in page.transfer_rows.values()),
        timeout=WAIT_MS,
    )
    (row,) = page.transfer_rows.values()
    assert row.state.text() == "completed"
    assert page.model.index(0, 0).data() == "tiny"
    assert page.model.index(0, 1).data() == "llama"
    assert page.model.index(0, 2).data() == "Q4_K_M"
    assert page.model.index(0, 6).data() == "ready"
    assert "deleted" in removal_explanation(page.model.model_at(0) or {})
    assert not page.starter_offer.isVisible()
