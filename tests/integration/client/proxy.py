"""A tiny TCP proxy that breaks connections on purpose, to test reconnection and retries.

Each accepted connection takes the next rule from ``plan`` (then ``PASS``):

* ``PASS`` forwards both ways;
* ``CutAfter(n)`` forwards the request, and the first ``n`` bytes of the
  answer, then closes both sides — a stream dropped mid-message;
* ``SWALLOW_ANSWER`` forwards the request, waits until the server has started
  to answer (so it has processed the request), then closes the client's side
  without sending it anything — an answer lost on the way back.
"""

from __future__ import annotations

import contextlib
import select
import socket
import threading
from dataclasses import dataclass


@dataclass(frozen=True)
class CutAfter:
    answer_bytes: int


PASS = "pass"
SWALLOW_ANSWER = "swallow-answer"
Rule = CutAfter | str


class BreakingProxy:
    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.plan: list[Rule] = []
        self.connections = 0
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._accepting = threading.Thread(target=self._accept_loop, daemon=True)
        self._accepting.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def close(self) -> None:
        self._stop.set()
        self._listener.close()
        self._accepting.join(5)
        for thread in self._threads:
            thread.join(5)

    def _accept_loop(self) -> None:
        while not self._stop.is_set():
            readable, _, _ = select.select([self._listener], [], [], 0.05)
            if not readable:
                continue
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            rule = self.plan.pop(0) if self.plan else PASS
            self.connections += 1
            thread = threading.Thread(target=self._serve, args=(client, rule), daemon=True)
            self._threads.append(thread)
            thread.start()

    def _serve(self, client: socket.socket, rule: Rule) -> None:
        upstream = socket.create_connection(self.target)
        sent_back = 0
        try:
            while not self._stop.is_set():
                readable, _, _ = select.select([client, upstream], [], [], 0.05)
                if client in readable:
                    data = client.recv(65536)
                    if not data:
                        return
                    upstream.sendall(data)
                if upstream in readable:
                    data = upstream.recv(65536)
                    if not data:
                        return
                    if rule == SWALLOW_ANSWER:
                        return
                    if isinstance(rule, CutAfter):
                        data = data[: max(0, rule.answer_bytes - sent_back)]
                    client.sendall(data)
                    sent_back += len(data)
                    if isinstance(rule, CutAfter) and sent_back >= rule.answer_bytes:
                        return
        except OSError:
            return
        finally:
            for end in (client, upstream):
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)
                end.close()
