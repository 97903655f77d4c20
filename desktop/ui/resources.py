"""Where the window finds its files: the app icon and the compiled translations.

Also installs the translator matching the system locale (English is the
source language, so it needs none).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLocale, QTranslator
from PySide6.QtGui import QIcon

RESOURCES = Path(__file__).resolve().parents[2] / "resources"
ICON_PATH = RESOURCES / "icons" / "lmsp-desktop.svg"
TRANSLATIONS = RESOURCES / "translations"


def app_icon() -> QIcon:
    return QIcon(str(ICON_PATH)) if ICON_PATH.exists() else QIcon()


def install_translator(app: QCoreApplication, locale: QLocale | None = None) -> QTranslator | None:
    """Load ``lmsp_<lang>.qm`` for ``locale`` (default: the system's); None if none fits."""
    translator = QTranslator(app)
    if translator.load(locale or QLocale.system(), "lmsp", "_", str(TRANSLATIONS)):
        app.installTranslator(translator)
        return translator
    return None
