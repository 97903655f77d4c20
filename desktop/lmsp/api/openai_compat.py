"""The OpenAI-compatible endpoints (LMSP §10), mounted under ``/openai/v1`` as a sub-application.

``build_openai_app`` makes the sub-application that ``build_app`` mounts. It
shares the parent's service, stream registry and idempotency guard, and has
its own boundary middleware so that every answer here — authentication
failures included — is OpenAI-shaped: ``{"error": {"message", "type",
"param", "code"}}``. The parent's host, origin and size checks still run
first. A paired token is the API key (``Authorization: Bearer``), with the
same scopes as the native endpoints. These routes are not in the LMSP OpenAPI
document: OpenAI's own reference describes them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from aiohttp import web

from desktop.lmsp.api import openai_chat, openai_responses
from desktop.lmsp.api.context import (
    KEEPALIVE_S,
    KEY_GUARD,
    PRINCIPAL_KEY,
    SERVICE,
    STREAMS,
    require,
    service_of,
)
from desktop.lmsp.api.middleware import MAX_BODY_BYTES
from desktop.lmsp.api.openai_shapes import error_body, error_response, model_object
from desktop.lmsp.errors import LmspError, NotFound

log = logging.getLogger("desktop.lmsp.api.openai")

OPENAI_PREFIX = "/openai/v1"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass(frozen=True)
class OpenAiRoute:
    method: str
    path: str
    handler: Handler
    scope: str


async def list_models(request: web.Request) -> web.StreamResponse:
    models = await service_of(request).list_models()
    return web.json_response({"object": "list", "data": [model_object(m) for m in models]})


async def get_model(request: web.Request) -> web.StreamResponse:
    return web.json_response(
        model_object(await service_of(request).get_model(request.match_info["id"]))
    )


OPENAI_ROUTES: tuple[OpenAiRoute, ...] = (
    OpenAiRoute("GET", "/models", list_models, "models:read"),
    OpenAiRoute("GET", "/models/{id}", get_model, "models:read"),
    OpenAiRoute("POST", "/chat/completions", openai_chat.chat_completions, "responses:write"),
    OpenAiRoute("POST", "/responses", openai_responses.create_response, "responses:write"),
    OpenAiRoute("GET", "/responses/{id}", openai_responses.retrieve_response, "responses:read"),
    OpenAiRoute(
        "POST", "/responses/{id}/cancel", openai_responses.cancel_response, "responses:write"
    ),
    OpenAiRoute("DELETE", "/responses/{id}", openai_responses.delete_response, "responses:write"),
)

SCOPE_OF: web.AppKey[dict[Handler, str]] = web.AppKey("openai_scope_of")


@web.middleware
async def openai_boundary(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Authenticate with the route's scope; answer every failure in OpenAI's error shape."""
    try:
        route_handler = getattr(request.match_info, "handler", None)
        scope = request.app[SCOPE_OF].get(route_handler) if route_handler else None
        if scope is not None:
            clients = request.app[SERVICE].clients
            principal = await clients.authenticate(request.headers.get("Authorization"))
            request[PRINCIPAL_KEY] = principal
            require(principal, scope)
        return await handler(request)
    except LmspError as exc:
        return error_response(exc)
    except web.HTTPException as exc:
        if exc.status == 404:
            return error_response(NotFound("No such endpoint"))
        code = "method_not_allowed" if exc.status == 405 else "invalid_request"
        return web.json_response(error_body(exc.status, code, exc.reason), status=exc.status)
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("Unexpected error in %s %s", request.method, request.path)
        return web.json_response(
            error_body(500, "internal_error", "The service hit an unexpected error"), status=500
        )


def build_openai_app(parent: web.Application) -> web.Application:
    """The sub-application for ``/openai/v1``, sharing ``parent``'s service and registries."""
    app = web.Application(middlewares=[openai_boundary], client_max_size=MAX_BODY_BYTES)
    app[SERVICE] = parent[SERVICE]
    app[STREAMS] = parent[STREAMS]
    app[KEEPALIVE_S] = parent[KEEPALIVE_S]
    app[KEY_GUARD] = parent[KEY_GUARD]
    app[SCOPE_OF] = {}
    for route in OPENAI_ROUTES:
        app.router.add_route(route.method, route.path, route.handler)
        app[SCOPE_OF][route.handler] = route.scope
    return app
