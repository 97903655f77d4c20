"""What each ``lmsp`` command does, and how its results are printed.

``cli.py`` parses the command line and turns errors into messages and exit
codes; the functions here do the work through ``LmspClient`` and return the
exit code. Output meant for programs (ids, JSON, generated text) goes to
stdout; progress and notices go to stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from .client import LmspClient
from .discovery import resolve_service_url
from .errors import InvalidState, LmspClientError
from .events import Event
from .pairing import PairingCode, default_token_path, load_token, pair, save_token

PAIRABLE_SCOPES = (
    "models:read",
    "models:write",
    "responses:write",
    "responses:read",
    "tasks:read",
    "tasks:write",
)
# What the commands of this tool use: models, run, show/events/cancel of responses, tasks.
DEFAULT_PAIR_SCOPES = ("models:read", "responses:write", "responses:read", "tasks:read")


class NotPaired(LmspClientError):
    """No token: neither ``$LMSP_TOKEN`` nor a token file."""


@dataclass
class CommandContext:
    url: str | None
    data_dir: str | None
    token_file: str | None
    env_token: str | None
    out: TextIO
    err: TextIO

    def token(self) -> str:
        token = self.env_token or load_token(self.token_file)
        if token is None:
            where = self.token_file or default_token_path()
            raise NotPaired(
                f"not paired yet (no token in $LMSP_TOKEN or {where}); run `lmsp pair --name NAME`"
            )
        return token

    def client(self) -> LmspClient:
        return LmspClient.discover(self.token(), url=self.url, data_dir=self.data_dir)

    def say(self, text: str) -> None:
        print(text, file=self.err, flush=True)


Command = Callable[[CommandContext, argparse.Namespace], int]


def cmd_pair(ctx: CommandContext, args: argparse.Namespace) -> int:
    url = resolve_service_url(ctx.url, ctx.data_dir)

    def show_code(request: PairingCode) -> None:
        print(f"Pairing code: {request.code}", file=ctx.out, flush=True)
        ctx.say(
            f"Check that LMSP Desktop shows the same code for “{request.client_name}” and allow "
            f"it (scopes asked: {', '.join(request.scopes)}). Without a window, the owner runs "
            f"`lmsp-desktop pairing approve {request.code}`. Waiting for the answer…"
        )

    paired = pair(url, args.name, list(dict.fromkeys(args.scopes)), on_code=show_code)
    path = save_token(paired.token, ctx.token_file)
    ctx.say(f"Paired as {paired.client_id} with scopes: {', '.join(paired.scopes)}.")
    ctx.say(f"The token is saved in {path} (readable by you only).")
    return 0


def cmd_models(ctx: CommandContext, args: argparse.Namespace) -> int:
    models = ctx.client().list_models()
    if args.json:
        print(json.dumps(models, indent=2), file=ctx.out)
        return 0
    if not models:
        ctx.say("No models yet. Import one in LMSP Desktop.")
        return 0
    rows = [
        (
            str(m.get("name", "")),
            str(m.get("status", "")),
            _size(m.get("size_bytes")),
            str((m.get("metadata") or {}).get("architecture") or ""),
            str(m.get("id", "")),
        )
        for m in models
    ]
    _table(ctx.out, ("NAME", "STATUS", "SIZE", "ARCH", "ID"), rows)
    return 0


def cmd_run(ctx: CommandContext, args: argparse.Namespace) -> int:
    prompt = sys.stdin.read() if args.prompt == "-" else args.prompt
    client = ctx.client()
    options: dict[str, Any] = {
        "instructions": args.instructions,
        "max_output_tokens": args.max_tokens,
        "temperature": args.temperature,
        "top_p": args.top_p,
        "seed": args.seed,
        "on_restart": args.on_restart,
    }
    if args.background:
        response = client.create_response(args.model, prompt, background=True, **options)
        print(response["id"], file=ctx.out, flush=True)
        return 0
    stream = client.stream_response(args.model, prompt, **options)
    printed = ""
    try:
        for event in stream:
            if event.type.endswith(".output_text.delta"):
                piece = str(event.data.get("delta", ""))
                printed += piece
                ctx.out.write(piece)
                ctx.out.flush()
            elif event.type.endswith(".requeued"):
                ctx.say("\n[the service restarted this response from the beginning]")
                printed = ""
    except KeyboardInterrupt:
        if stream.response_id is not None:
            try:
                client.cancel_response(stream.response_id)
                ctx.say(f"\nlmsp: interrupted; cancelled {stream.response_id}")
            except LmspClientError:
                ctx.say(f"\nlmsp: interrupted; {stream.response_id} may still be running")
            return 130
        raise
    finally:
        stream.close()
    if printed and not printed.endswith("\n"):
        ctx.out.write("\n")
        ctx.out.flush()
    if stream.status == "completed":
        return 0
    if stream.status == "failed":
        error = stream.error or {}
        ctx.say(f"lmsp: the response failed: {error.get('message') or error.get('code')}")
    else:
        ctx.say(f"lmsp: the response ended {stream.status}")
    return 1


def cmd_tasks(ctx: CommandContext, args: argparse.Namespace) -> int:
    page = ctx.client().list_tasks(status=args.status, kind=args.kind, limit=args.limit)
    if args.json:
        print(json.dumps(page.data, indent=2), file=ctx.out)
        return 0
    rows = [
        (
            str(task["id"]),
            str(task["kind"]),
            str(task["status"]),
            _progress(task.get("progress")),
            str(task.get("created_at", "")),
        )
        for task in page.data
    ]
    if not rows:
        ctx.say("No tasks.")
        return 0
    _table(ctx.out, ("ID", "KIND", "STATUS", "PROGRESS", "CREATED"), rows)
    if page.has_more:
        ctx.say(f"(more: use --limit above {args.limit})")
    return 0


def cmd_show(ctx: CommandContext, args: argparse.Namespace) -> int:
    client = ctx.client()
    shown = (
        client.get_response(args.id) if args.id.startswith("resp_") else client.get_task(args.id)
    )
    print(json.dumps(shown, indent=2, ensure_ascii=False), file=ctx.out)
    return 0


def cmd_events(ctx: CommandContext, args: argparse.Namespace) -> int:
    client = ctx.client()
    if args.follow:
        for event in client.follow_events(args.id, args.after):
            _print_event(ctx.out, event, as_json=args.json)
        return 0
    after = args.after
    while True:
        events, has_more = client.list_events(args.id, after=after, limit=500)
        for event in events:
            _print_event(ctx.out, event, as_json=args.json)
            after = event.sequence_number
        if not has_more:
            return 0


def cmd_cancel(ctx: CommandContext, args: argparse.Namespace) -> int:
    client = ctx.client()
    try:
        if args.id.startswith("resp_"):
            result = client.cancel_response(args.id)
        else:
            result = client.cancel_task(args.id)
    except InvalidState as exc:
        current = exc.body.get("task") or exc.body.get("response") or {}
        status = current.get("status", "finished")
        ctx.say(f"lmsp: {args.id} is already {status}; nothing to cancel")
        return 1
    print(f"{result['id']} {result['status']}", file=ctx.out)
    return 0


COMMANDS: dict[str, Command] = {
    "pair": cmd_pair,
    "models": cmd_models,
    "run": cmd_run,
    "tasks": cmd_tasks,
    "show": cmd_show,
    "events": cmd_events,
    "cancel": cmd_cancel,
}


# -- formatting ------------------------------------------------------------------


def _print_event(out: TextIO, event: Event, *, as_json: bool) -> None:
    if as_json:
        print(json.dumps(event.to_json(), ensure_ascii=False), file=out, flush=True)
        return
    detail = ""
    if "delta" in event.data:
        detail = json.dumps(event.data["delta"], ensure_ascii=False)
    elif event.data.get("error"):
        error = event.data["error"]
        detail = f"{error.get('code')}: {error.get('message')}"
    elif event.data and "response" not in event.data and "model" not in event.data:
        detail = json.dumps(event.data, ensure_ascii=False)
    print(f"{event.sequence_number:>6}  {event.type:<32} {detail}".rstrip(), file=out, flush=True)


def _table(out: TextIO, header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        cells = (cell.ljust(width) for cell, width in zip(row, widths, strict=True))
        print("  ".join(cells).rstrip(), file=out)


def _size(value: Any) -> str:
    if not isinstance(value, int):
        return ""
    size = float(value)
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1000 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1000
    return ""


def _progress(progress: Any) -> str:
    if not isinstance(progress, dict) or progress.get("total") in (None, 0):
        return ""
    return f"{progress.get('done', 0)}/{progress.get('total')} {progress.get('unit', '')}".strip()
