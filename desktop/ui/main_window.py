"""MainWindow: the sidebar of pages, the recovery banner and the status bar.

It owns no service logic: pages talk to the service through the bridge. The
status bar shows the service address (a click copies it), how many tasks are
running and queued (recounted shortly after tasks change) and the data folder.
Closing the window hides it when a tray icon keeps the app reachable.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QGuiApplication, QIcon, QKeySequence
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.lmsp.store.tasks import TaskRecord
from desktop.ui.about_dialog import AboutDialog
from desktop.ui.bridge import ServiceBridge
from desktop.ui.pages import build_optional_pages
from desktop.ui.recovery_banner import RecoveryBanner
from desktop.ui.settings_dialog import SettingsDialog
from desktop.ui.tasks_page import TasksPage

COUNT_REFRESH_MS = 300
COUNT_LIMIT = 1000


def service_address(bridge: ServiceBridge) -> str:
    """The URL apps use, from the listener when it runs, else from the settings."""
    service = bridge.service
    for name in ("base_url", "address", "url"):
        try:
            value = getattr(service, name, None)
        except Exception:  # the listener is not up (yet)
            value = None
        if isinstance(value, str) and value:
            return value
    settings = service.settings
    port = service.options.port if service.options.port is not None else settings["port"]
    host = service.options.bind_host or settings["bind_host"]
    return f"http://{host}:{port}"


class MainWindow(QMainWindow):
    def __init__(self, bridge: ServiceBridge, icon: QIcon | None = None) -> None:
        super().__init__()
        self.bridge = bridge
        self.hide_on_close = False
        self.setWindowTitle("LMSP Desktop")
        if icon is not None:
            self.setWindowIcon(icon)
        self.resize(1280, 800)

        self.banner = RecoveryBanner()
        self.tasks_page = TasksPage(bridge)
        self.sidebar = QListWidget()
        self.sidebar.setAccessibleName(self.tr("Pages"))
        self.sidebar.setFixedWidth(160)
        self.sidebar.setFrameShape(QListWidget.Shape.NoFrame)
        self.sidebar.setStyleSheet("QListWidget::item { padding: 8px 12px; }")
        self.sidebar.setIconSize(QSize(18, 18))
        self.stack = QStackedWidget()
        self.pages: dict[str, QWidget] = {}
        self.add_page("tasks", self.tr("Tasks"), self.tasks_page)
        for key, title, page in build_optional_pages(bridge, self):
            self.add_page(key, title, page)
        self.sidebar.currentRowChanged.connect(self.stack.setCurrentIndex)
        self.sidebar.setCurrentRow(0)

        body = QWidget()
        column = QVBoxLayout(body)
        column.setContentsMargins(8, 8, 8, 0)
        column.addWidget(self.banner)
        column.addWidget(self.stack, 1)
        outer = QWidget()
        row = QHBoxLayout(outer)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(0)
        row.addWidget(self.sidebar)
        row.addWidget(body, 1)
        self.setCentralWidget(outer)

        self._build_status_bar()
        self._build_menu()
        self.banner.showTasksRequested.connect(self.show_tasks)
        self.tasks_page.statusMessage.connect(self.show_message)
        bridge.errorOccurred.connect(self.show_message)
        bridge.taskChanged.connect(lambda _note: self._count_timer.start())
        bridge.taskDeleted.connect(lambda _id: self._count_timer.start())
        bridge.settingsChanged.connect(lambda _values: self.refresh_address())

    # -- pages ----------------------------------------------------------------

    def add_page(self, key: str, title: str, page: QWidget) -> None:
        self.pages[key] = page
        item = QListWidgetItem(title)
        item.setData(Qt.ItemDataRole.UserRole, key)
        self.sidebar.addItem(item)
        self.stack.addWidget(page)

    def show_page(self, key: str) -> None:
        keys = list(self.pages)
        if key in keys:
            self.sidebar.setCurrentRow(keys.index(key))

    def show_tasks(self, task_ids: list[str]) -> None:
        self.show_page("tasks")
        self.tasks_page.show_only(task_ids)

    # -- status bar -----------------------------------------------------------

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        self.address_button = QPushButton()
        self.address_button.setFlat(True)
        self.address_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.address_button.setToolTip(self.tr("Click to copy the service address"))
        self.address_button.setAccessibleName(self.tr("Service address (copy)"))
        self.address_button.clicked.connect(self.copy_address)
        self.counts_label = QLabel()
        self.counts_label.setAccessibleName(self.tr("Running and queued tasks"))
        self.data_dir_label = QLabel(str(self.bridge.service.layout.root))
        self.data_dir_label.setAccessibleName(self.tr("Data folder"))
        bar.addPermanentWidget(self.address_button)
        bar.addPermanentWidget(self.counts_label)
        bar.addPermanentWidget(self.data_dir_label)
        self._count_timer = QTimer(self)
        self._count_timer.setSingleShot(True)
        self._count_timer.setInterval(COUNT_REFRESH_MS)
        self._count_timer.timeout.connect(self.refresh_counts)
        self.refresh_address()
        self.set_counts(0, 0)

    def refresh_address(self) -> None:
        self.address_button.setText(service_address(self.bridge))

    def copy_address(self) -> None:
        QGuiApplication.clipboard().setText(self.address_button.text())
        self.show_message(self.tr("Address copied to the clipboard."))

    def refresh_counts(self) -> None:
        if not self.bridge.running:
            return
        service = self.bridge.service
        self.bridge.call(
            lambda: service.list_tasks(statuses=("running", "queued"), limit=COUNT_LIMIT),
            self._on_counts,
            lambda _error: None,
            context=self,
        )

    def _on_counts(self, page: tuple[list[TaskRecord], bool]) -> None:
        records, _more = page
        running = sum(1 for task in records if task.status.value == "running")
        self.set_counts(running, len(records) - running)

    def set_counts(self, running: int, queued: int) -> None:
        self.counts_label.setText(
            self.tr("{running} running · {queued} queued").format(running=running, queued=queued)
        )

    def show_message(self, text: str) -> None:
        self.statusBar().showMessage(text, 6000)

    # -- menu -----------------------------------------------------------------

    def _build_menu(self) -> None:
        menu = self.menuBar().addMenu(self.tr("&File"))
        settings = QAction(self.tr("&Settings…"), self)
        settings.setShortcut(QKeySequence.StandardKey.Preferences)
        settings.triggered.connect(self.open_settings)
        menu.addAction(settings)
        menu.addSeparator()
        self.quit_action = QAction(self.tr("&Quit"), self)
        self.quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        menu.addAction(self.quit_action)
        view = self.menuBar().addMenu(self.tr("&View"))
        for number, key in enumerate(self.pages, start=1):
            action = QAction(self.sidebar.item(number - 1).text(), self)
            action.setShortcut(QKeySequence(f"Ctrl+{number}"))
            action.triggered.connect(lambda _checked=False, k=key: self.show_page(k))
            view.addAction(action)
        help_menu = self.menuBar().addMenu(self.tr("&Help"))
        about = QAction(self.tr("&About LMSP Desktop"), self)
        about.triggered.connect(self.open_about)
        help_menu.addAction(about)

    def open_about(self) -> AboutDialog:
        dialog = AboutDialog(data_dir=self.bridge.service.options.data_dir, parent=self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def open_settings(self) -> SettingsDialog:
        dialog = SettingsDialog(self.bridge, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.applied.connect(lambda _values: self.refresh_address())
        dialog.open()
        return dialog

    # -- startup and closing --------------------------------------------------

    def service_started(self) -> None:
        """Load the pages and show the recovery banner once the service is up."""
        self.refresh_address()
        self.banner.show_report(self.bridge.service.recovery_report)
        self.tasks_page.load()
        for page in self.pages.values():
            load = getattr(page, "load", None)
            if callable(load) and page is not self.tasks_page:
                load()
        self.refresh_counts()

    def raise_window(self) -> None:
        self.show()
        self.setWindowState(self.windowState() & ~Qt.WindowState.WindowMinimized)
        self.raise_()
        self.activateWindow()

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.hide_on_close:
            event.ignore()
            self.hide()
            return
        super().closeEvent(event)
