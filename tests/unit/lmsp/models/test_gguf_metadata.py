"""GGUF metadata: synthetic files from the gguf writer, broken files, and the real starter model."""

from __future__ import annotations

import struct
import time
from pathlib import Path

import pytest
from gguf import GGUFReader, LlamaFileType
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from desktop.lmsp.errors import TaskFailure
from desktop.lmsp.models.gguf_metadata import (
    GgufMetadata,
    file_type_label,
    looks_like_gguf,
    read_gguf_metadata,
)
from tests.unit.lmsp.models.gguf_samples import header_end, write_gguf

SHORT_TOKENS = ("a", "bb", "ccc", "dddd")


def test_reads_metadata_written_by_the_gguf_writer(tmp_path: Path) -> None:
    path = write_gguf(
        tmp_path / "tiny.gguf",
        architecture="qwen2",
        name="Tiny Qwen",
        context_length=32768,
        file_type=LlamaFileType.MOSTLY_Q8_0,
        parameter_count=123_456,
    )

    metadata = read_gguf_metadata(path)

    assert metadata == GgufMetadata(
        architecture="qwen2",
        name="Tiny Qwen",
        context_length=32768,
        file_type="Q8_0",
        parameter_count=123_456,
        has_chat_template=True,
        tensor_count=2,
    )
    assert metadata.to_json() == {
        "architecture": "qwen2",
        "context_length": 32768,
        "file_type": "Q8_0",
        "parameter_count": 123_456,
        "has_chat_template": True,
    }
    assert looks_like_gguf(path)


def test_optional_keys_may_be_absent(tmp_path: Path) -> None:
    path = write_gguf(
        tmp_path / "bare.gguf",
        name=None,
        context_length=None,
        file_type=None,
        chat_template=None,
        tokens=(),
    )

    metadata = read_gguf_metadata(path)

    assert metadata.name is None
    assert metadata.context_length is None
    assert metadata.parameter_count is None
    assert metadata.has_chat_template is False
    # Without general.file_type, the label comes from the type of the matrices.
    assert metadata.file_type == "F32"


def test_file_type_labels() -> None:
    assert file_type_label(LlamaFileType.MOSTLY_Q4_K_M) == "Q4_K_M"
    assert file_type_label(LlamaFileType.ALL_F32) == "F32"
    assert file_type_label(LlamaFileType.MOSTLY_BF16) == "BF16"
    assert file_type_label(None) is None
    assert file_type_label(9999) is None
    assert file_type_label(LlamaFileType.GUESSED, {1: 10, 12: 1000}) == "Q4_K"


def test_a_split_model_part_is_refused(tmp_path: Path) -> None:
    path = write_gguf(tmp_path / "model-00001-of-00002.gguf", extra_integers={"split.count": 2})

    with pytest.raises(TaskFailure) as failure:
        read_gguf_metadata(path)

    assert failure.value.code == "invalid_model_file"
    assert "split into 2 files" in failure.value.message


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"", "empty"),
        (b"PK\x03\x04 this is a zip file, not a model" * 10, "not a GGUF model"),
        (b"GGUF", "ends at byte 4"),
        (b"GGUF" + struct.pack("<I", 1) + bytes(32), "version 1 is not supported"),
        (b"GGUF" + struct.pack(">I", 3) + bytes(32), "Big-endian"),
        (
            b"GGUF" + struct.pack("<IQQ", 3, 0, 10**12) + bytes(64),
            "more than the file can hold",
        ),
        (
            b"GGUF"
            + struct.pack("<IQQ", 3, 0, 1)
            + struct.pack("<Q", 3)
            + b"key"
            + struct.pack("<I", 77)
            + bytes(16),
            "unknown value type (77)",
        ),
    ],
)
def test_unreadable_files_are_invalid_model_files(
    tmp_path: Path, content: bytes, reason: str
) -> None:
    path = tmp_path / "broken.gguf"
    path.write_bytes(content)

    with pytest.raises(TaskFailure) as failure:
        read_gguf_metadata(path)

    assert failure.value.code == "invalid_model_file"
    assert reason in failure.value.message


def test_a_file_cut_inside_its_metadata_is_invalid(tmp_path: Path) -> None:
    path = write_gguf(tmp_path / "whole.gguf")
    tokens_offset = GGUFReader(path).fields["tokenizer.ggml.tokens"].offset
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(path.read_bytes()[: tokens_offset + 500])

    with pytest.raises(TaskFailure) as failure:
        read_gguf_metadata(cut)

    assert failure.value.code == "invalid_model_file"
    assert "in the middle of its GGUF header" in failure.value.message
    assert looks_like_gguf(cut)


