"""Pydantic models of the HTTP bodies: the handlers validate with them, OpenAPI is built from them.

Request models are strict and forbid unknown fields, so a wrong type or an
unknown field is a 400 ``invalid_request`` naming the field. Response models
describe what the service answers; they allow extra fields so that adding a
field to an object is never a breaking change.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from desktop.lmsp.clients import PAIRABLE_SCOPES

MAX_INPUT_BYTES = 256 * 1024
MAX_METADATA_KEYS = 16
# Printable: no control characters (C0, DEL, C1) and no line or paragraph separators.
PRINTABLE = "^[^\\x00-\\x1f\\x7f-\\x9f\\u2028\\u2029]+$"

RestartPolicy = Literal["fail", "retry", "resume"]
PairableScope = Literal[
    "models:read", "models:write", "responses:write", "responses:read", "tasks:read", "tasks:write"
]
assert set(PairableScope.__args__) == set(PAIRABLE_SCOPES)  # type: ignore[attr-defined]


class RequestModel(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class ReplyModel(BaseModel):
    model_config = ConfigDict(extra="allow")


# -- requests ---------------------------------------------------------------


class InputMessage(RequestModel):
    role: Literal["user", "system", "assistant"]
    content: str


class CreateResponseBody(RequestModel):
    """``POST /v1/responses`` (LMSP §4.1)."""

    model: str = Field(min_length=1, max_length=256)
    input: str | list[InputMessage]
    instructions: str | None = Field(default=None, max_length=MAX_INPUT_BYTES)
    max_output_tokens: int = Field(default=256, ge=1, le=32768)
    temperature: float = Field(default=1.0, ge=0.0, le=2.0)
    top_p: float = Field(default=1.0, gt=0.0, le=1.0)
    seed: int | None = Field(default=None, ge=0, le=2**63 - 1)
    background: bool = False
    stream: bool = False
    on_restart: RestartPolicy | None = None
    metadata: dict[str, str] = Field(default_factory=dict, max_length=MAX_METADATA_KEYS)

    @field_validator("input")
    @classmethod
    def _input_size(cls, value: str | list[InputMessage]) -> str | list[InputMessage]:
        texts = [value] if isinstance(value, str) else [m.content for m in value]
        if sum(len(t.encode("utf-8", "surrogatepass")) for t in texts) > MAX_INPUT_BYTES:
            raise ValueError("input must be at most 256 KiB of text")
        if not isinstance(value, str) and not value:
            raise ValueError("input must hold at least one message")
        return value

    @field_validator("metadata")
    @classmethod
    def _metadata_size(cls, value: dict[str, str]) -> dict[str, str]:
        if any(len(k) > 64 or len(v) > 512 for k, v in value.items()):
            raise ValueError("metadata keys are at most 64 characters, values at most 512")
        return value


class ImportSource(RequestModel):
    path: str = Field(min_length=1, max_length=4096)


class DownloadSource(RequestModel):
    url: str = Field(min_length=1, max_length=4096, pattern=r"^https?://")
    sha256: str | None = Field(default=None, pattern=r"^[0-9a-fA-F]{64}$")


class CreateModelBody(RequestModel):
    """``POST /v1/models`` (LMSP §3): import a local file or download one."""

    source: ImportSource | DownloadSource
    storage: Literal["copy", "link", "reference"] | None = None
    name: str | None = Field(default=None, min_length=1, max_length=128)
    on_restart: RestartPolicy | None = None


class CreatePairingBody(RequestModel):
    """``POST /v1/pairing`` (LMSP §2.3)."""

    client_name: str = Field(min_length=1, max_length=64, pattern=PRINTABLE)
    scopes: list[PairableScope] | None = None


class ApprovePairingBody(RequestModel):
    """``POST /v1/admin/pairing/{id}/approve``: optionally fewer scopes than requested."""

    scopes: list[PairableScope] | None = None


class EmptyBody(RequestModel):
    """Operations that take no body (an empty body or ``{}``)."""


# -- query parameters -------------------------------------------------------


class QueryModel(BaseModel):
    model_config = ConfigDict(extra="ignore")


class TaskListQuery(QueryModel):
    status: str | None = Field(default=None, description="comma-separated statuses")
    kind: str | None = Field(default=None, description="comma-separated kinds")
    limit: int = Field(default=50, ge=1, le=100)
    after: str | None = Field(default=None, description="id of the last task of the page before")


class EventListQuery(QueryModel):
    after: int = Field(default=0, ge=0, le=2**62)
    limit: int = Field(default=100, ge=1, le=1000)


class PairingPollQuery(QueryModel):
    wait: float = Field(default=0.0, ge=0.0, le=30.0)


# -- replies ------------------------------------------------------------------


class ErrorDetail(ReplyModel):
    code: str
    message: str
    param: str | None = None


class ErrorBody(ReplyModel):
    error: ErrorDetail


class Health(ReplyModel):
    status: Literal["ok", "starting"]


class ServiceInfo(ReplyModel):
    id: str
    name: str
    protocol: Literal["lmsp/1.0"]
    version: str
    pairing_url: str


class TaskObject(ReplyModel):
    id: str
    object: Literal["task"]
    kind: str
    status: str
    on_restart: str
    attempt: int
    last_sequence_number: int
    progress: dict[str, Any] | None
    error: dict[str, Any] | None
    created_at: str
    updated_at: str
    finished_at: str | None


class TaskList(ReplyModel):
    object: Literal["list"]
    data: list[TaskObject]
    has_more: bool


class EventObject(ReplyModel):
    sequence_number: int
    type: str
    task_id: str
    created_at: str
    data: dict[str, Any]


class EventList(ReplyModel):
    object: Literal["list"]
    data: list[EventObject]
    has_more: bool


class ResponseObject(ReplyModel):
    id: str
    object: Literal["response"]
    status: str


class ModelObject(ReplyModel):
    id: str
    object: Literal["model"]
    name: str


class ModelList(ReplyModel):
    object: Literal["list"]
    data: list[ModelObject]


class PairingObject(ReplyModel):
    id: str
    object: Literal["pairing"]
    status: Literal["pending", "approved", "denied", "expired", "claimed"]
    client_name: str
    code: str
    scopes: list[str]
    expires_at: str
    poll_interval_ms: int
    token: str | None = Field(default=None, description="only in the first poll after approval")
    client_id: str | None = None


class PairingList(ReplyModel):
    object: Literal["list"]
    data: list[PairingObject]


class ClientObject(ReplyModel):
    id: str
    name: str
    scopes: list[str]
    created_at: str
    last_used_at: str | None


class ClientList(ReplyModel):
    object: Literal["list"]
    data: list[ClientObject]
