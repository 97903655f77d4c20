"""Server-Sent Events parsing, as the HTML standard describes it (the LMSP §4.3 wire format).

``SseDecoder.feed`` takes bytes as they arrive — in chunks of any size — and
returns the complete messages: ``id:``, ``event:`` and ``data:`` fields (data
lines joined with newlines), ``retry:``, comment lines starting with ``:``
(the service's ``: keep-alive``) ignored. Lines may end with LF, CRLF or CR.
A message is complete only at its blank line, so a connection cut in the
middle of a message never yields a half message.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class SseMessage:
    event: str
    data: str
    id: str | None  # the id field of this message, if it had one
    retry: int | None = None


class SseDecoder:
    def __init__(self) -> None:
        self._buffer = b""
        self._started = False
        self._data: list[str] = []
        self._event = ""
        self._id: str | None = None
        self._retry: int | None = None
        self.last_event_id = ""
        self.comments = 0

    def feed(self, chunk: bytes) -> list[SseMessage]:
        """The messages completed by ``chunk``."""
        self._buffer += chunk
        if not self._started and len(self._buffer) >= 3:
            self._started = True
            if self._buffer.startswith(b"\xef\xbb\xbf"):
                self._buffer = self._buffer[3:]
        messages: list[SseMessage] = []
        for line in self._take_lines():
            message = self._line(line)
            if message is not None:
                messages.append(message)
        return messages

    def finish(self) -> list[SseMessage]:
        """At the end of the stream: a last CR still ends its line; a partial message is dropped."""
        if self._buffer.endswith(b"\r"):
            return self.feed(b"\n")
        return []

    def _take_lines(self) -> Iterator[str]:
        buffer = self._buffer
        start = 0
        while True:
            cr = buffer.find(b"\r", start)
            lf = buffer.find(b"\n", start)
            if cr == -1 and lf == -1:
                break
            if cr != -1 and (lf == -1 or cr < lf):
                if cr + 1 == len(buffer):
                    break  # a CR at the end may be the first half of CRLF: wait
                end, after = cr, cr + 2 if buffer[cr + 1 : cr + 2] == b"\n" else cr + 1
            else:
                end, after = lf, lf + 1
            yield buffer[start:end].decode("utf-8", "replace")
            start = after
        self._buffer = buffer[start:]

    def _line(self, line: str) -> SseMessage | None:
        if not line:
            return self._dispatch()
        if line.startswith(":"):
            self.comments += 1
            return None
        name, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        elif name == "id":
            if "\0" not in value:
                self._id = value
                self.last_event_id = value
        elif name == "retry" and value.isdigit():
            self._retry = int(value)
        return None

    def _dispatch(self) -> SseMessage | None:
        data, event, message_id, retry = self._data, self._event, self._id, self._retry
        self._data, self._event, self._id, self._retry = [], "", None, None
        if not data:
            return None
        return SseMessage(
            event=event or "message", data="\n".join(data), id=message_id, retry=retry
        )


def parse_sse(chunks: Iterable[bytes]) -> Iterator[SseMessage]:
    """Every complete message in a byte stream (a partial last message is dropped)."""
    decoder = SseDecoder()
    for chunk in chunks:
        yield from decoder.feed(chunk)
    yield from decoder.finish()