def test_a_file_cut_inside_its_tensor_data_is_invalid(tmp_path: Path) -> None:
    path = write_gguf(tmp_path / "whole.gguf", tensor_shapes=((64, 64),))
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(path.read_bytes()[:-100])

    with pytest.raises(TaskFailure) as failure:
        read_gguf_metadata(cut)

    assert failure.value.code == "invalid_model_file"
    assert "The file is truncated" in failure.value.message


def test_a_missing_file_or_a_folder_is_reported(tmp_path: Path) -> None:
    with pytest.raises(TaskFailure) as missing:
        read_gguf_metadata(tmp_path / "nothing.gguf")
    with pytest.raises(TaskFailure) as folder:
        read_gguf_metadata(tmp_path)

    assert missing.value.code == "model_missing"
    assert folder.value.code == "invalid_model_file"
    assert not looks_like_gguf(tmp_path / "nothing.gguf")
    assert not looks_like_gguf(tmp_path)


metadata_strategy = st.fixed_dictionaries(
    {
        "architecture": st.text("abcdefghijklmnopqrstuvwxyz0123456789_", min_size=1, max_size=20),
        "name": st.none() | st.text(min_size=1, max_size=40).filter(str.strip),
        "context_length": st.none() | st.integers(1, 2**32 - 1),
        "file_type": st.none() | st.sampled_from(list(LlamaFileType)[:-1]),
        "chat_template": st.none() | st.text(min_size=1, max_size=300),
        "parameter_count": st.none() | st.integers(1, 2**63 - 1),
        "tokens": st.lists(st.text(max_size=12), max_size=50),
    }
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(fields=metadata_strategy)
def test_header_round_trip(tmp_path: Path, fields: dict[str, object]) -> None:
    path = write_gguf(tmp_path / "round-trip.gguf", **fields)  # type: ignore[arg-type]

    metadata = read_gguf_metadata(path)

    file_type = fields["file_type"]
    assert metadata.architecture == fields["architecture"]
    assert metadata.name == fields["name"]
    assert metadata.context_length == fields["context_length"]
    assert metadata.parameter_count == fields["parameter_count"]
    assert metadata.has_chat_template is (fields["chat_template"] is not None)
    assert metadata.tensor_count == 2
    if isinstance(file_type, LlamaFileType):
        assert metadata.file_type == file_type.name.removeprefix("MOSTLY_").removeprefix("ALL_")


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_any_cut_inside_the_header_is_invalid(tmp_path: Path, data: st.DataObject) -> None:
    path = tmp_path / "whole.gguf"
    if not path.exists():
        write_gguf(path, tokens=SHORT_TOKENS)
    content = path.read_bytes()
    cut_at = data.draw(st.integers(0, header_end(path) - 1))
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(content[:cut_at])

    with pytest.raises(TaskFailure) as failure:
        read_gguf_metadata(cut)

    assert failure.value.code == "invalid_model_file"


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(noise=st.binary(min_size=1, max_size=64), position=st.integers(4, 400))
def test_corrupt_headers_fail_cleanly(tmp_path: Path, noise: bytes, position: int) -> None:
    path = tmp_path / "whole.gguf"
    if not path.exists():
        write_gguf(path, tokens=SHORT_TOKENS)
    content = bytearray(path.read_bytes())
    content[position : position + len(noise)] = noise
    corrupt = tmp_path / "corrupt.gguf"
    corrupt.write_bytes(bytes(content))

    try:
        read_gguf_metadata(corrupt)
    except TaskFailure as failure:
        assert failure.code == "invalid_model_file"


@pytest.mark.model
def test_reads_the_starter_model_quickly(starter_model_path: Path) -> None:
    started = time.perf_counter()
    metadata = read_gguf_metadata(starter_model_path)
    elapsed = time.perf_counter() - started

    assert metadata.architecture == "gemma3"
    assert metadata.name == "Gemma 3 270m"
    assert metadata.context_length == 32768
    assert metadata.file_type == "Q4_K_M"
    assert metadata.tensor_count == 236
    # The starter file carries no tokenizer.chat_template entry: the runtime
    # must supply the Gemma chat format itself.
    assert metadata.has_chat_template is False
    assert elapsed < 0.5
