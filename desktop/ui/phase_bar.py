"""PhaseBar: a thin painted strip of how long a task spent queued, loading and running.

``task_phases`` turns the lifecycle events seen so far into time spans; the
widget paints them side by side in proportion, with a tick at each restart
(``*.requeued`` / ``*.resumed``). Output and progress events are ignored, so
the bar is right as soon as the events up to the last state change are loaded.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QSizePolicy, QWidget

from desktop.lmsp.clock import parse_time, utc_now
from desktop.lmsp.store.tasks import TaskEvent, TaskRecord
from desktop.ui.delegates import status_color

PHASE_STATES = ("queued", "loading", "running", "cancelling")
RESTART_MARKS = ("requeued", "resumed")
TERMINAL = ("completed", "failed", "cancelled")


@dataclass(frozen=True)
class PhaseSpan:
    state: str
    start: datetime
    end: datetime

    @property
    def seconds(self) -> float:
        return max(0.0, (self.end - self.start).total_seconds())


@dataclass(frozen=True)
class TaskPhases:
    spans: tuple[PhaseSpan, ...]
    restarts: tuple[datetime, ...]

    @property
    def start(self) -> datetime | None:
        return self.spans[0].start if self.spans else None

    @property
    def end(self) -> datetime | None:
        return self.spans[-1].end if self.spans else None

    def seconds_in(self, state: str) -> float:
        return sum(span.seconds for span in self.spans if span.state == state)


def task_phases(
    events: Iterable[TaskEvent], task: TaskRecord | None, now: datetime | None = None
) -> TaskPhases:
    """Spans between lifecycle events; the last one runs to the task's end or ``now``."""
    spans: list[PhaseSpan] = []
    restarts: list[datetime] = []
    current: tuple[str, datetime] | None = None
    ended: datetime | None = None
    for event in events:
        suffix = event.type.rsplit(".", 1)[-1]
        moment = parse_time(event.created_at)
        if suffix in RESTART_MARKS:
            restarts.append(moment)
            suffix = "queued" if suffix == "requeued" else "running"
        if suffix not in PHASE_STATES and suffix not in TERMINAL:
            continue
        if current is not None:
            spans.append(PhaseSpan(current[0], current[1], moment))
        if suffix in TERMINAL:
            current, ended = None, moment
        else:
            current = (suffix, moment)
    if current is not None:
        finish = now or utc_now()
        if task is not None and task.finished_at:
            finish = parse_time(task.finished_at)
        elif ended is not None:
            finish = ended
        spans.append(PhaseSpan(current[0], current[1], max(finish, current[1])))
    return TaskPhases(tuple(spans), tuple(restarts))


class PhaseBar(QWidget):
    """The painted strip; call ``set_phases`` whenever the timeline grows."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._phases = TaskPhases((), ())
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setAccessibleName(self.tr("Time spent in each phase"))

    def sizeHint(self) -> QSize:
        return QSize(300, 22)

    def set_phases(self, phases: TaskPhases) -> None:
        self._phases = phases
        parts = [
            f"{state} {phases.seconds_in(state):.1f} s"
            for state in PHASE_STATES
            if phases.seconds_in(state) > 0
        ]
        if phases.restarts:
            parts.append(self.tr("%n restart(s)", "", len(phases.restarts)))
        self.setToolTip(", ".join(parts))
        self.setAccessibleDescription(", ".join(parts))
        self.update()

    @property
    def phases(self) -> TaskPhases:
        return self._phases

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        area = QRectF(self.rect()).adjusted(1, 3, -1, -3)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(self.palette().color(QPalette.ColorRole.AlternateBase))
        painter.drawRoundedRect(area, 4, 4)
        start, end = self._phases.start, self._phases.end
        if start is None or end is None:
            painter.end()
            return
        total = max((end - start).total_seconds(), 1e-6)
        for span in self._phases.spans:
            left = area.left() + area.width() * (span.start - start).total_seconds() / total
            width = max(1.0, area.width() * span.seconds / total)
            painter.setBrush(status_color(span.state))
            painter.drawRect(QRectF(left, area.top(), width, area.height()))
        painter.setBrush(self.palette().color(QPalette.ColorRole.WindowText))
        for moment in self._phases.restarts:
            x = area.left() + area.width() * (moment - start).total_seconds() / total
            painter.drawRect(QRectF(x - 1, area.top() - 2, 2, area.height() + 4))
        painter.setPen(QColor("white"))
        for span in self._phases.spans:
            left = area.left() + area.width() * (span.start - start).total_seconds() / total
            width = area.width() * span.seconds / total
            label = f"{span.state} {span.seconds:.1f}s"
            if width > painter.fontMetrics().horizontalAdvance(label) + 8:
                painter.drawText(
                    QRectF(left, area.top(), width, area.height()),
                    Qt.AlignmentFlag.AlignCenter,
                    label,
                )
        painter.end()
