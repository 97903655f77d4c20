"""A local HTTP server that serves one file slowly, with Range support, counting what it sent."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import ThreadingHTTPServer

from tests.unit.lmsp.models.file_server import SEND_PIECE, ServedFile, _Handler

PIECE_DELAY_S = 0.03


class _SlowHandler(_Handler):
    def _send_body(self, body: bytes) -> None:
        for offset in range(0, len(body), SEND_PIECE):
            piece = body[offset : offset + SEND_PIECE]
            self.wfile.write(piece)
            self.wfile.flush()
            with self.served.lock:
                self.served.bytes_sent += len(piece)
            time.sleep(PIECE_DELAY_S)


@contextmanager
def serve_slowly(content: bytes) -> Iterator[ServedFile]:
    """Serves ``content`` at ``/model.gguf`` at about 2 MB/s on a free port of 127.0.0.1."""
    served = ServedFile(content)
    handler = type("SlowHandler", (_SlowHandler,), {"served": served})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    server.block_on_close = False
    served.base_url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    try:
        yield served
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
