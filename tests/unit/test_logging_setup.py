"""The log: console and rotating file, replaced on a second call, and never a secret in it."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from logging.handlers import RotatingFileHandler
from pathlib import Path

import pytest

from desktop.logging_setup import (
    BACKUP_COUNT,
    MAX_BYTES,
    active_log_file,
    configure_logging,
    redact,
)

TOKEN = "lmsp_" + "A1b2C3d4" * 5 + "xyz"


@pytest.fixture(autouse=True)
def restore_root_logger() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    for handler in root.handlers:
        if handler not in handlers:
            handler.close()
    root.handlers[:] = handlers
    root.setLevel(level)


def test_logs_to_a_rotating_file_in_the_given_folder(tmp_path: Path) -> None:
    log_file = configure_logging("INFO", tmp_path / "logs")
    assert log_file == tmp_path / "logs" / "lmsp-desktop.log"
    assert active_log_file() == log_file
    handler = next(h for h in logging.getLogger().handlers if isinstance(h, RotatingFileHandler))
    assert (handler.maxBytes, handler.backupCount) == (MAX_BYTES, BACKUP_COUNT)
    logging.getLogger("desktop.test").info("hello %s", "file")
    handler.flush()
    assert "INFO desktop.test: hello file" in log_file.read_text()


def test_a_second_call_replaces_the_handlers(tmp_path: Path) -> None:
    configure_logging("INFO", tmp_path / "one")
    configure_logging("WARNING", tmp_path / "two")
    files = [h for h in logging.getLogger().handlers if isinstance(h, RotatingFileHandler)]
    assert [Path(h.baseFilename).parent for h in files] == [tmp_path / "two"]
    assert logging.getLogger().level == logging.WARNING


def test_the_environment_chooses_the_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LMSP_LOG_DIR", str(tmp_path / "env"))
    assert configure_logging("INFO", None) == tmp_path / "env" / "lmsp-desktop.log"


def test_an_unwritable_folder_leaves_console_logging(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    configure_logging("INFO", blocker / "logs")
    assert active_log_file() is None
    assert logging.getLogger().handlers


def test_tokens_and_authorization_values_are_masked(tmp_path: Path) -> None:
    assert TOKEN not in redact(f"token {TOKEN} used")
    assert redact("Authorization: Bearer abc.def") == "Authorization: Bearer [redacted]"
    assert "s3cret" not in redact("{'authorization': 's3cret'}")
    log_file = configure_logging("INFO", tmp_path)
    log = logging.getLogger("desktop.test")
    log.info("client sent %s", TOKEN)
    try:
        raise ValueError(f"bad header Authorization: Bearer {TOKEN}")
    except ValueError:
        log.exception("request failed")
    for handler in logging.getLogger().handlers:
        handler.flush()
    text = log_file.read_text()
    assert TOKEN not in text
    assert text.count("lmsp_[redacted]") == 1
    assert "Bearer [redacted]" in text
