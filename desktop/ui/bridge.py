"""ServiceBridge: the one link between the Qt main thread and the service loop.

The ``Service`` runs on its own thread with its own asyncio loop. Widgets never
await anything: they hand the bridge a coroutine factory with ``call`` and get
the result (or the error) back on the GUI thread through a queued Qt signal.
Service notifications arrive on the loop thread through a hub listener; the
bridge only re-emits them as Qt signals, and Qt queues them to the GUI thread.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import threading
from collections.abc import AsyncIterator, Callable, Coroutine
from concurrent.futures import Future
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, Qt, Signal, Slot

from desktop.lmsp.errors import LmspError
from desktop.lmsp.notifications import (
    ClientChanged,
    ModelChanged,
    Notification,
    PairingChanged,
    ServiceStateChanged,
    SettingsChanged,
    TaskChanged,
    TaskDeleted,
)
from desktop.lmsp.service import Service

log = logging.getLogger(__name__)

CoroutineFactory = Callable[[], Coroutine[Any, Any, Any]]
ResultCallback = Callable[[Any], None]
ErrorCallback = Callable[[BaseException], None]

STOP_TIMEOUT_S = 15.0


class PendingCall(QObject):
    """One coroutine running on the service loop; settles once, on the GUI thread."""

    succeeded = Signal(object)
    failed = Signal(object)
    _settled = Signal(object, object)

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self.done = False
        self.result: Any = None
        self.error: BaseException | None = None
        self._settled.connect(self._on_settled, Qt.ConnectionType.QueuedConnection)

    def settle_from_loop(self, future: Future[Any]) -> None:
        """Called on the loop thread when the coroutine ends; queues to the GUI thread."""
        if future.cancelled():
            self._settled.emit(None, asyncio.CancelledError())
            return
        error = future.exception()
        self._settled.emit(None if error else future.result(), error)

    @Slot(object, object)
    def _on_settled(self, result: Any, error: BaseException | None) -> None:
        self.done = True
        self.result = result
        self.error = error
        if error is None:
            self.succeeded.emit(result)
        else:
            self.failed.emit(error)
        self.deleteLater()


class EventStream(QObject):
    """Items of an async iterator running on the service loop, delivered on the GUI thread."""

    item = Signal(object)
    finished = Signal(object)  # None, or the error that ended the stream
    _item = Signal(object)
    _finished = Signal(object)

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self.future: Future[None] | None = None
        self._item.connect(self.item, Qt.ConnectionType.QueuedConnection)
        self._finished.connect(self._on_finished, Qt.ConnectionType.QueuedConnection)

    async def pump(self, items: AsyncIterator[Any]) -> None:
        """On the loop thread: forward every item, then the end."""
        try:
            async for value in items:
                self._item.emit(value)
        except asyncio.CancelledError:
            self._finished.emit(None)
            raise
        except Exception as error:
            self._finished.emit(error)
            return
        self._finished.emit(None)

    def cancel(self) -> None:
        if self.future is not None:
            self.future.cancel()

    @Slot(object)
    def _on_finished(self, error: BaseException | None) -> None:
        self.finished.emit(error)
        self.deleteLater()


class ServiceBridge(QObject):
    """Runs ``service`` on a loop thread and speaks to it in Qt signals."""

    notified = Signal(object)
    taskChanged = Signal(object)  # TaskChanged
    taskDeleted = Signal(str)
    modelChanged = Signal(object)  # ModelChanged
    pairingChanged = Signal(object)  # PairingChanged
    clientChanged = Signal(object)  # ClientChanged
    settingsChanged = Signal(dict)
    stateChanged = Signal(str)
    errorOccurred = Signal(str)
    _fromLoop = Signal(object)

    def __init__(self, service: Service, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.service = service
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run_loop, name="lmsp-service", daemon=True)
        self._fromLoop.connect(self._dispatch, Qt.ConnectionType.QueuedConnection)
        self._stopped = False

    # -- lifecycle --------------------------------------------------------

    def start(self) -> PendingCall:
        """Start the loop thread and ``service.start()``; the call settles when it is up."""
        self.service.hub.add_listener(self._on_notification)
        self._thread.start()
        return self.call(self.service.start)

    def shutdown(self) -> None:
        """Stop the service on its loop, then the loop and its thread (idempotent)."""
        if self._stopped:
            return
        self._stopped = True
        self.service.hub.remove_listener(self._on_notification)
        if self._thread.is_alive():
            stopping = asyncio.run_coroutine_threadsafe(self.service.stop(), self._loop)
            try:
                stopping.result(timeout=STOP_TIMEOUT_S)
            except Exception:
                log.exception("the service did not stop cleanly")
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=STOP_TIMEOUT_S)
        if not self._loop.is_running():
            self._loop.close()

    def _run_loop(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_forever()
        finally:
            pending = asyncio.all_tasks(self._loop)
            for task in pending:
                task.cancel()
            if pending:
                self._loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))

    @property
    def running(self) -> bool:
        return self.service.state == "running" and not self._stopped

    # -- calls ------------------------------------------------------------

    def call(
        self,
        factory: CoroutineFactory,
        on_result: ResultCallback | None = None,
        on_error: ErrorCallback | None = None,
        *,
        context: QObject | None = None,
    ) -> PendingCall:
        """Run ``factory()`` on the service loop; callbacks run later on the GUI thread.

        When ``context`` is given and has been deleted by the time the call
        settles, the callbacks are skipped. Without ``on_error``, a known
        service error is reported through ``errorOccurred`` and a bug is logged.
        """
        pending = PendingCall(self)

        def deliver(result: Any) -> None:
            if on_result is not None and _alive(context):
                on_result(result)

        def report(error: BaseException) -> None:
            if not _alive(context):
                return
            if on_error is not None:
                on_error(error)
            else:
                self.report_error(error)

        pending.succeeded.connect(deliver)
        pending.failed.connect(report)
        if self._stopped:
            pending._settled.emit(None, RuntimeError("the service has stopped"))
            return pending
        future = asyncio.run_coroutine_threadsafe(factory(), self._loop)
        future.add_done_callback(pending.settle_from_loop)
        return pending

    def call_service(
        self,
        method: str,
        *args: Any,
        on_result: ResultCallback | None = None,
        on_error: ErrorCallback | None = None,
        context: QObject | None = None,
    ) -> PendingCall:
        """Call ``service.<method>(*args)`` on the loop, awaiting it when it is async."""
        target = getattr(self.service, method)

        async def run() -> Any:
            outcome = target(*args)
            return await outcome if inspect.isawaitable(outcome) else outcome

        return self.call(run, on_result, on_error, context=context)

    def stream(self, factory: Callable[[], AsyncIterator[Any]]) -> EventStream:
        """Iterate ``factory()`` on the service loop; each item arrives as ``EventStream.item``."""
        stream = EventStream(self)
        if not self._stopped:
            stream.future = asyncio.run_coroutine_threadsafe(stream.pump(factory()), self._loop)
        else:
            stream._finished.emit(RuntimeError("the service has stopped"))
        return stream

    def report_error(self, error: BaseException) -> None:
        if isinstance(error, LmspError):
            self.errorOccurred.emit(error.message)
        elif isinstance(error, asyncio.CancelledError):
            return
        else:
            log.error("unexpected error from the service", exc_info=error)
            self.errorOccurred.emit(self.tr("Something went wrong; the details are in the log."))

    def run_on_loop(self, callback: Callable[[], None]) -> None:
        """Run a plain callable on the loop thread (for non-async service calls)."""
        self._loop.call_soon_threadsafe(callback)

    # -- notifications ----------------------------------------------------

    def _on_notification(self, note: Notification) -> None:
        """On the loop thread: hand the notification on, nothing else."""
        self._fromLoop.emit(note)

    @Slot(object)
    def _dispatch(self, note: Notification) -> None:
        self.notified.emit(note)
        if isinstance(note, TaskChanged):
            self.taskChanged.emit(note)
        elif isinstance(note, TaskDeleted):
            self.taskDeleted.emit(note.task_id)
        elif isinstance(note, ModelChanged):
            self.modelChanged.emit(note)
        elif isinstance(note, PairingChanged):
            self.pairingChanged.emit(note)
        elif isinstance(note, ClientChanged):
            self.clientChanged.emit(note)
        elif isinstance(note, SettingsChanged):
            self.settingsChanged.emit(dict(note.values))
        elif isinstance(note, ServiceStateChanged):
            self.stateChanged.emit(note.state)


def _alive(context: QObject | None) -> bool:
    return context is None or shiboken6.isValid(context)
