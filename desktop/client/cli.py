"""The ``lmsp`` command: pair with LMSP Desktop and use its models from a terminal.

    lmsp pair --name NAME [--scopes SCOPE ...]   pair, show the code, save the token
    lmsp models                                  the models you can use
    lmsp run MODEL PROMPT [options]              generate, streaming the text as it comes
    lmsp tasks                                   your tasks, newest first
    lmsp show ID                                 one response or task, as JSON
    lmsp events ID [--follow]                    a task's events (following them live)
    lmsp cancel ID                               cancel a response or task

The service is found with ``--url``, ``$LMSP_URL``, or the ``service.json`` of
the data dir (``--data-dir``, ``$LMSP_DATA_DIR``, the default folder). The
token comes from ``$LMSP_TOKEN`` or the token file (``--token-file``, default
``<user config dir>/lmsp/token``, mode 0600). Exit codes are listed in
``EXIT_CODES``; errors are one clear line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from .cli_commands import (
    COMMANDS,
    DEFAULT_PAIR_SCOPES,
    PAIRABLE_SCOPES,
    CommandContext,
    NotPaired,
)
from .errors import (
    ApiError,
    ConnectionFailed,
    InsufficientScope,
    LmspClientError,
    PairingFailed,
    ServiceNotRunning,
    Unauthorized,
)

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_NOT_RUNNING = 3
EXIT_NOT_AUTHORIZED = 4
EXIT_PAIRING_REFUSED = 5
EXIT_INTERRUPTED = 130

EXIT_CODES = {
    EXIT_OK: "success",
    EXIT_FAILED: "the service refused the request, or the response failed or was cancelled",
    EXIT_USAGE: "wrong command line",
    EXIT_NOT_RUNNING: "the service is not running or cannot be reached",
    EXIT_NOT_AUTHORIZED: "not paired, token revoked or unknown, or a scope is missing",
    EXIT_PAIRING_REFUSED: "pairing was denied or expired",
    EXIT_INTERRUPTED: "interrupted (Ctrl-C)",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="lmsp",
        description="Use the models of LMSP Desktop from the command line (LMSP 1.0).",
        epilog="exit codes: "
        + "; ".join(f"{code} {meaning}" for code, meaning in EXIT_CODES.items()),
    )
    parser.add_argument("--url", help="service URL (default: $LMSP_URL or the discovery file)")
    parser.add_argument("--data-dir", help="the service's data folder, to find service.json")
    parser.add_argument("--token-file", help="where the token is kept (default: user config)")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    pair = commands.add_parser("pair", help="pair with the service and save the token")
    pair.add_argument("--name", required=True, help="the name the owner sees, e.g. 'My laptop'")
    pair.add_argument(
        "--scopes",
        nargs="+",
        choices=PAIRABLE_SCOPES,
        default=list(DEFAULT_PAIR_SCOPES),
        metavar="SCOPE",
        help=f"scopes to ask for (default: {' '.join(DEFAULT_PAIR_SCOPES)})",
    )

    models = commands.add_parser("models", help="list the models")
    models.add_argument("--json", action="store_true", help="print the model objects as JSON")

    run = commands.add_parser("run", help="generate a response, streaming its text")
    run.add_argument("model", help="model name or id")
    run.add_argument("prompt", help="the prompt ('-' reads it from stdin)")
    run.add_argument("--background", action="store_true", help="queue it and print its id")
    run.add_argument("--on-restart", choices=["fail", "retry", "resume"])
    run.add_argument("--max-tokens", type=int, help="at most this many tokens")
    run.add_argument("--temperature", type=float)
    run.add_argument("--top-p", type=float)
    run.add_argument("--seed", type=int)
    run.add_argument("--instructions", help="a system prompt")

    tasks = commands.add_parser("tasks", help="list your tasks, newest first")
    tasks.add_argument("--status", help="comma-separated statuses, e.g. queued,running")
    tasks.add_argument("--kind", help="comma-separated kinds, e.g. response")
    tasks.add_argument("--limit", type=int, default=20)
    tasks.add_argument("--json", action="store_true")

    show = commands.add_parser("show", help="show one response or task as JSON")
    show.add_argument("id")

    events = commands.add_parser("events", help="print a task's events")
    events.add_argument("id")
    events.add_argument("--follow", "-f", action="store_true", help="keep following to the end")
    events.add_argument("--after", type=int, default=0, help="start after this sequence number")
    events.add_argument("--json", action="store_true", help="one JSON event per line")

    cancel = commands.add_parser("cancel", help="cancel a response or task")
    cancel.add_argument("id")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    context = CommandContext(
        url=args.url,
        data_dir=args.data_dir,
        token_file=args.token_file,
        env_token=os.environ.get("LMSP_TOKEN") or None,
        out=sys.stdout,
        err=sys.stderr,
    )
    try:
        return COMMANDS[args.command](context, args)
    except KeyboardInterrupt:
        print("\nlmsp: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    except LmspClientError as exc:
        message, code = explain(exc)
        print(f"lmsp: {message}", file=sys.stderr)
        return code


def explain(exc: LmspClientError) -> tuple[str, int]:
    """The one line to show for an error, and the exit code."""
    if isinstance(exc, ServiceNotRunning):
        hint = "Start LMSP Desktop (or `lmsp-desktop --headless`), or pass --url / --data-dir."
        return f"{exc.message}. {hint}", EXIT_NOT_RUNNING
    if isinstance(exc, ConnectionFailed):
        return exc.message, EXIT_NOT_RUNNING
    if isinstance(exc, NotPaired):
        return exc.message, EXIT_NOT_AUTHORIZED
    if isinstance(exc, Unauthorized):
        return "the token was revoked or is unknown; run `lmsp pair` again", EXIT_NOT_AUTHORIZED
    if isinstance(exc, InsufficientScope):
        hint = "run `lmsp pair --scopes ...` again and ask for it"
        return f"{exc.message}; {hint}", EXIT_NOT_AUTHORIZED
    if isinstance(exc, PairingFailed):
        return exc.message, EXIT_PAIRING_REFUSED
    if isinstance(exc, ApiError):
        return f"{exc.message} ({exc.code})", EXIT_FAILED
    return exc.message, EXIT_FAILED


if __name__ == "__main__":
    raise SystemExit(main())
