"""SSE parsing: fields, comments, line endings, and messages split across any chunk boundary."""

from __future__ import annotations

from desktop.client import SseDecoder, SseMessage, parse_sse

STREAM = (
    b": keep-alive\n\n"
    b'id: 1\nevent: response.queued\ndata: {"a": 1}\n\n'
    b"id: 2\r\nevent: response.output_text.delta\r\ndata: line one\r\ndata: line two\r\n\r\n"
    b"id: 3\revent: x\rdata:no-space\r\r"
    b"data: only data\n\n"
)
EXPECTED = [
    SseMessage("response.queued", '{"a": 1}', "1"),
    SseMessage("response.output_text.delta", "line one\nline two", "2"),
    SseMessage("x", "no-space", "3"),
    SseMessage("message", "only data", None),
]


def test_whole_stream() -> None:
    assert list(parse_sse([STREAM])) == EXPECTED


def test_every_split_point_gives_the_same_messages() -> None:
    for cut in range(len(STREAM) + 1):
        assert list(parse_sse([STREAM[:cut], STREAM[cut:]])) == EXPECTED, cut


def test_byte_by_byte() -> None:
    assert list(parse_sse(STREAM[i : i + 1] for i in range(len(STREAM)))) == EXPECTED


def test_comments_are_counted_not_returned() -> None:
    decoder = SseDecoder()
    assert decoder.feed(b": keep-alive\n\n: another\n\n") == []
    assert decoder.comments == 2


def test_a_message_cut_before_its_blank_line_is_dropped() -> None:
    assert list(parse_sse([b"id: 1\ndata: complete\n\nid: 2\ndata: half"])) == [
        SseMessage("message", "complete", "1")
    ]


def test_retry_field_bom_and_unknown_fields() -> None:
    messages = list(parse_sse([b"\xef\xbb\xbfretry: 1500\nfoo: bar\ndata: x\n\n"]))
    assert messages == [SseMessage("message", "x", None, retry=1500)]


def test_utf8_split_inside_a_character() -> None:
    raw = "data: café ☕\n\n".encode()
    cut = raw.index("☕".encode()) + 1
    assert [m.data for m in parse_sse([raw[:cut], raw[cut:]])] == ["café ☕"]


def test_last_event_id_survives_messages_without_an_id() -> None:
    decoder = SseDecoder()
    decoder.feed(b"id: 7\ndata: a\n\ndata: b\n\n")
    assert decoder.last_event_id == "7"
