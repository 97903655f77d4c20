"""The ``lmsp-desktop`` command: the window, the headless service, and owner commands.

lmsp-desktop                         open the window (the service runs inside)
lmsp-desktop --headless              run the service without a window
lmsp-desktop --data-dir DIR ...      use another data folder
lmsp-desktop --version
lmsp-desktop pairing list|approve CODE_OR_ID|deny CODE_OR_ID
lmsp-desktop clients list|revoke ID      owner commands for a running service

The log goes to standard error and to a rotating file in the user log folder
(``--log-dir`` or ``$LMSP_LOG_DIR`` to choose another).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from desktop import PROTOCOL, __version__
from desktop.lmsp.errors import StartupError
from desktop.lmsp.paths import resolve_data_dir
from desktop.lmsp.service import Service, ServiceOptions
from desktop.logging_setup import configure_logging
from desktop.owner_cli import OwnerCommandError, add_owner_commands, run_owner_command

log = logging.getLogger("desktop")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="lmsp-desktop",
        description="LMSP Desktop: local language models, shared with your apps (LMSP 1.0).",
    )
    parser.add_argument(
        "--version", action="version", version=f"lmsp-desktop {__version__} ({PROTOCOL})"
    )
    parser.add_argument(
        "--data-dir", help="data folder (default: $LMSP_DATA_DIR or the user data folder)"
    )
    parser.add_argument("--headless", action="store_true", help="run the service without a window")
    parser.add_argument("--port", type=int, help="listening port (0 = any free port)")
    parser.add_argument(
        "--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"]
    )
    parser.add_argument(
        "--log-dir", help="log folder (default: $LMSP_LOG_DIR or the user log folder)"
    )
    add_owner_commands(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command is not None:
        try:
            print(run_owner_command(args, resolve_data_dir(args.data_dir)))
        except OwnerCommandError as exc:
            print(f"lmsp-desktop: {exc}", file=sys.stderr)
            return 1
        return 0
    configure_logging(args.log_level, Path(args.log_dir) if args.log_dir else None)
    options = ServiceOptions(data_dir=resolve_data_dir(args.data_dir), port=args.port)
    if args.headless:
        return run_headless(options)
    from desktop.ui.app import run_app  # imported late: the headless path needs no Qt

    return run_app(options)


def run_headless(options: ServiceOptions) -> int:
    try:
        return asyncio.run(_serve_until_signalled(options))
    except StartupError as exc:
        print(f"lmsp-desktop: {exc.message}", file=sys.stderr)
        return 2


async def _serve_until_signalled(options: ServiceOptions) -> int:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    service = Service(options)
    await service.start()
    try:
        report = service.recovery_report
        print(f"LMSP Desktop {__version__} serving data dir {options.data_dir}", flush=True)
        print(f"Recovery: {report.summary()}", flush=True)
        print(f"Listening on {service.url}", flush=True)
        await stop.wait()
    finally:
        print("Shutting down...", flush=True)
        await service.stop()
    print("Stopped cleanly.", flush=True)
    return 0


def data_dir_argument(value: str | None) -> Path:
    return resolve_data_dir(value)
