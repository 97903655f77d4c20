"""Where LMSP Desktop writes its log: the console and a rotating file in the user log folder.

``configure_logging`` sends every record to standard error and to
``<log dir>/lmsp-desktop.log``, which rotates at 2 MB and keeps five old files
(``lmsp-desktop.log.1`` … ``.5``), so the log never grows past about 12 MB.
The log dir is the one given, else ``$LMSP_LOG_DIR``, else
``platformdirs.user_log_dir("lmsp-desktop")``.

Secrets never reach a log: both handlers pass each record through
``RedactSecrets``, which masks bearer tokens (``lmsp_…``) and ``Authorization``
header values wherever they appear in the formatted message or traceback.
"""

from __future__ import annotations

import logging
import os
import re
import sys
from logging.handlers import RotatingFileHandler
from pathlib import Path

from desktop.lmsp.paths import default_log_dir

LOG_FILE_NAME = "lmsp-desktop.log"
MAX_BYTES = 2 * 1024 * 1024
BACKUP_COUNT = 5
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

_TOKEN = re.compile(r"lmsp_[A-Za-z0-9_-]{8,}")
_AUTHORIZATION = re.compile(r"(?i)(authorization[\"']?\s*[:=]\s*[\"']?)(bearer\s+)?[^\s\"',}]+")
_REDACTED_TOKEN = "lmsp_[redacted]"  # noqa: S105 - the mask, not a secret
# The handlers this module installs, by name, so that a second call replaces them.
_HANDLER_NAMES = ("lmsp-desktop-console", "lmsp-desktop-file")


def redact(text: str) -> str:
    """``text`` with every token and ``Authorization`` value masked."""
    text = _AUTHORIZATION.sub(lambda m: f"{m.group(1)}{m.group(2) or ''}[redacted]", text)
    return _TOKEN.sub(_REDACTED_TOKEN, text)


class RedactSecrets(logging.Filter):
    """Masks secrets in a record before a handler writes it (masking twice changes nothing)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


def resolve_log_dir(log_dir: Path | None = None) -> Path:
    if log_dir is not None:
        return Path(log_dir).expanduser()
    from_env = os.environ.get("LMSP_LOG_DIR")
    if from_env:
        return Path(from_env).expanduser()
    return default_log_dir()


def configure_logging(level: str, log_dir: Path | None) -> Path:
    """Log at ``level`` to standard error and the rotating file; return the file's path.

    If the log folder cannot be created or written, the app still runs and logs
    to standard error only, saying so once.
    """
    root = logging.getLogger()
    for handler in [h for h in root.handlers if h.get_name() in _HANDLER_NAMES]:
        root.removeHandler(handler)
        handler.close()
    root.setLevel(level)
    formatter = logging.Formatter(FORMAT)
    redaction = RedactSecrets()

    console = logging.StreamHandler(sys.stderr)
    console.set_name(_HANDLER_NAMES[0])
    console.setFormatter(formatter)
    console.addFilter(redaction)
    root.addHandler(console)

    log_file = resolve_log_dir(log_dir) / LOG_FILE_NAME
    try:
        log_file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        file_handler = RotatingFileHandler(
            log_file, maxBytes=MAX_BYTES, backupCount=BACKUP_COUNT, encoding="utf-8"
        )
    except OSError as exc:
        root.warning(
            "Cannot write the log file %s (%s); logging to the console only", log_file, exc
        )
        return log_file
    file_handler.set_name(_HANDLER_NAMES[1])
    file_handler.setFormatter(formatter)
    file_handler.addFilter(redaction)
    root.addHandler(file_handler)
    return log_file


def active_log_file() -> Path | None:
    """The file the app is logging to, if ``configure_logging`` set one up."""
    for handler in logging.getLogger().handlers:
        if isinstance(handler, RotatingFileHandler):
            return Path(handler.baseFilename)
    return None
