"""How tasks and their events read in the window: summaries, progress, durations.

Plain functions over ``TaskRecord``/``TaskEvent``, with no widgets, so the
table, the timeline and the tests share one wording.
"""

from __future__ import annotations

from datetime import datetime

from desktop.lmsp.clock import parse_time, utc_now
from desktop.lmsp.store.tasks import TaskEvent, TaskRecord

DELTA_PREVIEW_CHARS = 80


def progress_fraction(task: TaskRecord) -> float | None:
    """Done/total in [0, 1], or None when the task reports no measurable progress."""
    progress = task.progress or {}
    done = progress.get("done", progress.get("bytes_done"))
    total = progress.get("total", progress.get("bytes_total"))
    if task.status.value == "completed":
        return 1.0
    if isinstance(done, int | float) and isinstance(total, int | float) and total > 0:
        return max(0.0, min(1.0, done / total))
    return None


def tokens_per_second(task: TaskRecord, running_since: datetime | None = None) -> float | None:
    """Output tokens per second of a response, from its progress and its running time."""
    progress = task.progress or {}
    if progress.get("unit") != "tokens":
        return None
    done = progress.get("done")
    if not isinstance(done, int) or done <= 0:
        return None
    start = running_since or parse_time(task.created_at)
    end = parse_time(task.finished_at) if task.finished_at else parse_time(task.updated_at)
    seconds = (end - start).total_seconds()
    return done / seconds if seconds > 0 else None


def task_duration_seconds(task: TaskRecord) -> float:
    start = parse_time(task.created_at)
    end = parse_time(task.finished_at) if task.finished_at else utc_now()
    return max(0.0, (end - start).total_seconds())


def format_duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, secs = divmod(int(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def format_local_time(text: str, *, with_date: bool = True) -> str:
    moment = parse_time(text).astimezone()
    pattern = "%Y-%m-%d %H:%M:%S" if with_date else "%H:%M:%S.%f"
    shown = moment.strftime(pattern)
    return shown if with_date else shown[:-3]


def relative_seconds(event: TaskEvent, first: TaskEvent) -> float:
    return (parse_time(event.created_at) - parse_time(first.created_at)).total_seconds()


def format_bytes(count: int | float | None) -> str:
    if not isinstance(count, int | float):
        return "—"
    value = float(count)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} GB"  # pragma: no cover - loop always returns


def event_summary(event: TaskEvent) -> str:
    """One readable line for a timeline row (delta text, progress, error, attempt)."""
    data = event.data
    suffix = event.type.rsplit(".", 1)[-1]
    if "delta" in data:
        text = str(data["delta"])
        if len(text) > DELTA_PREVIEW_CHARS:
            text = text[:DELTA_PREVIEW_CHARS] + "…"
        tokens = data.get("output_tokens")
        shown = repr(text)
        return f"{shown}  ({tokens} tokens)" if tokens is not None else shown
    if "bytes_done" in data:
        done, total = data.get("bytes_done"), data.get("bytes_total")
        if isinstance(done, int | float) and isinstance(total, int | float) and total > 0:
            return f"{done / total:.0%} ({format_bytes(done)} of {format_bytes(total)})"
        return f"{format_bytes(done)}"
    error = data.get("error")
    if isinstance(error, dict):
        return f"{error.get('code', 'error')}: {error.get('message', '')}"
    if suffix in ("requeued", "resumed"):
        parts = [f"attempt {data.get('attempt', '?')}"]
        if data.get("reason"):
            parts.append(str(data["reason"]))
        if data.get("from_sequence_number") is not None:
            parts.append(f"from #{data['from_sequence_number']}")
        return ", ".join(parts)
    if suffix == "running" and "attempt" in data:
        return f"attempt {data['attempt']}"
    if suffix == "loading" and "model" in data:
        return f"model {data['model']}"
    if suffix == "completed":
        response = data.get("response")
        if isinstance(response, dict) and isinstance(response.get("usage"), dict):
            return f"{response['usage'].get('output_tokens', '?')} output tokens"
        model = data.get("model")
        if isinstance(model, dict):
            return f"model {model.get('name', model.get('id', ''))}"
    return ""


def output_from_task(task: TaskRecord) -> str:
    """The output text a task already holds (result, else its latest snapshot)."""
    for holder in (task.result, task.snapshot):
        if isinstance(holder, dict):
            for key in ("output_text", "text"):
                value = holder.get(key)
                if isinstance(value, str):
                    return value
    return ""
