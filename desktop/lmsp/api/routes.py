"""The route table: every endpoint with its handler, authentication rule, schemas and errors.

``build_app`` registers exactly these routes, the auth middleware enforces
their rules, and ``openapi.py`` documents them from the same entries, so the
document cannot drift from what the server does. ``auth`` is ``public`` (no
token), ``token`` (any valid token) or ``scoped`` (a token holding one of
``scopes``; ``admin`` holds them all).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from aiohttp import web
from pydantic import BaseModel

from desktop.lmsp.api import schemas as s
from desktop.lmsp.api.handlers import models, pairing, responses, service, tasks
from desktop.lmsp.errors import (
    IdempotencyKeyInProgress,
    InvalidRequest,
    InvalidState,
    LmspError,
    ModelInUse,
    ModelNotFound,
    NotFound,
    RateLimited,
    StorageFull,
)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
Reply = type[BaseModel] | None


@dataclass(frozen=True)
class Route:
    method: str
    path: str
    handler: Handler
    summary: str
    auth: Literal["public", "token", "scoped"] = "scoped"
    scopes: tuple[str, ...] = ()
    body: type[BaseModel] | None = None
    query: type[BaseModel] | None = None
    replies: Mapping[int, Reply] = field(default_factory=dict)
    errors: tuple[type[LmspError], ...] = ()
    event_stream: bool = False
    idempotent: bool = False

    @property
    def operation_id(self) -> str:
        return self.handler.__name__


ADMIN = ("admin",)
WRITE_ERRORS = (InvalidRequest, StorageFull)

# fmt: off
ROUTES: tuple[Route, ...] = (
    Route("GET", "/v1/health", service.health, "Is the service up?", auth="public",
          replies={200: s.Health, 503: s.Health}),
    Route("GET", "/v1/service", service.service_info, "Service identity", auth="public",
          replies={200: s.ServiceInfo}),
    Route("GET", "/openapi.json", service.openapi_document, "This document", auth="public",
          replies={200: None}),
    # -- pairing (§2.3) and clients
    Route("POST", "/v1/pairing", pairing.create_pairing, "Ask to pair", auth="public",
          body=s.CreatePairingBody, replies={202: s.PairingObject},
          errors=(RateLimited, IdempotencyKeyInProgress, *WRITE_ERRORS), idempotent=True),
    Route("GET", "/v1/pairing/{id}", pairing.poll_pairing, "Poll a pairing request",
          auth="public", query=s.PairingPollQuery, replies={200: s.PairingObject},
          errors=(NotFound, InvalidRequest)),
    Route("DELETE", "/v1/pairing/{id}", pairing.abandon_pairing, "Abandon a pairing request",
          auth="public", replies={204: None}, errors=(NotFound,)),
    Route("GET", "/v1/clients/me", pairing.client_me, "The calling client", auth="token",
          replies={200: s.ClientObject}),
    # -- owner (§2.4)
    Route("GET", "/v1/admin/pairing", pairing.list_pairings, "Pending pairing requests",
          scopes=ADMIN, replies={200: s.PairingList}),
    Route("POST", "/v1/admin/pairing/{id}/approve", pairing.approve_pairing,
          "Approve a pairing request", scopes=ADMIN, body=s.ApprovePairingBody,
          replies={200: s.PairingObject}, errors=(NotFound, InvalidState, InvalidRequest)),
    Route("POST", "/v1/admin/pairing/{id}/deny", pairing.deny_pairing,
          "Deny a pairing request", scopes=ADMIN, body=s.EmptyBody,
          replies={200: s.PairingObject}, errors=(NotFound, InvalidState, InvalidRequest)),
    Route("GET", "/v1/admin/clients", pairing.list_clients, "Paired clients", scopes=ADMIN,
          replies={200: s.ClientList}),
    Route("DELETE", "/v1/admin/clients/{id}", pairing.revoke_client, "Revoke a client",
          scopes=ADMIN, replies={204: None}, errors=(NotFound, StorageFull)),
    Route("GET", "/v1/admin/tasks", tasks.list_tasks, "Every task, the window's included",
          scopes=ADMIN, query=s.TaskListQuery, replies={200: s.TaskList},
          errors=(InvalidRequest,)),
    # -- models (§3)
    Route("GET", "/v1/models", models.list_models, "Models", scopes=("models:read",),
          replies={200: s.ModelList}),
    Route("POST", "/v1/models", models.create_model, "Import or download a model",
          scopes=("models:write",), body=s.CreateModelBody, replies={202: s.TaskObject},
          errors=(IdempotencyKeyInProgress, *WRITE_ERRORS), idempotent=True),
    Route("GET", "/v1/models/{id}", models.get_model, "A model, by id or name",
          scopes=("models:read",), replies={200: s.ModelObject}, errors=(ModelNotFound,)),
    Route("DELETE", "/v1/models/{id}", models.delete_model, "Delete a model",
          scopes=("models:write",), replies={204: None},
          errors=(ModelNotFound, ModelInUse, StorageFull)),
    # -- responses (§4.1)
    Route("POST", "/v1/responses", responses.create_response, "Create a response",
          scopes=("responses:write",), body=s.CreateResponseBody,
          replies={200: s.ResponseObject, 202: s.ResponseObject}, event_stream=True,
          errors=(ModelNotFound, IdempotencyKeyInProgress, *WRITE_ERRORS), idempotent=True),
    Route("GET", "/v1/responses/{id}", responses.get_response, "A response",
          scopes=("responses:read",), replies={200: s.ResponseObject}, errors=(NotFound,)),
    Route("DELETE", "/v1/responses/{id}", responses.delete_response,
          "Delete a finished response", scopes=("responses:write",), replies={204: None},
          errors=(NotFound, InvalidState, StorageFull)),
    Route("POST", "/v1/responses/{id}/cancel", responses.cancel_response, "Cancel a response",
          scopes=("responses:write",), body=s.EmptyBody,
          replies={200: s.ResponseObject, 202: s.ResponseObject},
          errors=(NotFound, InvalidState, IdempotencyKeyInProgress, *WRITE_ERRORS),
          idempotent=True),
    Route("GET", "/v1/responses/{id}/events", responses.response_events, "A response's events",
          scopes=("responses:read",), query=s.EventListQuery, replies={200: s.EventList},
          event_stream=True, errors=(NotFound, InvalidRequest)),
    # -- tasks (§4.2-4.4)
    Route("GET", "/v1/tasks", tasks.list_tasks, "The caller's tasks, newest first",
          scopes=("tasks:read",), query=s.TaskListQuery, replies={200: s.TaskList},
          errors=(InvalidRequest,)),
    Route("GET", "/v1/tasks/{id}", tasks.get_task, "A task", scopes=("tasks:read",),
          replies={200: s.TaskObject}, errors=(NotFound,)),
    Route("POST", "/v1/tasks/{id}/cancel", tasks.cancel_task, "Cancel a task",
          scopes=("tasks:write", "responses:write"), body=s.EmptyBody,
          replies={200: s.TaskObject, 202: s.TaskObject},
          errors=(NotFound, InvalidState, IdempotencyKeyInProgress, *WRITE_ERRORS),
          idempotent=True),
    Route("GET", "/v1/tasks/{id}/events", tasks.task_events, "A task's events",
          scopes=("tasks:read",), query=s.EventListQuery, replies={200: s.EventList},
          event_stream=True, errors=(NotFound, InvalidRequest)),
)
# fmt: on
