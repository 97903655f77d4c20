"""Typed errors of the LMSP service.

Two kinds of failure exist (see docs/architecture.md):

* ``LmspError`` and its subclasses are *known* failures: bad input, a missing
  object, a full disk, a port in use. Each has a stable ``code`` from LMSP §1.1
  and an HTTP status, and the boundary (HTTP handler, CLI, window) shows its
  message as it is.
* Anything else is a bug: it is logged with its traceback and answered with a
  generic ``internal_error`` that reveals nothing of the internals.

``TaskFailure`` is different: it is what a worker raises to end *a task* as
``failed`` with a task error code (LMSP §1.1, "Task error codes").
"""

from __future__ import annotations

from typing import Any


class LmspError(Exception):
    """A known failure with a stable error code and HTTP status."""

    code = "internal_error"
    http_status = 500

    def __init__(
        self,
        message: str,
        *,
        param: str | None = None,
        retry_after: int | None = None,
        body_object: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.param = param
        self.retry_after = retry_after
        self.body_object = body_object

    def to_body(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.param is not None:
            error["param"] = self.param
        body: dict[str, Any] = {"error": error}
        if self.body_object is not None:
            body.update(self.body_object)
        return body


class InvalidRequest(LmspError):
    code = "invalid_request"
    http_status = 400


class InvalidIdempotencyKey(LmspError):
    code = "invalid_idempotency_key"
    http_status = 400


class Unauthorized(LmspError):
    code = "unauthorized"
    http_status = 401


class InsufficientScope(LmspError):
    code = "insufficient_scope"
    http_status = 403


class ForbiddenOrigin(LmspError):
    code = "forbidden_origin"
    http_status = 403


class NotFound(LmspError):
    code = "not_found"
    http_status = 404


class ModelNotFound(LmspError):
    code = "model_not_found"
    http_status = 404


class InvalidState(LmspError):
    code = "invalid_state"
    http_status = 409


class ModelInUse(LmspError):
    code = "model_in_use"
    http_status = 409


class IdempotencyKeyInProgress(LmspError):
    code = "idempotency_key_in_progress"
    http_status = 409


class PayloadTooLarge(LmspError):
    code = "payload_too_large"
    http_status = 413


class InvalidHost(LmspError):
    code = "invalid_host"
    http_status = 421


class IdempotencyKeyReused(LmspError):
    code = "idempotency_key_reused"
    http_status = 422


class RateLimited(LmspError):
    code = "rate_limited"
    http_status = 429


class Unavailable(LmspError):
    code = "unavailable"
    http_status = 503


class StorageFull(LmspError):
    code = "storage_full"
    http_status = 507


# --- Environmental failures at startup: shown to the user, never a traceback.


class StartupError(LmspError):
    """The service cannot start; the message says what to do."""

    code = "startup_failed"
    http_status = 503


class AlreadyRunning(StartupError):
    code = "already_running"


class DatabaseTooNew(StartupError):
    code = "database_too_new"


class DatabaseCorrupt(StartupError):
    code = "database_corrupt"


class DataDirNotWritable(StartupError):
    code = "data_dir_not_writable"


class PortInUse(StartupError):
    code = "port_in_use"


# --- Task failures: a worker raises these to end a task as `failed`.


class TaskFailure(Exception):
    """Ends the running task as ``failed`` with ``code`` and ``message``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
