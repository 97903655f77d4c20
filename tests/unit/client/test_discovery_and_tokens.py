"""Finding the service from its data dir, and keeping the token in a private file."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from desktop.client import (
    LmspClientError,
    ServiceNotRunning,
    default_data_dir,
    load_token,
    read_discovery_file,
    resolve_service_url,
    save_token,
)


def write_discovery(folder: Path, **overrides: object) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    content = {
        "url": "http://127.0.0.1:9999/",
        "pid": os.getpid(),
        "service_id": "s-1",
        "protocol": "lmsp/1.0",
        "started_at": "2026-12-02T08:25:42.123Z",
        **overrides,
    }
    (folder / "service.json").write_text(json.dumps(content))


def test_data_dir_from_argument_then_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LMSP_DATA_DIR", str(tmp_path / "env"))
    assert default_data_dir(tmp_path / "arg") == (tmp_path / "arg").resolve()
    assert default_data_dir() == (tmp_path / "env").resolve()
    monkeypatch.delenv("LMSP_DATA_DIR")
    assert default_data_dir().name == "lmsp-desktop"


def test_the_data_dir_matches_the_service(monkeypatch: pytest.MonkeyPatch) -> None:
    from desktop.lmsp.paths import resolve_data_dir

    monkeypatch.delenv("LMSP_DATA_DIR", raising=False)
    assert default_data_dir() == resolve_data_dir()


def test_discovery_file_is_read(tmp_path: Path) -> None:
    write_discovery(tmp_path)
    found = read_discovery_file(tmp_path)
    assert found.url == "http://127.0.0.1:9999"
    assert found.service_id == "s-1" and found.data_dir == tmp_path.resolve()


def test_missing_or_stale_discovery_file_means_not_running(tmp_path: Path) -> None:
    with pytest.raises(ServiceNotRunning, match=r"no service\.json"):
        read_discovery_file(tmp_path)
    write_discovery(tmp_path, pid=2**22 + 12345)  # above the kernel's pid limit
    with pytest.raises(ServiceNotRunning, match="has ended"):
        read_discovery_file(tmp_path)


def test_another_protocol_is_refused(tmp_path: Path) -> None:
    write_discovery(tmp_path, protocol="lmsp/2.0")
    with pytest.raises(LmspClientError, match=r"lmsp/2\.0"):
        read_discovery_file(tmp_path)


def test_explicit_url_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LMSP_URL", raising=False)
    assert resolve_service_url("http://127.0.0.1:1/", tmp_path) == "http://127.0.0.1:1"
    monkeypatch.setenv("LMSP_URL", "http://127.0.0.1:2")
    assert resolve_service_url(None, tmp_path) == "http://127.0.0.1:2"


def test_token_file_is_private_and_replaced(tmp_path: Path) -> None:
    path = tmp_path / "config" / "lmsp" / "token"
    assert load_token(path) is None
    save_token("lmsp_first", path)
    save_token("lmsp_second", path)
    assert load_token(path) == "lmsp_second"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert [p.name for p in path.parent.iterdir()] == ["token"]
