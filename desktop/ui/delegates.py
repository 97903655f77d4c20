"""Item delegates shared by the tables: a status badge and a progress bar.

Both read the value their model exposes (``STATUS_ROLE``, ``PROGRESS_ROLE``)
and paint with the current palette, so they follow light and dark themes.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, Qt
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionProgressBar,
    QStyleOptionViewItem,
    QWidget,
)

Index = QModelIndex | QPersistentModelIndex

STATUS_COLORS = {
    "queued": "#7a869a",
    "loading": "#b7791f",
    "running": "#2b6cb0",
    "cancelling": "#c05621",
    "completed": "#2f855a",
    "failed": "#c53030",
    "cancelled": "#718096",
    "ready": "#2f855a",
    "missing": "#c53030",
    "changed": "#b7791f",
    "active": "#2f855a",
    "revoked": "#718096",
}


def status_color(status: str) -> QColor:
    return QColor(STATUS_COLORS.get(status, "#718096"))


class StatusBadgeDelegate(QStyledItemDelegate):
    """Paints the status text as a small rounded, coloured badge."""

    def __init__(self, role: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._role = role

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        status = index.data(self._role)
        if not isinstance(status, str):
            super().paint(painter, option, index)
            return
        self._paint_background(painter, option)
        text = str(index.data(Qt.ItemDataRole.DisplayRole) or status)
        metrics = option.fontMetrics
        rect: QRect = option.rect
        width = min(rect.width() - 8, metrics.horizontalAdvance(text) + 16)
        height = min(rect.height() - 6, metrics.height() + 4)
        badge = QRect(rect.left() + 4, rect.center().y() - height // 2 + 1, width, height)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(status_color(status))
        painter.drawRoundedRect(badge, height / 2, height / 2)
        painter.setPen(QColor("white"))
        painter.drawText(badge, Qt.AlignmentFlag.AlignCenter, text)
        painter.restore()

    @staticmethod
    def _paint_background(painter: QPainter, option: QStyleOptionViewItem) -> None:
        style = option.widget.style() if option.widget else QApplication.style()
        blank = QStyleOptionViewItem(option)
        blank.text = ""
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, blank, painter, option.widget)


class ProgressBarDelegate(QStyledItemDelegate):
    """Paints a progress bar for a fraction in [0, 1]; nothing when there is none."""

    def __init__(self, role: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._role = role

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        fraction = index.data(self._role)
        if not isinstance(fraction, float):
            super().paint(painter, option, index)
            return
        StatusBadgeDelegate._paint_background(painter, option)
        bar = QStyleOptionProgressBar()
        rect: QRect = option.rect
        bar.rect = rect.adjusted(4, 4, -4, -4)
        bar.minimum = 0
        bar.maximum = 1000
        bar.progress = int(fraction * 1000)
        bar.text = f"{fraction:.0%}"
        bar.textVisible = True
        bar.state = QStyle.StateFlag.State_Enabled | QStyle.StateFlag.State_Horizontal
        bar.palette = option.palette
        bar.palette.setColor(QPalette.ColorRole.Highlight, QColor("#3182ce"))
        style = option.widget.style() if option.widget else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ProgressBar, bar, painter, option.widget)
