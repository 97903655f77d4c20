"""Reading OpenAI-compatible requests and creating their LMSP tasks, once per Idempotency-Key.

``read_openai_body`` validates a body with the lenient OpenAI schemas (a
failure is a 400 naming the field). ``create_response_once`` creates the
response task through ``Service.create_response`` like the native API does;
with an ``Idempotency-Key`` the key is stored in the task's own transaction,
and a repeated request is answered from the task the key created — so a
retried call never starts a second generation.
"""

from __future__ import annotations

from typing import Any, TypeVar

from aiohttp import web
from pydantic import BaseModel, ValidationError

from desktop.lmsp.api import idempotency
from desktop.lmsp.api.context import KEY_GUARD, invalid_request, principal_of, read_json, service_of
from desktop.lmsp.errors import InvalidRequest
from desktop.lmsp.requests import ResponseRequest
from desktop.lmsp.store import idempotency as key_sql

BodyT = TypeVar("BodyT", bound=BaseModel)


async def read_openai_body(request: web.Request, model: type[BodyT]) -> tuple[BodyT, Any]:
    """The validated body and the JSON it came from."""
    raw = await read_json(request)
    if not isinstance(raw, dict):
        raise InvalidRequest("The body must be a JSON object")
    try:
        return model.model_validate(raw), raw
    except ValidationError as exc:
        raise invalid_request(exc) from None


def read_openai_query(request: web.Request, model: type[BodyT]) -> BodyT:
    try:
        return model.model_validate(dict(request.query))
    except ValidationError as exc:
        raise invalid_request(exc) from None


async def create_response_once(
    request: web.Request, lmsp_request: ResponseRequest, raw_body: Any
) -> tuple[str, bool]:
    """The id of the response task for this request, and whether it existed already."""
    principal = principal_of(request)
    service = service_of(request)
    key = idempotency.key_for(request, principal.task_owner, raw_body)
    async with request.app[KEY_GUARD].hold(key):
        if key is not None:
            stored = await key_sql.lookup(service.db, key.owner, key.key, key.fingerprint)
            if stored is not None and stored.task_id is not None:
                return stored.task_id, True
        created = await service.create_response(
            lmsp_request, owner=principal.task_owner, idempotency=key
        )
    return str(created["id"]), False
