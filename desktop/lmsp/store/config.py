"""The ``service_config`` table: service identity and the settings of LMSP §9."""

from __future__ import annotations

import uuid
from typing import Any

from desktop.lmsp import settings as settings_table
from desktop.lmsp.store import jsoncol
from desktop.lmsp.store.database import Database

SETTING_PREFIX = "setting."


async def load_or_create_service_id(db: Database) -> str:
    row = await db.fetch_one("SELECT value FROM service_config WHERE key = 'service_id'")
    if row is not None:
        return str(jsoncol.load(row["value"]))
    service_id = str(uuid.uuid4())
    async with db.write() as tx:
        await tx.execute(
            "INSERT OR IGNORE INTO service_config (key, value) VALUES ('service_id', ?)",
            (jsoncol.dump(service_id),),
        )
    row = await db.fetch_one("SELECT value FROM service_config WHERE key = 'service_id'")
    assert row is not None
    return str(jsoncol.load(row["value"]))


async def load_settings(db: Database) -> dict[str, Any]:
    """Stored settings over the defaults; a stored value that no longer validates is ignored."""
    values = settings_table.default_settings()
    rows = await db.fetch_all(
        "SELECT key, value FROM service_config WHERE key LIKE ?", (SETTING_PREFIX + "%",)
    )
    for row in rows:
        key = row["key"][len(SETTING_PREFIX) :]
        spec = settings_table.SETTINGS_BY_KEY.get(key)
        if spec is None:
            continue
        try:
            values[key] = spec.validate(jsoncol.load(row["value"]))
        except Exception:  # noqa: S112 - keep the default for a value we cannot read
            continue
    return values


async def save_settings(db: Database, changes: dict[str, Any]) -> None:
    async with db.write() as tx:
        await tx.executemany(
            "INSERT INTO service_config (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            [(SETTING_PREFIX + key, jsoncol.dump(value)) for key, value in changes.items()],
        )
