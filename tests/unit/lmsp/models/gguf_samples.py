"""Small synthetic GGUF files written with the ``gguf`` package's own writer."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from gguf import GGUFWriter, LlamaFileType

DEFAULT_TOKENS = tuple(f"token-{index}" for index in range(2000))


def write_gguf(
    path: Path,
    *,
    architecture: str = "llama",
    name: str | None = "Tiny Test Model",
    context_length: int | None = 4096,
    file_type: int | None = LlamaFileType.MOSTLY_Q4_K_M,
    chat_template: str | None = "{% for m in messages %}{{ m.content }}{% endfor %}",
    parameter_count: int | None = None,
    tokens: Sequence[str] = DEFAULT_TOKENS,
    tensor_shapes: Sequence[tuple[int, ...]] = ((8, 16), (16,)),
    extra_strings: dict[str, str] | None = None,
    extra_integers: dict[str, int] | None = None,
) -> Path:
    """Writes a valid GGUF file with the given metadata and float32 tensors; returns ``path``."""
    writer = GGUFWriter(path, architecture)
    if name is not None:
        writer.add_name(name)
    if context_length is not None:
        writer.add_context_length(context_length)
    if file_type is not None:
        writer.add_file_type(int(file_type))
    if parameter_count is not None:
        writer.add_uint64("general.parameter_count", parameter_count)
    if tokens:
        writer.add_tokenizer_model("llama")
        writer.add_token_list(list(tokens))
        writer.add_array("tokenizer.ggml.scores", [float(i) for i in range(len(tokens))])
    if chat_template is not None:
        writer.add_chat_template(chat_template)
    for key, value in (extra_strings or {}).items():
        writer.add_string(key, value)
    for key, number in (extra_integers or {}).items():
        writer.add_uint32(key, number)
    for index, shape in enumerate(tensor_shapes):
        writer.add_tensor(f"blk.{index}.weight", np.ones(shape, dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def header_end(path: Path) -> int:
    """The offset where the tensor descriptions end (read with the ``gguf`` package's reader)."""
    from gguf import GGUFReader

    reader = GGUFReader(path)
    return int(reader.data_offset)
