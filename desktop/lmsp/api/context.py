"""What a handler reads from its request: the service, the principal, a validated body.

Application state lives under typed ``web.AppKey``s set by ``build_app``; the
auth middleware stores the request's ``Principal``. ``read_body`` and
``read_query`` validate with the pydantic models of ``schemas.py`` and turn
a validation failure into a 400 ``invalid_request`` that names the field.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, TypeVar

from aiohttp import web
from pydantic import BaseModel, ValidationError

from desktop.lmsp.clients import Principal
from desktop.lmsp.errors import InsufficientScope, InvalidRequest

if TYPE_CHECKING:
    from aiohttp.web_urldispatcher import AbstractRoute

    from desktop.lmsp.api.idempotency import KeyGuard
    from desktop.lmsp.api.routes import Route
    from desktop.lmsp.api.sse import StreamRegistry
    from desktop.lmsp.service import Service

ModelT = TypeVar("ModelT", bound=BaseModel)

SERVICE: web.AppKey[Service] = web.AppKey("lmsp_service")
STREAMS: web.AppKey[StreamRegistry] = web.AppKey("lmsp_streams")
KEEPALIVE_S: web.AppKey[float] = web.AppKey("lmsp_keepalive_s")
KEY_GUARD: web.AppKey[KeyGuard] = web.AppKey("lmsp_key_guard")
ROUTE_TABLE: web.AppKey[tuple[Route, ...]] = web.AppKey("lmsp_route_table")
ROUTE_SPECS: web.AppKey[dict[AbstractRoute, Route]] = web.AppKey("lmsp_route_specs")
OPENAPI: web.AppKey[dict[str, Any]] = web.AppKey("lmsp_openapi")
PRINCIPAL_KEY: web.RequestKey[Principal] = web.RequestKey("lmsp_principal", Principal)


def service_of(request: web.Request) -> Service:
    return request.app[SERVICE]


def principal_of(request: web.Request) -> Principal:
    principal = request.get(PRINCIPAL_KEY)
    if not isinstance(principal, Principal):  # pragma: no cover - the route table forbids it
        raise RuntimeError("route has no authentication rule")
    return principal


def require(principal: Principal, scope: str) -> None:
    if not principal.has(scope):
        raise InsufficientScope(f"This operation needs the {scope} scope")


def _param_of(error: dict[str, Any]) -> str | None:
    location = [str(part) for part in error.get("loc", ())]
    # Drop the union-branch names pydantic puts in the location.
    location = [p for p in location if p not in ("str", "list[InputMessage]")]
    location = [p for p in location if p not in ("ImportSource", "DownloadSource")]
    return ".".join(location) or None


def invalid_request(exc: ValidationError) -> InvalidRequest:
    # With a union, pydantic reports each branch; the deepest error is the telling one.
    first = max(exc.errors(include_url=False), key=lambda e: len(e.get("loc", ())))
    param = _param_of(dict(first))
    message = str(first.get("msg", "invalid value"))
    if first.get("type") == "extra_forbidden":
        message = "unknown field"
    return InvalidRequest(f"{param}: {message}" if param else message, param=param)


async def read_json(request: web.Request) -> Any:
    """The body as JSON (``{}`` when empty); 400 if it is not JSON."""
    raw = await request.read()
    if not raw.strip():
        return {}
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise InvalidRequest("The body is not valid JSON") from None


def validate(model: type[ModelT], data: Any) -> ModelT:
    if not isinstance(data, dict):
        raise InvalidRequest("The body must be a JSON object")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise invalid_request(exc) from None


async def read_body(request: web.Request, model: type[ModelT]) -> tuple[ModelT, Any]:
    """The validated body and the JSON it came from (for the idempotency fingerprint)."""
    data = await read_json(request)
    return validate(model, data), data


def read_query(request: web.Request, model: type[ModelT]) -> ModelT:
    try:
        return model.model_validate(dict(request.query))
    except ValidationError as exc:
        raise invalid_request(exc) from None


def json_response(body: Any, status: int = 200, **headers: str) -> web.Response:
    return web.json_response(body, status=status, headers=headers or None)
