"""Finding the service: the data dir, its ``service.json`` discovery file, or a given URL.

The data dir is resolved the way the service resolves it (LMSP §5.1): an
explicit folder, else ``$LMSP_DATA_DIR``, else the user data folder of
``lmsp-desktop`` (``platformdirs`` when it is installed, the same folders
written out otherwise). The discovery file names the service's URL; a file
left behind by a process that no longer exists counts as "not running".
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import LmspClientError, ServiceNotRunning

DATA_DIR_APP_NAME = "lmsp-desktop"
DISCOVERY_FILE = "service.json"
PROTOCOL = "lmsp/1.0"


def _user_data_dir_fallback(app_name: str) -> Path:
    """``platformdirs.user_data_dir(app_name)`` for when platformdirs is not installed."""
    home = Path.home()
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(home / "AppData" / "Local")
        return Path(base) / app_name / app_name
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / app_name
    base = os.environ.get("XDG_DATA_HOME", "").strip() or str(home / ".local" / "share")
    return Path(base) / app_name


def default_data_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The service's data dir: ``explicit``, else ``$LMSP_DATA_DIR``, else the user data dir."""
    if explicit:
        return Path(explicit).expanduser().resolve()
    from_env = os.environ.get("LMSP_DATA_DIR")
    if from_env:
        return Path(from_env).expanduser().resolve()
    try:
        import platformdirs
    except ImportError:
        return _user_data_dir_fallback(DATA_DIR_APP_NAME)
    return Path(platformdirs.user_data_dir(DATA_DIR_APP_NAME))


@dataclass(frozen=True)
class ServiceLocation:
    """What the discovery file says about the running service."""

    url: str
    pid: int | None
    service_id: str
    protocol: str
    started_at: str
    data_dir: Path


def _process_exists(pid: int) -> bool:
    if sys.platform == "win32":
        return True  # no cheap check without extra packages; trust the file
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def read_discovery_file(data_dir: str | os.PathLike[str] | None = None) -> ServiceLocation:
    """The running service named by ``<data dir>/service.json``; ``ServiceNotRunning`` if none."""
    folder = default_data_dir(data_dir)
    path = folder / DISCOVERY_FILE
    try:
        raw: Any = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ServiceNotRunning(
            f"The LMSP service is not running (there is no {DISCOVERY_FILE} in {folder})"
        ) from None
    except (OSError, ValueError) as exc:
        raise ServiceNotRunning(f"Cannot read {path}: {exc}") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("url"), str):
        raise ServiceNotRunning(f"{path} does not name a service URL")
    protocol = str(raw.get("protocol", ""))
    if protocol != PROTOCOL:
        raise LmspClientError(
            f"The service speaks {protocol or 'an unknown protocol'}, not {PROTOCOL}"
        )
    pid = raw.get("pid")
    pid = pid if isinstance(pid, int) else None
    if pid is not None and not _process_exists(pid):
        raise ServiceNotRunning(
            f"The LMSP service is not running ({path} was left by process {pid}, which has ended)"
        )
    return ServiceLocation(
        url=str(raw["url"]).rstrip("/"),
        pid=pid,
        service_id=str(raw.get("service_id", "")),
        protocol=protocol,
        started_at=str(raw.get("started_at", "")),
        data_dir=folder,
    )


def resolve_service_url(
    url: str | None = None, data_dir: str | os.PathLike[str] | None = None
) -> str:
    """``url`` if given (else ``$LMSP_URL``), otherwise the URL in the discovery file."""
    chosen = url or os.environ.get("LMSP_URL")
    if chosen:
        return chosen.rstrip("/")
    return read_discovery_file(data_dir).url
