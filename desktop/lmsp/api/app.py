"""``build_app``: the aiohttp application, from the route table, middleware and error map.

Everything the app needs is passed in or hung on typed ``AppKey``s; there is
no module-level state, so two services (in tests) never share anything. The
cleanup context hooks the stream registry to the service's notifications (to
close a revoked client's streams) and closes every stream when the listener
stops.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

from aiohttp import web

from desktop.lmsp.api.context import (
    KEEPALIVE_S,
    KEY_GUARD,
    OPENAPI,
    ROUTE_SPECS,
    ROUTE_TABLE,
    SERVICE,
    STREAMS,
)
from desktop.lmsp.api.idempotency import KeyGuard
from desktop.lmsp.api.middleware import MAX_BODY_BYTES, MIDDLEWARES
from desktop.lmsp.api.openai_compat import OPENAI_PREFIX, build_openai_app
from desktop.lmsp.api.openapi import build_document
from desktop.lmsp.api.routes import ROUTES, Route
from desktop.lmsp.api.sse import StreamRegistry

if TYPE_CHECKING:
    from desktop.lmsp.service import Service

KEEPALIVE_INTERVAL_S = 15.0


def build_app(
    service: Service,
    *,
    routes: tuple[Route, ...] = ROUTES,
    keepalive_s: float = KEEPALIVE_INTERVAL_S,
) -> web.Application:
    app = web.Application(middlewares=MIDDLEWARES, client_max_size=MAX_BODY_BYTES)
    app[SERVICE] = service
    app[STREAMS] = StreamRegistry()
    app[KEEPALIVE_S] = keepalive_s
    app[KEY_GUARD] = KeyGuard()
    app[ROUTE_TABLE] = routes
    app[OPENAPI] = build_document(routes)
    specs = {}
    for route in routes:
        registered = app.router.add_route(route.method, route.path, route.handler)
        specs[registered] = route
    app[ROUTE_SPECS] = specs
    app.add_subapp(OPENAI_PREFIX, build_openai_app(app))  # LMSP §10
    app.cleanup_ctx.append(_stream_lifetime)
    return app


async def _stream_lifetime(app: web.Application) -> AsyncIterator[None]:
    streams = app[STREAMS]
    hub = app[SERVICE].hub
    hub.add_listener(streams.on_notification)
    yield
    hub.remove_listener(streams.on_notification)
    streams.close_all()
