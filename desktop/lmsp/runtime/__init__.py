"""The generation runtime: llama.cpp generation with snapshots and cancellation.

This package is pure: no database, no asyncio, no Qt. The task layer calls it
from a worker thread::

    engine = LlamaEngine()
    engine.load(path)                       # ModelMissing / ModelLoadError
    prompt = engine.format_prompt([ChatMessage("user", "Hello")])
    outcome = engine.generate(
        prompt,
        GenerationSettings(max_output_tokens=256, temperature=0.7, top_p=0.95, seed=42),
        resume_from=None,                   # or a GenerationSnapshot
        on_token=lambda step: ...,          # step.text_delta, step.snapshot()
        should_stop=lambda: cancel_requested,
    )
    outcome.finish_reason                   # "stop" | "length" | "cancelled"

A snapshot taken after any token (``step.snapshot().to_json()``) can be stored
and later passed, through ``GenerationSnapshot.from_json``, as ``resume_from``
to a freshly loaded engine; the final text and tokens then equal those of an
uninterrupted run with the same prompt and settings (LMSP §5.3).

Modules: ``engine`` (the loop and the lock), ``llama_model`` (llama.cpp),
``sampling`` (seeded per-token sampling), ``snapshot``, ``generation_types``,
``prompt_format`` (chat templates), ``text_assembly`` (UTF-8 deltas),
``errors``.
"""

from desktop.lmsp.runtime.engine import LlamaEngine, NoModelLoaded
from desktop.lmsp.runtime.errors import (
    GenerationError,
    ModelLoadError,
    ModelMissing,
    PromptFormatError,
    UnusableSnapshot,
)
from desktop.lmsp.runtime.generation_types import (
    FinishReason,
    GenerationOutcome,
    GenerationSettings,
    TokenStep,
)
from desktop.lmsp.runtime.llama_model import llama_cpp_version
from desktop.lmsp.runtime.prompt_format import ChatMessage
from desktop.lmsp.runtime.snapshot import GenerationSnapshot

__all__ = [
    "ChatMessage",
    "FinishReason",
    "GenerationError",
    "GenerationOutcome",
    "GenerationSettings",
    "GenerationSnapshot",
    "LlamaEngine",
    "ModelLoadError",
    "ModelMissing",
    "NoModelLoaded",
    "PromptFormatError",
    "TokenStep",
    "UnusableSnapshot",
    "llama_cpp_version",
]
