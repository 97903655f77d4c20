"""Typed failures of the generation runtime.

The runtime raises only these for known, environmental problems; anything else
escaping it is a bug.

* ``ModelLoadError`` (task code ``model_load_failed``): the file exists but
  llama.cpp cannot use it — not GGUF, unreadable, truncated, unsupported.
* ``ModelMissing`` (task code ``model_missing``): the file is gone. It is a
  ``ModelLoadError`` *and* a ``FileNotFoundError``.
* ``GenerationError`` (task code ``generation_failed``): llama.cpp refused to
  evaluate tokens, or the prompt does not fit the context.
* ``UnusableSnapshot``: a stored snapshot cannot continue this generation
  (malformed, another prompt, another sampling scheme). LMSP §5.4 treats such
  a task as ``retry``: start again without ``resume_from``.
* ``PromptFormatError``: the model's chat template rejected the messages
  (for example, roles that do not alternate). It is an ``invalid_request``.

The task failures derive from ``TaskFailure``, so a worker that lets them
propagate ends its task as ``failed`` with the right code and a message meant
for the user.
"""

from __future__ import annotations

from pathlib import Path

from desktop.lmsp.errors import InvalidRequest, TaskFailure


class ModelLoadError(TaskFailure):
    """The model file exists but cannot be loaded."""

    def __init__(self, message: str, *, code: str = "model_load_failed") -> None:
        super().__init__(code, message)

    def __str__(self) -> str:
        return self.message


class ModelMissing(ModelLoadError, FileNotFoundError):
    """The model file does not exist (any more)."""

    def __init__(self, path: Path) -> None:
        super().__init__(f"The model file {path} does not exist.", code="model_missing")
        self.filename = str(path)


class GenerationError(TaskFailure):
    """llama.cpp could not evaluate the tokens of a generation."""

    def __init__(self, message: str) -> None:
        super().__init__("generation_failed", message)

    def __str__(self) -> str:
        return self.message


class UnusableSnapshot(ValueError):
    """A snapshot that cannot continue the requested generation."""


class PromptFormatError(InvalidRequest):
    """The chat template refused the messages."""
