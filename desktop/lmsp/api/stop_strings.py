"""Stop strings on a stream of text deltas: end the text where one appears, trimming it.

``StopScanner.feed`` returns only text that can no longer turn into a stop
string, holding back a tail that might be the start of one; ``flush`` hands
that tail out when the generation ends on its own. Once a stop string has
appeared, ``stopped`` is set and everything from it on is dropped.
"""

from __future__ import annotations

from collections.abc import Sequence


class StopScanner:
    def __init__(self, stops: Sequence[str]) -> None:
        self._stops = [stop for stop in stops if stop]
        self._held = ""
        self.stopped = False

    def feed(self, delta: str) -> str:
        """The text that is safe to emit after ``delta``."""
        if self.stopped:
            return ""
        if not self._stops:
            return delta
        text = self._held + delta
        hits = [index for index in (text.find(stop) for stop in self._stops) if index >= 0]
        if hits:
            self.stopped = True
            self._held = ""
            return text[: min(hits)]
        keep = self._partial_stop_length(text)
        self._held = text[len(text) - keep :] if keep else ""
        return text[: len(text) - keep]

    def flush(self) -> str:
        """What was held back, when the text ends without a stop string."""
        held, self._held = self._held, ""
        return "" if self.stopped else held

    def _partial_stop_length(self, text: str) -> int:
        """The longest end of ``text`` that is the beginning of a stop string."""
        longest = 0
        for stop in self._stops:
            for length in range(min(len(stop) - 1, len(text)), longest, -1):
                if text.endswith(stop[:length]):
                    longest = length
                    break
        return longest
