"""``LlamaEngine``: one warm model and the generation loop with exact resume.

The engine keeps at most one model loaded. ``load(path)`` is a no-op for the
path already loaded; for another path it unloads the previous model first (so
a failed load leaves no model loaded). Every method that uses the model takes
the engine's lock, so one generation runs at a time and a model is never
swapped under a running generation. ``generate`` blocks; it is meant to run
in a worker thread.

A generation, and the replay that resumes it, do the same work in the same
order (LMSP §5.3):

1. clear the context memory;
2. evaluate the prompt in the batches ``split_prompt`` gives;
3. for output token *i*: ``should_stop()``? → ``cancelled``; evaluate token
   *i − 1* on its own (from the second token on); choose token *i* with
   ``choose_next_token(..., index=i)``; an end-of-generation token ends with
   ``stop`` and is not part of the output.

A resume records the snapshot's tokens without calling ``on_token``, then
re-evaluates them one at a time exactly as in step 3, so its logits — and with
per-token seeding its draws — match the uninterrupted run bit for bit.
(Re-evaluating the output tokens as one batch would be faster but is not
exact: on the starter model it moves some logits by almost 1.0.)
``should_stop`` is checked before every evaluation, including during the
replay; once it returns true no further token is produced.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from desktop.lmsp.runtime.errors import GenerationError, UnusableSnapshot
from desktop.lmsp.runtime.generation_types import (
    FinishReason,
    GenerationOutcome,
    GenerationProgress,
    GenerationSettings,
    TokenStep,
)
from desktop.lmsp.runtime.llama_model import LoadedModel, split_prompt
from desktop.lmsp.runtime.prompt_format import ChatMessage, render_chat_prompt
from desktop.lmsp.runtime.sampling import choose_next_token
from desktop.lmsp.runtime.snapshot import GenerationSnapshot, prompt_fingerprint
from desktop.lmsp.runtime.text_assembly import IncrementalTextDecoder

TokenCallback = Callable[[TokenStep], None]
StopCheck = Callable[[], bool]


class NoModelLoaded(RuntimeError):
    """``format_prompt`` or ``generate`` was called before ``load``."""


class LlamaEngine:
    """Runs generations on one loaded GGUF model at a time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._model: LoadedModel | None = None

    @property
    def loaded_path(self) -> Path | None:
        model = self._model
        return model.path if model is not None else None

    @property
    def context_tokens(self) -> int | None:
        """The context size of the loaded model, in tokens."""
        model = self._model
        return model.context_tokens if model is not None else None

    def load(self, path: Path) -> None:
        """Make ``path`` the loaded model; raise ``ModelMissing`` / ``ModelLoadError``."""
        with self._lock:
            if self._model is not None and self._model.path == path:
                return
            self._unload_locked()
            self._model = LoadedModel.open(path)

    def unload(self) -> None:
        with self._lock:
            self._unload_locked()

    def format_prompt(self, messages: Sequence[ChatMessage]) -> list[int]:
        """Prompt tokens for a conversation, ending where the assistant's answer starts."""
        with self._lock:
            model = self._require_model()
            text = render_chat_prompt(
                messages,
                chat_template=model.chat_template,
                architecture=model.architecture,
                bos_token=model.token_text(model.bos_token_id),
                eos_token=model.token_text(model.eos_token_id),
            )
            return model.tokenize(text)

    def generate(
        self,
        prompt_tokens: Sequence[int],
        settings: GenerationSettings,
        *,
        resume_from: GenerationSnapshot | None = None,
        on_token: TokenCallback | None = None,
        should_stop: StopCheck | None = None,
    ) -> GenerationOutcome:
        """Generate after ``prompt_tokens``, or continue ``resume_from`` exactly.

        Raises ``UnusableSnapshot`` if ``resume_from`` does not continue this
        prompt, and ``GenerationError`` if llama.cpp fails or the prompt does
        not fit the context.
        """
        with self._lock:
            model = self._require_model()
            run = _GenerationRun(
                model,
                list(prompt_tokens),
                settings,
                on_token=on_token or _ignore_step,
                should_stop=should_stop or _never_stop,
            )
            return run.execute(resume_from)

    def _require_model(self) -> LoadedModel:
        if self._model is None:
            raise NoModelLoaded("No model is loaded.")
        return self._model

    def _unload_locked(self) -> None:
        model, self._model = self._model, None
        if model is not None:
            model.close()


