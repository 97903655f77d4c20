"""ResponseRunner: runs one ``response`` task from ``queued`` (or resumed) to its end.

The flow (LMSP §4.2, §5.3):

1. ``queued`` → ``loading`` (``{"model": id}``); the model is loaded in a worker
   thread into the one warm ``LlamaEngine`` (a no-op when it is already loaded);
2. ``loading`` → ``running`` (``{"attempt": n}``);
3. the generation runs in a worker thread and hands each token to the loop
   with ``call_soon_threadsafe``; the loop commits output in batches of
   ``settings.snapshot_every_tokens`` tokens or ``settings.snapshot_interval_ms``
   milliseconds, whichever comes first. A batch is ONE ``append_output`` call:
   its delta event, the snapshot after its last token, the progress, and the
   response row's ``output_text`` — so the snapshot always matches the last
   delta written;
4. ``completed`` with the response object, the row's usage and completion
   time in the same transaction; or ``failed`` (``model_missing``,
   ``model_load_failed``, ``generation_failed``); or ``cancelled`` once the
   cancel flag stopped the generation (within one token).

A task that recovery left ``running`` resumes from its snapshot and produces
exactly the output of an uninterrupted run. A snapshot that cannot be used
restarts the generation from scratch, announced by a ``response.requeued``
event (reason ``unusable_snapshot``) so that clients discard the earlier
output. When the service stops, the generation stops too and the task is left
as it is for the next start's recovery.

Generations share one model, so they take turns through ``_model_turn``: a
task waits in ``loading`` until the previous generation has ended.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from desktop.lmsp.clock import now_text
from desktop.lmsp.errors import InvalidState, LmspError, TaskFailure
from desktop.lmsp.runtime import (
    ChatMessage,
    GenerationOutcome,
    GenerationSettings,
    GenerationSnapshot,
    LlamaEngine,
    TokenStep,
    UnusableSnapshot,
)
from desktop.lmsp.store import idempotency as idempotency_sql
from desktop.lmsp.store import models as model_sql
from desktop.lmsp.store import responses as response_sql
from desktop.lmsp.store.database import Database, WriteTransaction
from desktop.lmsp.store.responses import ResponseRecord
from desktop.lmsp.store.tasks import NewEvent, TaskRecord
from desktop.lmsp.tasks.engine import TaskEngine
from desktop.lmsp.tasks.responses import response_object
from desktop.lmsp.tasks.states import TaskStatus

log = logging.getLogger(__name__)

DELTA_EVENT = "response.output_text.delta"
RESTART_FROM_SCRATCH = "restart"
GENERATION_DONE = "done"


def chat_messages(params: dict[str, Any]) -> list[ChatMessage]:
    """The conversation of a response request: instructions first, then the input."""
    messages: list[ChatMessage] = []
    if params.get("instructions"):
        messages.append(ChatMessage("system", str(params["instructions"])))
    given = params.get("input")
    if isinstance(given, str):
        messages.append(ChatMessage("user", given))
    elif isinstance(given, list):
        messages.extend(ChatMessage(str(m["role"]), str(m["content"])) for m in given)
    return messages


class ResponseRunner:
    def __init__(
        self,
        db: Database,
        engine: TaskEngine,
        llama: LlamaEngine,
        settings: Callable[[], dict[str, Any]],
        shutting_down: threading.Event,
    ) -> None:
        self._db = db
        self._engine = engine
        self._llama = llama
        self._settings = settings
        self._shutting_down = shutting_down
        self._model_turn = asyncio.Lock()

    async def run(self, task: TaskRecord) -> None:
        cancel_flag = self._engine.cancel_flag(task.id)
        resumed = task.status is TaskStatus.RUNNING
        if not resumed:
            started = await self._engine.start(
                task.id, TaskStatus.LOADING, {"model": task.model_id}
            )
            if started is None:
                return
            task = started
        model = await model_sql.find_model(self._db, task.model_id or "")
        row = await response_sql.fetch_response(self._db, task.id)
        if model is None or row is None:
            await self._engine.fail(task.id, "model_missing", "The model of this response is gone.")
            return
        async with self._model_turn:
            if cancel_flag.is_set():
                await self._end_cancelled(task.id)
                return
            try:
                await asyncio.to_thread(self._llama.load, Path(model.path))
            except TaskFailure as failure:
                await self._engine.fail(task.id, failure.code, failure.message)
                return
            if not resumed:
                running = await self._engine.mark_running(task.id, task.attempt)
                if running is None:
                    await self._end_cancelled(task.id)
                    return
                task = running
            generation = _Generation(self, task, row, cancel_flag, resumed=resumed)
            await generation.run()

    async def _end_cancelled(self, task_id: str) -> None:
        with contextlib.suppress(InvalidState):  # already ended
            await self._engine.stop_cancelled(task_id)


class _Generation:
    """One generation attempt of a response task, and its output batches."""

    def __init__(
        self,
        runner: ResponseRunner,
        task: TaskRecord,
        row: ResponseRecord,
        cancel_flag: threading.Event,
        *,
        resumed: bool,
    ) -> None:
        self._runner = runner
        self._resumed = resumed
        self._engine = runner._engine
        self._task = task
        self._row = row
        self._cancel_flag = cancel_flag
        self._abort = threading.Event()
        self._queue: asyncio.Queue[TokenStep | str] = asyncio.Queue()
        self._pending: list[TokenStep] = []
        self._prompt_tokens = 0
        params = task.params
        self._settings = GenerationSettings(
            max_output_tokens=int(params["max_output_tokens"]),
            temperature=float(params["temperature"]),
            top_p=float(params["top_p"]),
            seed=int(params["seed"]),
        )

    def _should_stop(self) -> bool:
        return (
            self._cancel_flag.is_set()
            or self._abort.is_set()
            or self._runner._shutting_down.is_set()
        )

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        # Only a task that recovery resumed continues its snapshot; a retried
        # task keeps its old snapshot in the row but starts over.
        snapshot = self._task.snapshot if self._resumed else None

        def hand_over(item: TokenStep | str) -> None:
            loop.call_soon_threadsafe(self._queue.put_nowait, item)

        worker = asyncio.ensure_future(asyncio.to_thread(self._generate, snapshot, hand_over))
        try:
            await self._commit_batches(loop)
        except BaseException:
            self._abort.set()
            await asyncio.wait([worker])
            raise
        try:
            outcome = await worker
        except TaskFailure as failure:
            await self._engine.fail(self._task.id, failure.code, failure.message)
            return
        except LmspError as error:
            await self._engine.fail(self._task.id, "generation_failed", error.message)
            return
        await self._conclude(outcome)

    def _generate(
        self, snapshot: dict[str, Any] | None, hand_over: Callable[[TokenStep | str], None]
    ) -> GenerationOutcome:
        """Worker thread: the prompt, then the generation (resumed when possible)."""
        llama = self._runner._llama
        try:
            prompt = llama.format_prompt(chat_messages(self._task.params))
            self._prompt_tokens = len(prompt)
            resume_from: GenerationSnapshot | None = None
            if snapshot is not None:
                try:
                    resume_from = GenerationSnapshot.from_json(snapshot.get("generation", {}))
                    return llama.generate(
                        prompt,
                        self._settings,
                        resume_from=resume_from,
                        on_token=hand_over,
                        should_stop=self._should_stop,
                    )
                except UnusableSnapshot as reason:
                    log.warning(
                        "task %s: snapshot unusable (%s); restarting", self._task.id, reason
                    )
                    hand_over(RESTART_FROM_SCRATCH)
            return llama.generate(
                prompt, self._settings, on_token=hand_over, should_stop=self._should_stop
            )
        finally:
            hand_over(GENERATION_DONE)

    async def _commit_batches(self, loop: asyncio.AbstractEventLoop) -> None:
        settings = self._runner._settings()
        every_tokens = int(settings["snapshot_every_tokens"])
        interval_s = int(settings["snapshot_interval_ms"]) / 1000.0
        deadline = 0.0
        while True:
            timeout = max(0.0, deadline - loop.time()) if self._pending else None
            try:
                async with asyncio.timeout(timeout):
                    item = await self._queue.get()
            except TimeoutError:
                await self._flush()
                continue
            if item == GENERATION_DONE:
                await self._flush()
                return
            if item == RESTART_FROM_SCRATCH:
                await self._restart_from_scratch()
                continue
            assert isinstance(item, TokenStep)
            if not self._pending:
                deadline = loop.time() + interval_s
            self._pending.append(item)
            if len(self._pending) >= every_tokens:
                await self._flush()

    async def _flush(self) -> None:
        """Commit the pending tokens as one batch (delta, snapshot, progress, output)."""
        if not self._pending:
            return
        steps, self._pending = self._pending, []
        last = steps[-1]
        snapshot = last.snapshot()
        count = last.output_token_count
        event = NewEvent(
            DELTA_EVENT,
            {"delta": "".join(step.text_delta for step in steps), "output_tokens": count},
        )
        task_id = self._task.id

        async def store_output(tx: WriteTransaction, task: TaskRecord) -> None:
            await response_sql.update_output_in(tx, task_id, snapshot.text)

        await self._engine.append_output(
            task_id,
            [event],
            snapshot={"generation": snapshot.to_json()},
            progress=self._progress(count),
            in_transaction=store_output,
        )

    async def _restart_from_scratch(self) -> None:
        task_id = self._task.id

        async def clear_output(tx: WriteTransaction, task: TaskRecord) -> None:
            await response_sql.update_output_in(tx, task_id, "")

        event = NewEvent(
            "response.requeued", {"reason": "unusable_snapshot", "attempt": self._task.attempt}
        )
        await self._engine.append_output(
            task_id, [event], snapshot=None, progress=self._progress(0), in_transaction=clear_output
        )

    def _progress(self, done: int) -> dict[str, Any]:
        return {"done": done, "total": self._settings.max_output_tokens, "unit": "tokens"}

    async def _conclude(self, outcome: GenerationOutcome) -> None:
        task_id = self._task.id
        if outcome.finish_reason == "cancelled" and not self._cancel_flag.is_set():
            return  # the service is stopping: recovery decides at the next start
        # ``finish`` ends a cancelled task ``cancelled``, keeping its output and usage.
        count = outcome.output_token_count
        usage = {
            "input_tokens": self._prompt_tokens,
            "output_tokens": count,
            "total_tokens": self._prompt_tokens + count,
        }
        completed_at = now_text()
        final_row = replace(
            self._row, output_text=outcome.text, usage=usage, completed_at=completed_at
        )
        idempotency = self._task.params.get("idempotency")

        def completed_data(current: TaskRecord) -> dict[str, Any]:
            final_task = replace(
                current,
                status=TaskStatus.COMPLETED,
                last_sequence_number=current.last_sequence_number + 1,
                progress=self._progress(count),
                updated_at=completed_at,
                finished_at=completed_at,
            )
            return {"response": response_object(final_task, final_row)}

        async def store_result(tx: WriteTransaction, task: TaskRecord) -> None:
            done = task.status is TaskStatus.COMPLETED
            await response_sql.update_output_in(
                tx, task_id, outcome.text, usage=usage, completed_at=completed_at if done else None
            )
            if done and isinstance(idempotency, dict):
                await idempotency_sql.complete_in(
                    tx,
                    owner=str(idempotency["owner"]),
                    key=str(idempotency["key"]),
                    status_code=200,
                    body=response_object(task, final_row),
                )

        await self._engine.finish(
            task_id,
            completed_data=completed_data,
            result={"usage": usage, "finish_reason": outcome.finish_reason},
            progress=self._progress(count),
            in_transaction=store_result,
        )
