"""Paired clients and the owner: tokens, scopes, and who a request comes from (LMSP §2).

``ClientDirectory`` turns an ``Authorization: Bearer lmsp_…`` header into a
``Principal``: a paired client with its granted scopes, or the owner (the
holder of ``<data dir>/owner.token``) with the ``admin`` scope. Tokens are
compared by their SHA-256 fingerprint and never kept or logged in clear.
Revocation is read from the database on every request, so it takes effect
at once; ``last_used_at`` is written at most once a minute per client.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import logging
import os
import re
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from desktop.lmsp.clock import new_id, now_text
from desktop.lmsp.errors import LmspError, NotFound, Unauthorized
from desktop.lmsp.notifications import ClientChanged, NotificationHub
from desktop.lmsp.store import clients as client_sql
from desktop.lmsp.store.clients import ClientRecord
from desktop.lmsp.store.database import Database

log = logging.getLogger(__name__)

ADMIN = "admin"
SCOPES: tuple[str, ...] = (
    "models:read",
    "models:write",
    "responses:write",
    "responses:read",
    "tasks:read",
    "tasks:write",
    ADMIN,
)
PAIRABLE_SCOPES: tuple[str, ...] = tuple(s for s in SCOPES if s != ADMIN)
DEFAULT_SCOPES: tuple[str, ...] = ("models:read", "responses:write", "responses:read")

# Tasks created with the owner token belong to the local user, like the window's
# own tasks: no paired client sees them, and the owner sees every task.
LOCAL_OWNER = "local"

TOKEN_PREFIX = "lmsp_"  # noqa: S105 - a prefix, not a secret
TOKEN_PATTERN = re.compile(r"^lmsp_[A-Za-z0-9_-]{43}$")
LAST_USED_INTERVAL_S = 60.0


def new_token() -> str:
    """A fresh token: ``lmsp_`` and 256 random bits in base64url without padding."""
    raw = secrets.token_bytes(32)
    return TOKEN_PREFIX + base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def token_fingerprint(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def write_owner_token(path: Path) -> str:
    """Write a new owner token to ``path`` (mode 0600, replaced atomically); return it."""
    token = new_token()
    temporary = path.with_name(path.name + ".tmp")
    with contextlib.suppress(FileNotFoundError):
        temporary.unlink()
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(token + "\n")
        handle.flush()
        os.fsync(handle.fileno())
    temporary.replace(path)
    return token


@dataclass(frozen=True)
class Principal:
    """Who a request comes from: a paired client, or the owner (``client_id`` None)."""

    client_id: str | None
    scopes: frozenset[str]

    @property
    def is_owner(self) -> bool:
        return self.client_id is None

    def has(self, scope: str) -> bool:
        return ADMIN in self.scopes or scope in self.scopes

    @property
    def visible_owner(self) -> str | None:
        """The ``owner=`` filter for reads: None (everything) for the owner."""
        return self.client_id

    @property
    def task_owner(self) -> str:
        """The owner recorded on tasks and idempotency keys this principal creates."""
        return LOCAL_OWNER if self.client_id is None else self.client_id


OWNER = Principal(None, frozenset({ADMIN}))


class ClientDirectory:
    def __init__(self, db: Database, hub: NotificationHub) -> None:
        self._db = db
        self._hub = hub
        self._owner_fingerprint: str | None = None
        self._last_touched: dict[str, float] = {}

    def set_owner_token(self, token: str) -> None:
        self._owner_fingerprint = token_fingerprint(token)

    async def authenticate(self, authorization: str | None) -> Principal:
        """The principal behind an ``Authorization`` header; 401 if there is none."""
        if not authorization:
            raise Unauthorized("A bearer token is required")
        scheme, _, token = authorization.partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not TOKEN_PATTERN.match(token):
            raise Unauthorized("The token is malformed")
        fingerprint = token_fingerprint(token)
        if self._owner_fingerprint is not None and hmac.compare_digest(
            fingerprint, self._owner_fingerprint
        ):
            return OWNER
        client = await client_sql.find_by_token(self._db, fingerprint)
        if client is None:
            raise Unauthorized("The token is unknown or revoked")
        await self._note_use(client.id)
        return Principal(client.id, frozenset(client.scopes))

    async def _note_use(self, client_id: str) -> None:
        moment = time.monotonic()
        last = self._last_touched.get(client_id)
        if last is not None and moment - last < LAST_USED_INTERVAL_S:
            return
        self._last_touched[client_id] = moment
        try:
            await client_sql.touch(self._db, client_id, now_text())
        except LmspError as exc:  # e.g. a full disk: the request itself may still succeed
            log.warning("Could not record the use of client %s: %s", client_id, exc.message)

    async def issue(self, name: str, scopes: list[str]) -> tuple[ClientRecord, str]:
        """Create a client with a new token; the token is returned once, never stored."""
        token = new_token()
        client = await client_sql.insert_client(
            self._db,
            client_id=new_id("cli"),
            name=name,
            token_sha256=token_fingerprint(token),
            scopes=scopes,
            now=now_text(),
        )
        self._hub.publish(ClientChanged(client.id, revoked=False))
        return client, token

    async def get(self, client_id: str) -> ClientRecord:
        client = await client_sql.fetch_client(self._db, client_id)
        if client is None or client.revoked_at is not None:
            raise NotFound(f"client {client_id} not found")
        return client

    async def list(self) -> list[dict[str, Any]]:
        return [client.to_api() for client in await client_sql.list_active(self._db)]

    async def revoke(self, client_id: str) -> None:
        """Revoke at once; open event streams of the client close on ``ClientChanged``."""
        if not await client_sql.revoke(self._db, client_id, now_text()):
            raise NotFound(f"client {client_id} not found")
        self._last_touched.pop(client_id, None)
        self._hub.publish(ClientChanged(client_id, revoked=True))
