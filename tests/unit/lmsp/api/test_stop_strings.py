"""Stop strings applied to a delta stream."""

from __future__ import annotations

import pytest

from desktop.lmsp.api.stop_strings import StopScanner


def run(stops: list[str], deltas: list[str]) -> tuple[str, bool]:
    scanner = StopScanner(stops)
    text = "".join(scanner.feed(delta) for delta in deltas)
    stopped = scanner.stopped
    return text + scanner.flush(), stopped


@pytest.mark.parametrize(
    ("stops", "deltas", "expected"),
    [
        ([], ["a", "b"], ("ab", False)),
        (["END"], ["hello E", "N", "D more"], ("hello ", True)),
        (["END"], ["hello EN", "X"], ("hello ENX", False)),
        (["END"], ["hello EN"], ("hello EN", False)),
        (["\n\n", "User:"], ["one\nUs", "er: two\n\n"], ("one\n", True)),
        (["bc", "abcd"], ["xabcd"], ("x", True)),  # the earliest stop wins
        (["stop"], ["stop right there"], ("", True)),
        ([""], ["kept"], ("kept", False)),
    ],
)
def test_stop_strings(stops: list[str], deltas: list[str], expected: tuple[str, bool]) -> None:
    assert run(stops, deltas) == expected


def test_only_text_that_cannot_start_a_stop_is_released() -> None:
    scanner = StopScanner(["###"])
    assert scanner.feed("title #") == "title "
    assert scanner.feed("#") == ""
    assert scanner.feed(" not a stop") == "## not a stop"
    assert scanner.feed("###tail") == ""
    assert scanner.stopped and scanner.feed("more") == "" and scanner.flush() == ""
