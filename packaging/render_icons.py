"""Render the app icon (``resources/icons/lmsp-desktop.svg``) into a freedesktop icon theme tree.

    python packaging/render_icons.py OUT_DIR

writes ``OUT_DIR/hicolor/scalable/apps/<APP_ID>.svg`` and
``OUT_DIR/hicolor/<N>x<N>/apps/<APP_ID>.png`` for every size in ``SIZES``, the
layout that ``install.sh`` copies into ``<prefix>/share/icons``. The PNGs are
drawn with Qt's own SVG renderer, so they need nothing but PySide6.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APP_ID = "io.github.lmsp.Desktop"
SOURCE_SVG = ROOT / "resources" / "icons" / "lmsp-desktop.svg"
SIZES = (16, 32, 48, 64, 128, 256)


def render_icons(out_dir: Path, svg: Path = SOURCE_SVG, app_id: str = APP_ID) -> list[Path]:
    """Write the SVG and one PNG per size under ``out_dir/hicolor``; the files written."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    _app = QGuiApplication.instance() or QGuiApplication([])
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise ValueError(f"{svg} is not a valid SVG image")
    written: list[Path] = []
    scalable = out_dir / "hicolor" / "scalable" / "apps" / f"{app_id}.svg"
    scalable.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(svg, scalable)
    written.append(scalable)
    for size in SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        renderer.render(painter)
        painter.end()
        target = out_dir / "hicolor" / f"{size}x{size}" / "apps" / f"{app_id}.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        if not image.save(str(target), "PNG"):
            raise OSError(f"cannot write {target}")
        written.append(target)
    return written


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    for path in render_icons(Path(argv[0])):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
