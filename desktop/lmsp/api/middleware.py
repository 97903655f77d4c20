"""The HTTP middleware chain and the error-handler map (LMSP §1.1, §7).

``MIDDLEWARES`` lists, outermost first: error mapping (so every failure below,
including the checks, gets the LMSP error body), then the host check (421),
the origin check (403), the body size limit (413) and authentication
(401/403). The access line logged here names the route template and the
client id, never the raw path (a pairing id is a secret) nor any header.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from aiohttp import web

from desktop.lmsp.api.context import PRINCIPAL_KEY, ROUTE_SPECS, SERVICE, require
from desktop.lmsp.clients import Principal

if TYPE_CHECKING:
    from desktop.lmsp.api.routes import Route
from desktop.lmsp.errors import (
    ForbiddenOrigin,
    InvalidHost,
    LmspError,
    NotFound,
    PayloadTooLarge,
)

log = logging.getLogger("desktop.lmsp.api")
access_log = logging.getLogger("desktop.lmsp.api.access")

MAX_BODY_BYTES = 1024 * 1024
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class MethodNotAllowed(LmspError):
    code = "method_not_allowed"
    http_status = 405


def error_response(exc: LmspError) -> web.Response:
    headers = {}
    if exc.retry_after is not None:
        headers["Retry-After"] = str(exc.retry_after)
    return web.json_response(exc.to_body(), status=exc.http_status, headers=headers)


def _from_http_exception(exc: web.HTTPException) -> web.Response:
    """aiohttp's own 404/405/413 answers, in the LMSP error shape."""
    if isinstance(exc, web.HTTPMethodNotAllowed):
        response = error_response(MethodNotAllowed(f"Method {exc.method} is not allowed here"))
        response.headers["Allow"] = ", ".join(sorted(exc.allowed_methods))
        return response
    if isinstance(exc, web.HTTPRequestEntityTooLarge):
        return error_response(PayloadTooLarge("The body is larger than 1 MiB"))
    if exc.status == 404:
        return error_response(NotFound("No such endpoint"))
    generic = LmspError(exc.reason)
    generic.http_status = exc.status
    generic.code = "invalid_request" if 400 <= exc.status < 500 else "internal_error"
    return error_response(generic)


def _route_of(request: web.Request) -> Route | None:
    return request.app[ROUTE_SPECS].get(request.match_info.route)


@web.middleware
async def map_errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    started = time.monotonic()
    try:
        response = await handler(request)
    except LmspError as exc:
        response = error_response(exc)
    except web.HTTPException as exc:
        response = _from_http_exception(exc)
    except asyncio.CancelledError:
        raise
    except Exception:
        route = _route_of(request)
        log.exception("Unexpected error in %s %s", request.method, route.path if route else "?")
        response = error_response(LmspError("The service hit an unexpected error"))
    _log_access(request, response.status, started)
    return response


def _log_access(request: web.Request, status: int, started: float) -> None:
    route = _route_of(request)
    principal = request.get(PRINCIPAL_KEY)
    who = "-"
    if isinstance(principal, Principal):
        who = principal.client_id or "owner"
    access_log.info(
        "%s %s %d client=%s %.1fms",
        request.method,
        route.path if route else "(unrouted)",
        status,
        who,
        (time.monotonic() - started) * 1000,
    )


def allowed_host_names(port: int, extra: list[str]) -> set[str]:
    names = {f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"}
    for name in extra:
        names.add(name.lower())
        if ":" not in name.rstrip("]"):
            names.add(f"{name.lower()}:{port}")
    return names


@web.middleware
async def check_host(request: web.Request, handler: Handler) -> web.StreamResponse:
    service = request.app[SERVICE]
    host = (request.headers.get("Host") or "").lower()
    if host not in allowed_host_names(service.port, service.settings["allowed_hosts"]):
        raise InvalidHost("The Host header is not allowed")
    return await handler(request)


@web.middleware
async def check_origin(request: web.Request, handler: Handler) -> web.StreamResponse:
    origin = request.headers.get("Origin")
    if origin is not None and origin not in request.app[SERVICE].settings["allowed_origins"]:
        raise ForbiddenOrigin("Requests from this origin are not allowed")
    return await handler(request)


@web.middleware
async def limit_body(request: web.Request, handler: Handler) -> web.StreamResponse:
    length = request.content_length
    if length is not None and length > MAX_BODY_BYTES:
        raise PayloadTooLarge("The body is larger than 1 MiB")
    return await handler(request)


@web.middleware
async def authenticate(request: web.Request, handler: Handler) -> web.StreamResponse:
    route = _route_of(request)
    if route is None or route.auth == "public":
        return await handler(request)
    directory = request.app[SERVICE].clients
    principal = await directory.authenticate(request.headers.get("Authorization"))
    request[PRINCIPAL_KEY] = principal
    if route.auth == "scoped" and not any(principal.has(scope) for scope in route.scopes):
        require(principal, route.scopes[0])
    return await handler(request)


MIDDLEWARES = (map_errors, check_host, check_origin, limit_body, authenticate)