class _GenerationRun:
    """The state of one ``generate`` call."""

    def __init__(
        self,
        model: LoadedModel,
        prompt_tokens: list[int],
        settings: GenerationSettings,
        *,
        on_token: TokenCallback,
        should_stop: StopCheck,
    ) -> None:
        self._model = model
        self._prompt = prompt_tokens
        self._settings = settings
        self._on_token = on_token
        self._should_stop = should_stop
        self._progress = GenerationProgress(len(prompt_tokens), prompt_fingerprint(prompt_tokens))
        self._decoder = IncrementalTextDecoder()
        self._resumed = 0

    def execute(self, resume_from: GenerationSnapshot | None) -> GenerationOutcome:
        if not self._prompt:
            raise GenerationError("The prompt is empty.")
        if len(self._prompt) >= self._model.context_tokens:
            raise GenerationError(
                f"The prompt has {len(self._prompt)} tokens; the context holds "
                f"{self._model.context_tokens}."
            )
        if resume_from is not None:
            self._restore(resume_from)
        self._model.clear_memory()
        logits: npt.NDArray[np.float32] | None = None
        for batch in split_prompt(self._prompt):
            if self._should_stop():
                return self._finish("cancelled")
            logits = self._model.evaluate(batch)
        assert logits is not None
        for token_id in self._progress.token_ids():
            finish = self._finish_reason_before_evaluating()
            if finish is not None:
                return self._finish(finish)
            logits = self._model.evaluate([token_id])
        if self._should_stop():
            return self._finish("cancelled")
        return self._continue(logits)

    def _restore(self, snapshot: GenerationSnapshot) -> None:
        """Record the snapshot's output (no ``on_token``) and check its text."""
        snapshot.check_continues(self._prompt)
        for token_id in snapshot.token_ids:
            if not 0 <= token_id < self._model.vocabulary_size:
                raise UnusableSnapshot(f"Token id {token_id} is not in the model's vocabulary.")
            self._progress.record(token_id, self._decoder.push(self._model.token_piece(token_id)))
        if self._progress.text() != snapshot.text:
            raise UnusableSnapshot("The snapshot's text does not match its tokens.")
        self._resumed = len(snapshot.token_ids)

    def _continue(self, logits: npt.NDArray[np.float32]) -> GenerationOutcome:
        """Choose tokens until a finish; ``logits`` follow the last evaluated token."""
        settings = self._settings
        while True:
            index = self._progress.output_token_count
            token_id = choose_next_token(
                logits,
                temperature=settings.temperature,
                top_p=settings.top_p,
                seed=settings.seed,
                index=index,
            )
            if self._model.is_end_of_generation(token_id):
                return self._finish("stop")
            delta = self._decoder.push(self._model.token_piece(token_id))
            self._progress.record(token_id, delta)
            self._on_token(TokenStep(token_id, index, delta, self._progress))
            finish = self._finish_reason_before_evaluating()
            if finish is not None:
                return self._finish(finish)
            logits = self._model.evaluate([token_id])

    def _finish_reason_before_evaluating(self) -> FinishReason | None:
        """Checked once the latest output token is known, before it is evaluated."""
        produced = self._progress.output_token_count
        if produced >= self._settings.max_output_tokens:
            return "length"
        if len(self._prompt) + produced > self._model.context_tokens:
            return "length"
        if self._should_stop():
            return "cancelled"
        return None

    def _finish(self, reason: FinishReason) -> GenerationOutcome:
        progress = self._progress
        return GenerationOutcome(
            finish_reason=reason,
            text=progress.text(),
            token_ids=progress.token_ids(),
            prompt_token_count=progress.prompt_token_count,
            resumed_token_count=self._resumed,
            snapshot=progress.snapshot(),
        )


def _ignore_step(step: TokenStep) -> None:
    del step


def _never_stop() -> bool:
    return False
