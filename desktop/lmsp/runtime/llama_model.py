"""One GGUF model opened in llama.cpp, with its context.

``LoadedModel`` owns the native model and context and offers only what
generation needs: tokenizing, token pieces, end-of-generation detection,
clearing the context memory, and evaluating tokens into next-token logits.
It neither samples nor keeps generation state.

Evaluation goes through llama.cpp's C API (``llama_decode`` with a
``llama_batch_get_one`` batch); llama-cpp-python's ``Llama`` object is used to
load the file and own the native resources. ``split_prompt`` always cuts a
prompt into the same batches, and output tokens are evaluated one per batch,
so a replay performs the same arithmetic as the run it replays.
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from desktop.lmsp.runtime.errors import GenerationError, ModelLoadError, ModelMissing

GGUF_MAGIC = b"GGUF"
MAX_CONTEXT_TOKENS = 4096
PROMPT_BATCH_TOKENS = 512
_PIECE_BUFFER_BYTES = 64


def llama_cpp_version() -> str:
    """The llama-cpp-python version (and llama.cpp's own), for the About dialog."""
    try:
        import llama_cpp
    except (ImportError, OSError) as error:
        return f"unavailable ({error})"
    native: bytes = llama_cpp.llama_version()
    return f"llama-cpp-python {llama_cpp.__version__} (llama.cpp {native.decode()})"


def worker_thread_count() -> int:
    """llama.cpp threads: every core but one, which stays free for the service and the window.

    Generation is bound by the slowest thread; a core shared with the service loop
    (HTTP, SQLite commits, event fan-out) or the window stalls every token.
    """
    return max((os.cpu_count() or 1) - 1, 1)


class LoadedModel:
    """A model file loaded into llama.cpp with a context of ``context_tokens``."""

    def __init__(self, path: Path, llama: Any) -> None:
        import llama_cpp

        self._llama_cpp: Any = llama_cpp
        self._llama = llama
        self.path = path
        self._vocab = llama_cpp.llama_model_get_vocab(llama.model)
        self.context_tokens: int = llama_cpp.llama_n_ctx(llama.ctx)
        self.vocabulary_size: int = llama_cpp.llama_vocab_n_tokens(self._vocab)
        self.metadata: dict[str, str] = dict(llama.metadata)
        self.bos_token_id: int = llama_cpp.llama_vocab_bos(self._vocab)
        self.eos_token_id: int = llama_cpp.llama_vocab_eos(self._vocab)
        self.adds_bos_token: bool = bool(llama_cpp.llama_vocab_get_add_bos(self._vocab))

    @classmethod
    def open(cls, path: Path) -> LoadedModel:
        """Load ``path``; raise ``ModelMissing`` or ``ModelLoadError`` if it cannot be used."""
        _check_gguf_file(path)
        try:
            import llama_cpp
        except (ImportError, OSError) as error:
            raise ModelLoadError(f"llama.cpp is not available: {error}") from error
        llama = _open_llama(llama_cpp, path, MAX_CONTEXT_TOKENS)
        trained = int(llama_cpp.llama_model_n_ctx_train(llama.model))
        if 0 < trained < MAX_CONTEXT_TOKENS:
            llama.close()
            llama = _open_llama(llama_cpp, path, trained)
        return cls(path, llama)

    def close(self) -> None:
        """Free the native model and context. The object is unusable afterwards."""
        self._llama.close()

    @property
    def architecture(self) -> str:
        return self.metadata.get("general.architecture", "")

    @property
    def chat_template(self) -> str | None:
        """The Jinja2 chat template stored in the GGUF file, if any."""
        return self.metadata.get("tokenizer.chat_template") or None

    def token_text(self, token_id: int) -> str:
        """The vocabulary entry of a token (e.g. ``<bos>``), for chat templates."""
        if token_id < 0:
            return ""
        text: bytes = self._llama_cpp.llama_vocab_get_text(self._vocab, token_id)
        return text.decode("utf-8", errors="replace")

    def tokenize(self, text: str) -> list[int]:
        """Tokens of ``text``, special-token markers parsed, a BOS first if the model wants one."""
        tokens: list[int] = self._llama.tokenize(text.encode("utf-8"), add_bos=False, special=True)
        if self.adds_bos_token and self.bos_token_id >= 0 and tokens[:1] != [self.bos_token_id]:
            tokens.insert(0, self.bos_token_id)
        return tokens

    def token_piece(self, token_id: int) -> bytes:
        """The bytes a token stands for in output text; control tokens give b""."""
        size = _PIECE_BUFFER_BYTES
        while True:
            buffer = ctypes.create_string_buffer(size)
            written: int = self._llama_cpp.llama_token_to_piece(
                self._vocab, token_id, buffer, size, 0, False
            )
            if written >= 0:
                return buffer.raw[:written]
            size = -written

    def is_end_of_generation(self, token_id: int) -> bool:
        return bool(self._llama_cpp.llama_vocab_is_eog(self._vocab, token_id))

    def clear_memory(self) -> None:
        """Forget every evaluated token: the next evaluation starts at position 0."""
        memory = self._llama_cpp.llama_get_memory(self._llama.ctx)
        if memory is not None:
            self._llama_cpp.llama_memory_clear(memory, True)

    def evaluate(self, tokens: Sequence[int]) -> npt.NDArray[np.float32]:
        """Decode ``tokens`` as one batch after those already evaluated.

        Returns the logits that follow the last of them. A batch holds at most
        ``PROMPT_BATCH_TOKENS`` tokens; see ``split_prompt``.
        """
        if not 0 < len(tokens) <= PROMPT_BATCH_TOKENS:
            raise ValueError(f"A batch holds 1 to {PROMPT_BATCH_TOKENS} tokens, not {len(tokens)}.")
        llama_cpp = self._llama_cpp
        count = len(tokens)
        token_array = (llama_cpp.llama_token * count)(*tokens)
        batch = llama_cpp.llama_batch_get_one(token_array, count)
        status = int(llama_cpp.llama_decode(self._llama.ctx, batch))
        if status != 0:
            raise GenerationError(f"llama.cpp could not evaluate {count} token(s) (code {status}).")
        pointer = llama_cpp.llama_get_logits_ith(self._llama.ctx, -1)
        if not pointer:
            raise GenerationError("llama.cpp returned no logits.")
        row = np.ctypeslib.as_array(pointer, shape=(self.vocabulary_size,))
        return np.array(row, dtype=np.float32, copy=True)


def split_prompt(tokens: Sequence[int]) -> list[Sequence[int]]:
    """The batches a prompt is evaluated in: always the same for the same prompt."""
    return [
        tokens[start : start + PROMPT_BATCH_TOKENS]
        for start in range(0, len(tokens), PROMPT_BATCH_TOKENS)
    ]


def _check_gguf_file(path: Path) -> None:
    if not path.exists():
        raise ModelMissing(path)
    if not path.is_file():
        raise ModelLoadError(f"{path} is not a file.")
    try:
        with path.open("rb") as handle:
            magic = handle.read(len(GGUF_MAGIC))
    except OSError as error:
        raise ModelLoadError(f"The model file {path} cannot be read: {error.strerror}") from error
    if magic != GGUF_MAGIC:
        raise ModelLoadError(f"{path} is not a GGUF model file.")


def _open_llama(llama_cpp: Any, path: Path, context_tokens: int) -> Any:
    threads = worker_thread_count()
    try:
        return llama_cpp.Llama(
            model_path=str(path),
            n_ctx=context_tokens,
            n_batch=PROMPT_BATCH_TOKENS,
            n_ubatch=PROMPT_BATCH_TOKENS,
            n_threads=threads,
            n_threads_batch=threads,
            verbose=False,
        )
    except (ValueError, RuntimeError, OSError) as error:
        raise ModelLoadError(
            f"llama.cpp could not load {path}: the file is damaged or its model type "
            "is not supported."
        ) from error
