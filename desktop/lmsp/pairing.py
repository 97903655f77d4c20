"""Pairing requests (LMSP §2.3): a client asks, the owner approves, the client claims.

Requests live in memory only: a restart forgets them, and the client simply
asks again. At most ``MAX_PENDING`` are pending at once (429 past that); a
pending request expires after ``EXPIRY_S``. The pairing id carries 128 random
bits because whoever knows it can claim the token. The client row and its
token are created when the *first* poll sees the approval (``claim``), so no
clear token is ever held in memory and an unclaimed approval leaves nothing
behind. Finished requests are forgotten ``FORGET_AFTER_S`` later.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from desktop.lmsp.clients import DEFAULT_SCOPES, PAIRABLE_SCOPES, ClientDirectory
from desktop.lmsp.clock import format_time, new_id, utc_now
from desktop.lmsp.errors import InvalidRequest, InvalidState, NotFound, RateLimited, Unavailable
from desktop.lmsp.notifications import NotificationHub, PairingChanged

MAX_PENDING = 5
EXPIRY_S = 120.0
FORGET_AFTER_S = 600.0
POLL_INTERVAL_MS = 1000
MAX_WAIT_S = 30.0


@dataclass
class PairingRequest:
    id: str
    client_name: str
    requested_scopes: tuple[str, ...]
    code: str
    created_at: str
    expires_at: str
    deadline: float  # loop time at which a pending request expires
    status: str = "pending"
    granted_scopes: tuple[str, ...] = ()
    client_id: str | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    def to_api(self) -> dict[str, Any]:
        scopes = self.granted_scopes if self.status in ("approved", "claimed") else ()
        return {
            "id": self.id,
            "object": "pairing",
            "status": self.status,
            "client_name": self.client_name,
            "code": self.code,
            "scopes": list(scopes or self.requested_scopes),
            "created_at": self.created_at,
            "expires_at": self.expires_at,
            "poll_interval_ms": POLL_INTERVAL_MS,
        }


def validate_scopes(scopes: Sequence[str] | None) -> tuple[str, ...]:
    if scopes is None:
        return DEFAULT_SCOPES
    for scope in scopes:
        if scope not in PAIRABLE_SCOPES:
            raise InvalidRequest(f"unknown or ungrantable scope {scope!r}", param="scopes")
    return tuple(dict.fromkeys(scopes))


def new_code() -> str:
    """Six digits for visual comparison, written ``482-913``."""
    number = secrets.randbelow(1_000_000)
    return f"{number // 1000:03d}-{number % 1000:03d}"


class PairingBook:
    """The in-memory pairing requests of one running service."""

    def __init__(self, clients: ClientDirectory, hub: NotificationHub) -> None:
        self._clients = clients
        self._hub = hub
        self._requests: dict[str, PairingRequest] = {}
        self._timers: list[asyncio.TimerHandle] = []
        self._closed = False

    def close(self) -> None:
        """The service is stopping: wake every long poll (they answer 503) and forget all."""
        self._closed = True
        for timer in self._timers:
            timer.cancel()
        self._timers.clear()
        for request in self._requests.values():
            request.changed.set()
        self._requests.clear()

    def create(self, client_name: str, scopes: Sequence[str] | None) -> PairingRequest:
        requested = validate_scopes(scopes)
        pending = [r for r in self._requests.values() if r.status == "pending"]
        if len(pending) >= MAX_PENDING:
            loop = asyncio.get_running_loop()
            wait = min(r.deadline for r in pending) - loop.time()
            raise RateLimited(
                "Too many pending pairing requests; try again later",
                retry_after=max(1, int(wait) + 1),
            )
        loop = asyncio.get_running_loop()
        moment = utc_now()
        request = PairingRequest(
            id=new_id("pair", 128),
            client_name=client_name,
            requested_scopes=requested,
            code=new_code(),
            created_at=format_time(moment),
            expires_at=format_time(moment + timedelta(seconds=EXPIRY_S)),
            deadline=loop.time() + EXPIRY_S,
        )
        self._requests[request.id] = request
        self._timers.append(loop.call_later(EXPIRY_S, self._expire, request.id))
        self._changed(request)
        return request

    def get(self, pairing_id: str) -> PairingRequest:
        request = self._requests.get(pairing_id)
        if request is None:
            raise NotFound(f"pairing request {pairing_id} not found")
        return request

    def pending(self) -> list[dict[str, Any]]:
        return [r.to_api() for r in self._requests.values() if r.status == "pending"]

    def approve(self, pairing_id: str, scopes: Sequence[str] | None = None) -> dict[str, Any]:
        """Approve with ``scopes`` (a subset of those requested; default: all of them)."""
        request = self._pending(pairing_id)
        granted = request.requested_scopes if scopes is None else validate_scopes(scopes)
        extra = set(granted) - set(request.requested_scopes)
        if extra:
            raise InvalidRequest(f"scope {sorted(extra)[0]!r} was not requested", param="scopes")
        request.status = "approved"
        request.granted_scopes = granted
        self._changed(request)
        return request.to_api()

    def deny(self, pairing_id: str) -> dict[str, Any]:
        request = self._pending(pairing_id)
        request.status = "denied"
        self._changed(request)
        return request.to_api()

    def abandon(self, pairing_id: str) -> None:
        """The client gives up (``DELETE /v1/pairing/{id}``): the request is forgotten."""
        request = self.get(pairing_id)
        del self._requests[pairing_id]
        request.status = "abandoned"
        self._hub.publish(PairingChanged(request.to_api()))
        request.changed.set()

    async def poll(self, pairing_id: str, wait_s: float = 0.0) -> dict[str, Any]:
        """The request as the client sees it, long-polling up to ``wait_s`` while pending."""
        request = self.get(pairing_id)
        if request.status == "pending" and wait_s > 0:
            request.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(request.changed.wait(), timeout=min(wait_s, MAX_WAIT_S))
            if self._closed:
                raise Unavailable("The service is stopping", retry_after=1)
            request = self.get(pairing_id)
        if request.status != "approved":
            return request.to_api()
        return await self._claim(request)

    async def _claim(self, request: PairingRequest) -> dict[str, Any]:
        request.status = "claimed"  # set before awaiting: only this poll gets the token
        try:
            client, token = await self._clients.issue(
                request.client_name, list(request.granted_scopes)
            )
        except BaseException:
            request.status = "approved"
            raise
        request.client_id = client.id
        self._changed(request)
        return {**request.to_api(), "token": token, "client_id": client.id}

    def _pending(self, pairing_id: str) -> PairingRequest:
        request = self.get(pairing_id)
        if request.status != "pending":
            raise InvalidState(
                f"pairing request {pairing_id} is {request.status}",
                body_object={"pairing": request.to_api()},
            )
        return request

    def _expire(self, pairing_id: str) -> None:
        request = self._requests.get(pairing_id)
        if request is not None and request.status == "pending":
            request.status = "expired"
            self._changed(request)

    def _changed(self, request: PairingRequest) -> None:
        request.changed.set()
        self._hub.publish(PairingChanged(request.to_api()))
        if request.status != "pending":
            loop = asyncio.get_running_loop()
            self._timers = [t for t in self._timers if t.when() > loop.time()]
            self._timers.append(
                loop.call_later(FORGET_AFTER_S, self._requests.pop, request.id, None)
            )
