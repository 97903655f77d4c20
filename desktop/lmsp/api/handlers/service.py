"""``/v1/health``, ``/v1/service`` and ``/openapi.json`` (LMSP §8): no token needed."""

from __future__ import annotations

from aiohttp import web

from desktop import PROTOCOL, __version__
from desktop.lmsp.api.context import OPENAPI, service_of


async def health(request: web.Request) -> web.StreamResponse:
    if service_of(request).state != "running":
        return web.json_response({"status": "starting"}, status=503, headers={"Retry-After": "1"})
    return web.json_response({"status": "ok"})


async def service_info(request: web.Request) -> web.StreamResponse:
    return web.json_response(
        {
            "id": service_of(request).service_id,
            "name": "LMSP Desktop",
            "protocol": PROTOCOL,
            "version": __version__,
            "pairing_url": "/v1/pairing",
        }
    )


async def openapi_document(request: web.Request) -> web.StreamResponse:
    return web.json_response(request.app[OPENAPI])
