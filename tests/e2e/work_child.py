"""A service that starts one background response or download, then waits to be killed.

Run as ``python -m tests.e2e.work_child response <data dir> <model path> <json spec>``
or ``python -m tests.e2e.work_child download <data dir> <url> <sha256>``. It
prints the task id on its first line. The generation is slowed down between
tokens (the arithmetic is untouched) so that the parent can kill the process
with SIGKILL in the middle of it.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from desktop.lmsp.models.model_tasks import ModelTaskRunner
from desktop.lmsp.requests import ModelDownloadRequest, ResponseRequest
from desktop.lmsp.runtime import (
    GenerationOutcome,
    GenerationSettings,
    GenerationSnapshot,
    LlamaEngine,
    TokenStep,
)
from desktop.lmsp.runtime.engine import StopCheck, TokenCallback
from desktop.lmsp.service import Service, ServiceOptions
from tests.starter_model import register_starter_model

TOKEN_DELAY_S = 0.15
PROMPT = "Write one sentence about rivers."
MAX_OUTPUT_TOKENS = 16


class SlowLlamaEngine(LlamaEngine):
    """A real engine that pauses after handing over each token."""

    def generate(
        self,
        prompt_tokens: Sequence[int],
        settings: GenerationSettings,
        *,
        resume_from: GenerationSnapshot | None = None,
        on_token: TokenCallback | None = None,
        should_stop: StopCheck | None = None,
    ) -> GenerationOutcome:
        def slowly(step: TokenStep) -> None:
            if on_token is not None:
                on_token(step)
            time.sleep(TOKEN_DELAY_S)

        return super().generate(
            prompt_tokens,
            settings,
            resume_from=resume_from,
            on_token=slowly,
            should_stop=should_stop,
        )


def response_request(spec: dict[str, Any]) -> ResponseRequest:
    return ResponseRequest(
        model="gemma-3-270m-q4_k_m",
        input=PROMPT,
        max_output_tokens=MAX_OUTPUT_TOKENS,
        temperature=float(spec["temperature"]),
        top_p=0.95,
        seed=int(spec["seed"]),
        background=True,
        on_restart=str(spec["on_restart"]),
    )


async def main(argv: list[str]) -> None:
    mode, data_dir = argv[0], Path(argv[1])
    service = Service(ServiceOptions(data_dir=data_dir, port=0), llama_engine=SlowLlamaEngine())
    await service.start()
    if mode == "response":
        await register_starter_model(service, Path(argv[2]))
        await service.update_settings({"snapshot_every_tokens": 1})
        created = await service.create_response(
            response_request(json.loads(argv[3])), owner="local"
        )
        print(created["id"], flush=True)
    else:
        ModelTaskRunner.durable_interval_s = 0.1
        task = await service.download_model(
            ModelDownloadRequest(url=argv[2], sha256=argv[3]), owner="local"
        )
        print(task.id, flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
