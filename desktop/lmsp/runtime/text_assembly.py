"""Turning token pieces (raw bytes) into text deltas.

A token's piece may end in the middle of a multibyte UTF-8 character. The
``IncrementalTextDecoder`` keeps such pending bytes and releases the character
only when all its bytes have arrived, so a token may yield an empty delta and
a later one the whole character. Invalid bytes become U+FFFD at once.

Bytes still pending when a generation ends are never released: the final
text is exactly the concatenation of the deltas.
"""

from __future__ import annotations

import codecs


class IncrementalTextDecoder:
    """Feeds token pieces in order and returns the text each one completes."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def push(self, piece: bytes) -> str:
        """Add one token's bytes; return the newly complete text (maybe "")."""
        return self._decoder.decode(piece, final=False)

    @property
    def pending_bytes(self) -> bytes:
        """Bytes of a character that has not yet been completed."""
        pending, _flags = self._decoder.getstate()
        return pending
