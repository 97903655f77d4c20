"""The French catalogue loads for a French locale and translates the window."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QLocale
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from desktop.ui.resources import install_translator


def test_french_locale_translates(qtbot: QtBot, qapp: QApplication) -> None:
    translator = install_translator(qapp, QLocale(QLocale.Language.French, QLocale.Country.France))
    assert translator is not None
    try:
        assert QCoreApplication.translate("TasksPage", "Cancel") == "Annuler"
        assert QCoreApplication.translate("Pages", "Try it") == "Essayer"
        assert QCoreApplication.translate("PhaseBar", "%n restart(s)", "", 2) == "2 redémarrages"
    finally:
        qapp.removeTranslator(translator)


def test_english_locale_needs_no_change(qtbot: QtBot, qapp: QApplication) -> None:
    translator = install_translator(qapp, QLocale(QLocale.Language.English))
    try:
        assert QCoreApplication.translate("TasksPage", "Cancel") == "Cancel"
    finally:
        if translator is not None:
            qapp.removeTranslator(translator)
