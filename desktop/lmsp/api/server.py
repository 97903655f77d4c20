"""The HTTP listener inside the service's event loop, and the files that announce it.

``ApiServer.start`` builds the app, binds it with ``AppRunner``/``TCPSite``
(port 0 picks a free port), then writes the discovery file
``<data dir>/service.json`` atomically (LMSP §1). ``stop`` closes open event
streams, stops accepting requests and deletes the discovery file. aiohttp's
access log is off: the error-mapping middleware logs its own line, which
never includes a header or a token.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING

from aiohttp import web

from desktop import PROTOCOL
from desktop.lmsp.api.app import build_app
from desktop.lmsp.api.context import STREAMS
from desktop.lmsp.clock import now_text
from desktop.lmsp.errors import PortInUse, StartupError

if TYPE_CHECKING:
    from desktop.lmsp.service import Service

log = logging.getLogger(__name__)
SHUTDOWN_TIMEOUT_S = 2.0


def url_for(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    if host in ("0.0.0.0", "::"):  # noqa: S104 - only naming the wildcard, not binding it
        shown = "127.0.0.1"
    return f"http://{shown}:{port}"


def write_json_atomically(path: Path, value: object) -> None:
    temporary = path.with_name(path.name + ".tmp")
    with temporary.open("w", encoding="utf-8") as handle:
        json.dump(value, handle, indent=2)
        handle.flush()
        os.fsync(handle.fileno())
    temporary.replace(path)


class ApiServer:
    def __init__(self, service: Service, *, keepalive_s: float | None = None) -> None:
        self._service = service
        self._keepalive_s = keepalive_s
        self._runner: web.AppRunner | None = None
        self.host = ""
        self.port = 0

    @property
    def url(self) -> str:
        return url_for(self.host, self.port)

    async def start(self, host: str, port: int) -> None:
        if self._keepalive_s is None:
            app = build_app(self._service)
        else:
            app = build_app(self._service, keepalive_s=self._keepalive_s)
        runner = web.AppRunner(
            app, access_log=None, handle_signals=False, shutdown_timeout=SHUTDOWN_TIMEOUT_S
        )
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        try:
            await site.start()
        except OSError as exc:
            await runner.cleanup()
            if exc.errno in (errno.EADDRINUSE, errno.EACCES):
                raise PortInUse(
                    f"Port {port} on {host} is already in use (or not allowed). Stop the other "
                    "program, or choose another port in the settings or with --port."
                ) from exc
            raise StartupError(f"Cannot listen on {host}:{port}: {exc.strerror}") from exc
        self._runner = runner
        self.host = host
        self.port = int(runner.addresses[0][1])
        write_json_atomically(
            self._service.layout.discovery_file,
            {
                "url": self.url,
                "pid": os.getpid(),
                "service_id": self._service.service_id,
                "protocol": PROTOCOL,
                "started_at": now_text(),
            },
        )
        log.info("LMSP API listening on %s", self.url)

    async def stop(self) -> None:
        runner, self._runner = self._runner, None
        if runner is None:
            return
        with contextlib.suppress(FileNotFoundError):
            self._service.layout.discovery_file.unlink()
        runner.app[STREAMS].close_all()
        await runner.cleanup()
