"""The OpenAPI 3.1 document, generated from the route table and the pydantic schemas.

Request and reply schemas come from ``model_json_schema`` with component
references, so the document describes exactly what the handlers validate.
Error answers are added from each route's flags (auth rule, path id, body,
idempotency) and its declared error classes.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel

from desktop import PROTOCOL, __version__
from desktop.lmsp.api.routes import Route
from desktop.lmsp.api.schemas import ErrorBody
from desktop.lmsp.errors import (
    ForbiddenOrigin,
    IdempotencyKeyReused,
    InsufficientScope,
    InvalidHost,
    InvalidIdempotencyKey,
    InvalidRequest,
    LmspError,
    PayloadTooLarge,
    Unauthorized,
)

REF = "#/components/schemas/{model}"


class _Components:
    def __init__(self) -> None:
        self.schemas: dict[str, Any] = {}

    def ref(self, model: type[BaseModel]) -> dict[str, Any]:
        schema = model.model_json_schema(ref_template=REF)
        for name, definition in schema.pop("$defs", {}).items():
            self.schemas[name] = definition
        self.schemas[model.__name__] = schema
        return {"$ref": REF.format(model=model.__name__)}


def _error_classes(route: Route) -> list[type[LmspError]]:
    classes: list[type[LmspError]] = [ForbiddenOrigin, InvalidHost]
    if route.auth != "public":
        classes.append(Unauthorized)
    if route.auth == "scoped":
        classes.append(InsufficientScope)
    if route.body is not None or route.query is not None:
        classes.append(InvalidRequest)
    if route.body is not None:
        classes.append(PayloadTooLarge)
    if route.idempotent:
        classes += [InvalidIdempotencyKey, IdempotencyKeyReused]
    return classes + list(route.errors)


def _parameters(route: Route) -> list[dict[str, Any]]:
    parameters: list[dict[str, Any]] = [
        {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
        for name in re.findall(r"{(\w+)}", route.path)
    ]
    if route.query is not None:
        schema = route.query.model_json_schema(ref_template=REF)
        required = set(schema.get("required", ()))
        for name, prop in schema.get("properties", {}).items():
            parameters.append(
                {"name": name, "in": "query", "required": name in required, "schema": prop}
            )
    if route.idempotent:
        parameters.append(
            {
                "name": "Idempotency-Key",
                "in": "header",
                "required": False,
                "schema": {
                    "type": "string",
                    "maxLength": 255,
                    "pattern": "^[\\x21-\\x7e]([\\x20-\\x7e]*[\\x21-\\x7e])?$",
                },
            }
        )
    if route.event_stream and route.method == "GET":
        parameters.append(
            {"name": "Last-Event-ID", "in": "header", "required": False,
             "schema": {"type": "string", "pattern": "^[0-9]{1,18}$"}}
        )  # fmt: skip
    return parameters


def _operation(route: Route, components: _Components) -> dict[str, Any]:
    responses: dict[str, Any] = {}
    for status, reply in route.replies.items():
        entry: dict[str, Any] = {"description": "OK" if status < 300 else "Not ready"}
        if reply is not None:
            entry["content"] = {"application/json": {"schema": components.ref(reply)}}
        elif route.path == "/openapi.json":
            entry["content"] = {"application/json": {"schema": {"type": "object"}}}
        if route.event_stream and status == 200:
            entry.setdefault("content", {})["text/event-stream"] = {"schema": {"type": "string"}}
        responses[str(status)] = entry
    error_ref = components.ref(ErrorBody)
    by_status: dict[int, list[str]] = {}
    for error in _error_classes(route):
        by_status.setdefault(error.http_status, []).append(error.code)
    by_status.setdefault(500, ["internal_error"])
    for status, codes in sorted(by_status.items()):
        responses.setdefault(
            str(status),
            {
                "description": ", ".join(sorted(set(codes))),
                "content": {"application/json": {"schema": error_ref}},
            },
        )
    operation: dict[str, Any] = {
        "operationId": route.operation_id + ("_admin" if "/admin/" in route.path else ""),
        "summary": route.summary,
        "parameters": _parameters(route),
        "responses": responses,
    }
    if route.body is not None:
        operation["requestBody"] = {
            "required": route.body.__name__ not in ("EmptyBody", "ApprovePairingBody"),
            "content": {"application/json": {"schema": components.ref(route.body)}},
        }
    if route.auth == "public":
        operation["security"] = []
    else:
        operation["x-lmsp-scopes"] = list(route.scopes) or ["any"]
    return operation


def build_document(routes: tuple[Route, ...]) -> dict[str, Any]:
    components = _Components()
    paths: dict[str, dict[str, Any]] = {}
    for route in routes:
        paths.setdefault(route.path, {})[route.method.lower()] = _operation(route, components)
    return {
        "openapi": "3.1.0",
        "info": {"title": "LMSP Desktop", "version": __version__, "x-protocol": PROTOCOL},
        "servers": [{"url": "/"}],
        "paths": paths,
        "components": {
            "schemas": components.schemas,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
        "security": [{"bearer": []}],
    }
