"""Where LMSP Desktop keeps its files (LMSP §5.1).

The data dir is ``--data-dir``, else ``$LMSP_DATA_DIR``, else
``platformdirs.user_data_dir("lmsp-desktop")``. It holds the database, the
model store, the discovery file, the owner token and the instance lock.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs

APP_NAME = "lmsp-desktop"


def resolve_data_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    if explicit:
        return Path(explicit).expanduser().resolve()
    from_env = os.environ.get("LMSP_DATA_DIR")
    if from_env:
        return Path(from_env).expanduser().resolve()
    return Path(platformdirs.user_data_dir(APP_NAME))


def default_log_dir() -> Path:
    return Path(platformdirs.user_log_dir(APP_NAME))


@dataclass(frozen=True)
class DataDirLayout:
    """The named files inside one data dir."""

    root: Path

    @property
    def database(self) -> Path:
        return self.root / "lmsp.sqlite3"

    @property
    def models(self) -> Path:
        return self.root / "models"

    @property
    def downloads(self) -> Path:
        return self.root / "models" / ".downloads"

    @property
    def discovery_file(self) -> Path:
        return self.root / "service.json"

    @property
    def owner_token(self) -> Path:
        return self.root / "owner.token"

    @property
    def lock_file(self) -> Path:
        return self.root / "lmsp.lock"
