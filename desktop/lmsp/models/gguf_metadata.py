"""The model metadata the registry shows for a GGUF file (LMSP §3 ``metadata``).

:func:`read_gguf_metadata` reads only the file's header (a few megabytes at
most, never the weights) and turns it into a :class:`GgufMetadata`. A file that
cannot be a usable model raises ``TaskFailure("invalid_model_file", reason)``;
a file that does not exist raises ``TaskFailure("model_missing", ...)``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gguf import GGMLQuantizationType, LlamaFileType

from desktop.lmsp.errors import TaskFailure
from desktop.lmsp.models.gguf_header import (
    GGUF_MAGIC,
    GgufFormatError,
    GgufHeader,
    parse_gguf_header,
)

ARCHITECTURE_KEY = "general.architecture"
NAME_KEY = "general.name"
FILE_TYPE_KEY = "general.file_type"
PARAMETER_COUNT_KEY = "general.parameter_count"
CHAT_TEMPLATE_KEY = "tokenizer.chat_template"
SPLIT_COUNT_KEY = "split.count"
CONTEXT_LENGTH_SUFFIX = ".context_length"

_LLAMA_FILE_TYPE_PREFIXES = ("MOSTLY_", "ALL_")


@dataclass(frozen=True)
class GgufMetadata:
    """What the registry records about a GGUF model file."""

    architecture: str
    name: str | None
    context_length: int | None
    file_type: str | None
    """A quantization label such as ``"Q4_K_M"``; ``None`` when the file does not tell."""
    parameter_count: int | None
    has_chat_template: bool
    tensor_count: int

    def to_json(self) -> dict[str, Any]:
        """The ``metadata`` object of an LMSP model (§3)."""
        return {
            "architecture": self.architecture,
            "context_length": self.context_length,
            "file_type": self.file_type,
            "parameter_count": self.parameter_count,
            "has_chat_template": self.has_chat_template,
        }


def looks_like_gguf(path: str | os.PathLike[str]) -> bool:
    """True when the file at ``path`` starts with the GGUF signature (a cheap first check)."""
    try:
        with Path(path).open("rb") as file:
            return file.read(len(GGUF_MAGIC)) == GGUF_MAGIC
    except OSError:
        return False


def read_gguf_metadata(path: str | os.PathLike[str]) -> GgufMetadata:
    """Reads the metadata of the GGUF file at ``path`` from its header only.

    Raises ``TaskFailure("invalid_model_file", reason)`` when the file is not
    GGUF, is truncated or corrupt, has no architecture, or is one part of a
    split model; ``TaskFailure("model_missing", ...)`` when there is no file.
    """
    file_path = Path(path)
    try:
        header = parse_gguf_header(file_path, kept_strings=(ARCHITECTURE_KEY, NAME_KEY))
    except GgufFormatError as error:
        raise TaskFailure("invalid_model_file", f"{file_path.name}: {error}") from error
    except FileNotFoundError as error:
        raise TaskFailure("model_missing", f"There is no file at {file_path}.") from error
    except IsADirectoryError as error:
        raise TaskFailure(
            "invalid_model_file", f"{file_path} is a folder, not a model file."
        ) from error
    except OSError as error:
        raise TaskFailure(
            "invalid_model_file", f"{file_path} cannot be read: {error.strerror or error}."
        ) from error
    return _metadata_from_header(file_path, header)


def _metadata_from_header(path: Path, header: GgufHeader) -> GgufMetadata:
    values = header.values
    architecture = values.get(ARCHITECTURE_KEY)
    if not isinstance(architecture, str) or not architecture:
        raise TaskFailure(
            "invalid_model_file",
            f"{path.name}: the GGUF header does not name the model's architecture "
            f"({ARCHITECTURE_KEY}).",
        )
    split_count = _integer(values.get(SPLIT_COUNT_KEY))
    if split_count is not None and split_count > 1:
        raise TaskFailure(
            "invalid_model_file",
            f"{path.name} is one part of a model split into {split_count} files. "
            "Merge the parts into one file (llama-gguf-split --merge) and import that file.",
        )
    name = values.get(NAME_KEY)
    return GgufMetadata(
        architecture=architecture,
        name=name if isinstance(name, str) and name.strip() else None,
        context_length=_positive_integer(values.get(architecture + CONTEXT_LENGTH_SUFFIX)),
        file_type=file_type_label(
            _integer(values.get(FILE_TYPE_KEY)), header.elements_by_tensor_type
        ),
        parameter_count=_positive_integer(values.get(PARAMETER_COUNT_KEY)),
        has_chat_template=CHAT_TEMPLATE_KEY in header.keys,
        tensor_count=header.tensor_count,
    )


def file_type_label(
    file_type: int | None, elements_by_tensor_type: dict[int, int] | None = None
) -> str | None:
    """A label like ``"Q4_K_M"`` for a ``general.file_type`` value.

    Without a known ``general.file_type``, the label is the type holding the
    most weights among the matrices (``"Q4_K"``, ``"F16"``...), or ``None``.
    """
    if file_type is not None:
        try:
            member = LlamaFileType(file_type)
        except ValueError:
            member = None
        if member is not None and member is not LlamaFileType.GUESSED:
            name = member.name
            for prefix in _LLAMA_FILE_TYPE_PREFIXES:
                name = name.removeprefix(prefix)
            return name
    if not elements_by_tensor_type:
        return None
    dominant = max(elements_by_tensor_type.items(), key=lambda item: item[1])[0]
    try:
        return GGMLQuantizationType(dominant).name
    except ValueError:
        return None


def _integer(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _positive_integer(value: object) -> int | None:
    number = _integer(value)
    return number if number is not None and number > 0 else None
