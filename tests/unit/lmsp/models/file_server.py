"""A real HTTP server on 127.0.0.1 that serves one file, with or without Range support."""

from __future__ import annotations

import contextlib
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SEND_PIECE = 64 * 1024


@dataclass
class ServedFile:
    """What the server serves and what it counted."""

    content: bytes
    honour_range: bool = True
    bytes_sent: int = 0
    range_headers: list[str | None] = field(default_factory=list)
    release_stalled: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    base_url: str = ""

    def url(self, path: str = "/model.gguf") -> str:
        return self.base_url + path


class _Handler(BaseHTTPRequestHandler):
    served: ServedFile

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        served = self.served
        routes: dict[str, Callable[[], None]] = {
            "/model.gguf": self._send_model,
            "/missing.gguf": self._send_not_found,
            "/page.html": self._send_page,
            "/short.gguf": self._send_short,
            "/stall.gguf": self._send_stall,
            "/moved.gguf": lambda: self._redirect("/model.gguf"),
            "/moved-to-file.gguf": lambda: self._redirect("file:///etc/passwd"),
        }
        with served.lock:
            served.range_headers.append(self.headers.get("Range"))
        route = routes.get(self.path, self._send_not_found)
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            route()  # the client may stop reading at any time

    def _send_model(self) -> None:
        content = self.served.content
        start = 0
        match = re.fullmatch(r"bytes=(\d+)-", self.headers.get("Range") or "")
        if match and self.served.honour_range:
            start = int(match.group(1))
            if start >= len(content):
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{len(content)}")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(content) - 1}/{len(content)}")
        else:
            self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(content) - start))
        self.end_headers()
        self._send_body(content[start:])

    def _send_body(self, body: bytes) -> None:
        for offset in range(0, len(body), SEND_PIECE):
            piece = body[offset : offset + SEND_PIECE]
            self.wfile.write(piece)
            with self.served.lock:
                self.served.bytes_sent += len(piece)

    def _send_not_found(self) -> None:
        self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _send_page(self) -> None:
        body = b"<!DOCTYPE html><html><body>A page about a model</body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _send_short(self) -> None:
        content = self.served.content
        self.send_response(200)
        self.send_header("Content-Length", str(len(content)))
        self.end_headers()
        self._send_body(content[: len(content) // 2])
        self.close_connection = True

    def _send_stall(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", str(len(self.served.content)))
        self.end_headers()
        self._send_body(self.served.content[:SEND_PIECE])
        self.wfile.flush()
        self.served.release_stalled.wait(5)

    def _redirect(self, location: str) -> None:
        self.send_response(302)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()


@contextmanager
def serve_file(content: bytes, *, honour_range: bool = True) -> Iterator[ServedFile]:
    """Serves ``content`` at ``/model.gguf`` on a free port of 127.0.0.1."""
    served = ServedFile(content, honour_range)
    handler = type("Handler", (_Handler,), {"served": served})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    server.block_on_close = False
    served.base_url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    try:
        yield served
    finally:
        served.release_stalled.set()
        server.shutdown()
        server.server_close()
        thread.join()
