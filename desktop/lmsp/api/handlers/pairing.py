"""Pairing (LMSP §2.3), ``/v1/clients/me``, and the owner's admin endpoints (§2.4)."""

from __future__ import annotations

from aiohttp import web

from desktop.lmsp.api import idempotency
from desktop.lmsp.api.context import KEY_GUARD, principal_of, read_body, read_query, service_of
from desktop.lmsp.api.schemas import (
    ApprovePairingBody,
    CreatePairingBody,
    EmptyBody,
    PairingPollQuery,
)
from desktop.lmsp.clients import ADMIN, LOCAL_OWNER

# Pairing requests come without a token; their idempotency keys share this scope.
ANONYMOUS_KEY_OWNER = "anonymous"


async def create_pairing(request: web.Request) -> web.StreamResponse:
    body, raw = await read_body(request, CreatePairingBody)
    key = idempotency.key_for(request, ANONYMOUS_KEY_OWNER, raw)
    async with request.app[KEY_GUARD].hold(key):
        replayed = await idempotency.replay(request, key)
        if replayed is not None:
            return replayed
        pairing = service_of(request).pairing.create(body.client_name, body.scopes)
        answer = pairing.to_api()
        await idempotency.record(request, key, 202, answer)
    return web.json_response(answer, status=202)


async def poll_pairing(request: web.Request) -> web.StreamResponse:
    query = read_query(request, PairingPollQuery)
    pairing_id = request.match_info["id"]
    return web.json_response(await service_of(request).pairing.poll(pairing_id, query.wait))


async def abandon_pairing(request: web.Request) -> web.StreamResponse:
    service_of(request).pairing.abandon(request.match_info["id"])
    return web.Response(status=204)


async def list_pairings(request: web.Request) -> web.StreamResponse:
    return web.json_response({"object": "list", "data": service_of(request).list_pairings()})


async def approve_pairing(request: web.Request) -> web.StreamResponse:
    body, _ = await read_body(request, ApprovePairingBody)
    service = service_of(request)
    scopes = None if body.scopes is None else [str(scope) for scope in body.scopes]
    return web.json_response(await service.approve_pairing(request.match_info["id"], scopes))


async def deny_pairing(request: web.Request) -> web.StreamResponse:
    await read_body(request, EmptyBody)
    return web.json_response(await service_of(request).deny_pairing(request.match_info["id"]))


async def client_me(request: web.Request) -> web.StreamResponse:
    principal = principal_of(request)
    service = service_of(request)
    if principal.client_id is None:
        return web.json_response(
            {
                "id": LOCAL_OWNER,
                "name": "Owner",
                "scopes": [ADMIN],
                "created_at": service.started_at,
                "last_used_at": None,
            }
        )
    client = await service.clients.get(principal.client_id)
    return web.json_response(client.to_api())


async def list_clients(request: web.Request) -> web.StreamResponse:
    return web.json_response({"object": "list", "data": await service_of(request).list_clients()})


async def revoke_client(request: web.Request) -> web.StreamResponse:
    await service_of(request).revoke_client(request.match_info["id"])
    return web.Response(status=204)
