"""Reader for the header of a GGUF file: key/value metadata and tensor descriptions.

It reads only the header, never the weights. Arrays (such as the 262,144 tokens
of a vocabulary) are skipped without being materialised, and strings are kept
only for the keys the caller asks for. A file that is not GGUF, ends inside
its header, or has an impossible header raises :class:`GgufFormatError` with a
reason a user can act on.

Layout (GGUF version 2 and 3, little-endian): the magic ``b"GGUF"``, a uint32
version, uint64 tensor and key/value counts, the key/value pairs, the tensor
descriptions, then the tensor data, aligned to ``general.alignment`` (32).
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from gguf import GGML_QUANT_SIZES, GGMLQuantizationType

GGUF_MAGIC = b"GGUF"
SUPPORTED_VERSIONS = (2, 3)
DEFAULT_ALIGNMENT = 32
MAX_TENSOR_DIMENSIONS = 4
MAX_KEPT_STRING_BYTES = 64 * 1024
_MAX_ARRAY_NESTING = 8
_READ_SIZE = 1024 * 1024

_U32 = struct.Struct("<I")
_U64 = struct.Struct("<Q")
_STRING_TYPE = 8
_ARRAY_TYPE = 9
_SCALAR_FORMATS: dict[int, struct.Struct] = {
    0: struct.Struct("<B"),
    1: struct.Struct("<b"),
    2: struct.Struct("<H"),
    3: struct.Struct("<h"),
    4: _U32,
    5: struct.Struct("<i"),
    6: struct.Struct("<f"),
    7: struct.Struct("<?"),
    10: _U64,
    11: struct.Struct("<q"),
    12: struct.Struct("<d"),
}
_BOOL_TYPE = 7

GgufValue = int | float | bool | str


class GgufFormatError(ValueError):
    """The file is not a readable GGUF file; the message says why."""


@dataclass(frozen=True)
class GgufHeader:
    """What a GGUF header says, without arrays and without strings nobody asked for."""

    version: int
    keys: frozenset[str]
    """Every key present in the file, whatever its type."""
    values: dict[str, GgufValue]
    """Scalar values, and string values of the requested keys."""
    tensor_count: int
    elements_by_tensor_type: dict[int, int] = field(default_factory=dict)
    """For tensors with two or more dimensions: ggml type id to total element count."""


def parse_gguf_header(path: Path, *, kept_strings: Iterable[str] = ()) -> GgufHeader:
    """Reads the header of the GGUF file at ``path``.

    Raises :class:`GgufFormatError` for a file that is empty, not GGUF, of an
    unsupported version, truncated (in its header or in its tensor data) or
    corrupt. ``OSError`` from opening or reading the file propagates.
    """
    with path.open("rb") as file:
        file.seek(0, 2)
        size = file.tell()
        if size == 0:
            raise GgufFormatError("The file is empty.")
        cursor = _Cursor(file, size)
        return _HeaderParser(cursor, frozenset(kept_strings)).parse()


class _Cursor:
    """Reads little-endian values from a file through a window of buffered bytes."""

    def __init__(self, file: BinaryIO, size: int) -> None:
        self._file = file
        self.size = size
        self.pos = 0
        self._buffer = bytearray()
        self._base = 0

    def truncated(self) -> GgufFormatError:
        return GgufFormatError(
            f"The file ends at byte {self.size:,}, in the middle of its GGUF header; "
            "it may be an incomplete copy or download."
        )

    def _fill(self, end: int) -> None:
        if end > self.size:
            raise self.truncated()
        buffered_end = self._base + len(self._buffer)
        if end <= buffered_end:
            return
        if self.pos >= buffered_end:
            self._buffer = bytearray()
            self._base = self.pos
        else:
            del self._buffer[: self.pos - self._base]
            self._base = self.pos
        buffered_end = self._base + len(self._buffer)
        self._file.seek(buffered_end)
        self._buffer += self._file.read(max(end - buffered_end, _READ_SIZE))
        if self._base + len(self._buffer) < end:
            raise self.truncated()  # The file shrank while it was read.

    def unpack(self, layout: struct.Struct) -> GgufValue:
        self._fill(self.pos + layout.size)
        value: GgufValue = layout.unpack_from(self._buffer, self.pos - self._base)[0]
        self.pos += layout.size
        return value

    def u32(self) -> int:
        self._fill(self.pos + 4)
        value: int = _U32.unpack_from(self._buffer, self.pos - self._base)[0]
        self.pos += 4
        return value

    def u64(self) -> int:
        self._fill(self.pos + 8)
        value: int = _U64.unpack_from(self._buffer, self.pos - self._base)[0]
        self.pos += 8
        return value

    def read(self, count: int) -> bytes:
        self._fill(self.pos + count)
        start = self.pos - self._base
        self.pos += count
        return bytes(self._buffer[start : start + count])

    def skip(self, count: int) -> None:
        if self.pos + count > self.size:
            raise self.truncated()
        self.pos += count

    def skip_strings(self, count: int) -> None:
        """Skips ``count`` length-prefixed strings without copying them."""
        while count:
            self._fill(self.pos + 8)
            buffer, base = self._buffer, self._base
            end = base + len(buffer)
            pos = self.pos
            while count and pos + 8 <= end:
                length = _U64.unpack_from(buffer, pos - base)[0]
                if pos + 8 + length > end:
                    self.pos = pos + 8
                    self.skip(length)
                    pos = self.pos
                    count -= 1
                    break
                pos += 8 + length
                count -= 1
            self.pos = pos


class _HeaderParser:
    def __init__(self, cursor: _Cursor, kept_strings: frozenset[str]) -> None:
        self._cursor = cursor
        self._kept_strings = kept_strings
        self._keys: set[str] = set()
        self._values: dict[str, GgufValue] = {}

    def parse(self) -> GgufHeader:
        cursor = self._cursor
        if cursor.size < 4 or cursor.read(4) != GGUF_MAGIC:
            raise GgufFormatError(
                "The file is not a GGUF model: it does not start with the GGUF signature."
            )
        version = self._read_version()
        tensor_count = cursor.u64()
        kv_count = cursor.u64()
        # Each pair takes at least 13 bytes and each tensor description 24 bytes.
        if kv_count * 13 + tensor_count * 24 > cursor.size:
            raise GgufFormatError(
                f"The GGUF header is corrupt: it announces {kv_count:,} metadata entries "
                f"and {tensor_count:,} tensors, more than the file can hold."
            )
        for _ in range(kv_count):
            self._read_key_value()
        elements_by_type = self._read_tensor_infos(tensor_count)
        return GgufHeader(
            version=version,
            keys=frozenset(self._keys),
            values=self._values,
            tensor_count=tensor_count,
            elements_by_tensor_type=elements_by_type,
        )

    def _read_version(self) -> int:
        version = self._cursor.u32()
        if version in SUPPORTED_VERSIONS:
            return version
        if int.from_bytes(version.to_bytes(4, "little"), "big") in (1, *SUPPORTED_VERSIONS):
            raise GgufFormatError("Big-endian GGUF files are not supported on this computer.")
        raise GgufFormatError(
            f"GGUF version {version} is not supported (supported versions: 2 and 3)."
        )

    def _read_string(self) -> str:
        length = self._cursor.u64()
        return self._cursor.read(length).decode("utf-8", errors="replace")

    def _read_key_value(self) -> None:
        cursor = self._cursor
        key = self._read_string()
        value_type = cursor.u32()
        self._keys.add(key)
        layout = _SCALAR_FORMATS.get(value_type)
        if layout is not None:
            value = cursor.unpack(layout)
            self._values[key] = bool(value) if value_type == _BOOL_TYPE else value
        elif value_type == _STRING_TYPE:
            length = cursor.u64()
            if key in self._kept_strings and length <= MAX_KEPT_STRING_BYTES:
                self._values[key] = cursor.read(length).decode("utf-8", errors="replace")
            else:
                cursor.skip(length)
        elif value_type == _ARRAY_TYPE:
            self._skip_array(key, depth=1)
        else:
            raise self._unknown_type(key, value_type)

    def _skip_array(self, key: str, *, depth: int) -> None:
        cursor = self._cursor
        item_type = cursor.u32()
        count = cursor.u64()
        layout = _SCALAR_FORMATS.get(item_type)
        if layout is not None:
            cursor.skip(count * layout.size)
        elif item_type == _STRING_TYPE:
            cursor.skip_strings(count)
        elif item_type == _ARRAY_TYPE and depth < _MAX_ARRAY_NESTING:
            if count * 12 > cursor.size:
                raise cursor.truncated()
            for _ in range(count):
                self._skip_array(key, depth=depth + 1)
        else:
            raise self._unknown_type(key, item_type)

    @staticmethod
    def _unknown_type(key: str, value_type: int) -> GgufFormatError:
        return GgufFormatError(
            f"The GGUF header is corrupt: the entry {key!r} has an unknown value type "
            f"({value_type})."
        )

    def _read_tensor_infos(self, tensor_count: int) -> dict[int, int]:
        cursor = self._cursor
        elements_by_type: dict[int, int] = {}
        data_size_needed: int | None = 0
        for _ in range(tensor_count):
            cursor.skip(cursor.u64())  # name
            dimension_count = cursor.u32()
            if not 1 <= dimension_count <= MAX_TENSOR_DIMENSIONS:
                raise GgufFormatError(
                    f"The GGUF header is corrupt: a tensor has {dimension_count} dimensions."
                )
            elements = 1
            for _ in range(dimension_count):
                elements *= cursor.u64()
            tensor_type = cursor.u32()
            offset = cursor.u64()
            if dimension_count >= 2:
                elements_by_type[tensor_type] = elements_by_type.get(tensor_type, 0) + elements
            tensor_bytes = _tensor_bytes(tensor_type, elements)
            if tensor_bytes is None or data_size_needed is None:
                data_size_needed = None
            else:
                data_size_needed = max(data_size_needed, offset + tensor_bytes)
        if data_size_needed is not None and tensor_count:
            self._check_data_fits(data_size_needed)
        return elements_by_type

    def _check_data_fits(self, data_size_needed: int) -> None:
        alignment = self._values.get("general.alignment", DEFAULT_ALIGNMENT)
        if (
            not isinstance(alignment, int)
            or isinstance(alignment, bool)
            or alignment <= 0
            or alignment & (alignment - 1)
        ):
            raise GgufFormatError(
                f"The GGUF header is corrupt: general.alignment is {alignment!r}, "
                "not a power of two."
            )
        data_start = -(-self._cursor.pos // alignment) * alignment
        needed = data_start + data_size_needed
        if self._cursor.size < needed:
            raise GgufFormatError(
                f"The file is truncated: its tensors need {needed:,} bytes but the file has "
                f"{self._cursor.size:,}; it may be an incomplete copy or download."
            )


def _tensor_bytes(tensor_type: int, elements: int) -> int | None:
    """The bytes a tensor's data takes, or None for a type this reader does not know."""
    try:
        block_size, type_size = GGML_QUANT_SIZES[GGMLQuantizationType(tensor_type)]
    except (ValueError, KeyError):
        return None
    return elements // block_size * type_size
