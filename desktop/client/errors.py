"""The errors the LMSP client raises: one class per LMSP error code, plus connection failures.

``ApiError`` subclasses mirror the error codes of LMSP §1.1 and carry the
HTTP status, the code, the message, the ``param`` the service named and its
``Retry-After``. ``error_from_reply`` picks the class from the code (or, for
an unknown code, from the HTTP status). ``ServiceNotRunning`` means nothing
answers: no discovery file, or the connection was refused. Pairing that ends
without a token raises ``PairingDenied`` or ``PairingExpired``.
"""

from __future__ import annotations

import json
from typing import Any


class LmspClientError(Exception):
    """Every error raised by ``desktop.client``."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# -- talking to the service failed -------------------------------------------


class ConnectionFailed(LmspClientError):
    """The service could not be reached, or the connection broke, after the retries."""


class ServiceNotRunning(ConnectionFailed):
    """No service answers: there is no discovery file, or the connection was refused."""


# -- the service answered with an error --------------------------------------


class ApiError(LmspClientError):
    """An LMSP error answer (LMSP §1.1)."""

    code = "error"

    def __init__(
        self,
        message: str,
        *,
        status: int,
        code: str | None = None,
        param: str | None = None,
        retry_after: float | None = None,
        body: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        if code is not None:
            self.code = code
        self.param = param
        self.retry_after = retry_after
        self.body: dict[str, Any] = body or {}

    def __str__(self) -> str:
        return f"{self.code} ({self.status}): {self.message}"


class InvalidRequest(ApiError):
    code = "invalid_request"


class InvalidIdempotencyKey(InvalidRequest):
    code = "invalid_idempotency_key"


class Unauthorized(ApiError):
    """The token is missing, malformed, unknown or revoked."""

    code = "unauthorized"


class Forbidden(ApiError):
    code = "forbidden"


class InsufficientScope(Forbidden):
    code = "insufficient_scope"


class ForbiddenOrigin(Forbidden):
    code = "forbidden_origin"


class NotFound(ApiError):
    """The object does not exist, or belongs to another client."""

    code = "not_found"


class ModelNotFound(NotFound):
    code = "model_not_found"


class Conflict(ApiError):
    code = "conflict"


class InvalidState(Conflict):
    """The operation is not allowed in the object's state; ``body`` carries the object."""

    code = "invalid_state"


class ModelInUse(Conflict):
    code = "model_in_use"


class IdempotencyKeyInProgress(Conflict):
    code = "idempotency_key_in_progress"


class PayloadTooLarge(ApiError):
    code = "payload_too_large"


class InvalidHost(ApiError):
    code = "invalid_host"


class IdempotencyKeyReused(ApiError):
    """The same ``Idempotency-Key`` was sent with a different request."""

    code = "idempotency_key_reused"


class RateLimited(ApiError):
    code = "rate_limited"


class ServerError(ApiError):
    code = "internal_error"


class ServiceUnavailable(ServerError):
    """The service is starting (recovery is running) or stopping."""

    code = "unavailable"


class StorageFull(ServerError):
    code = "storage_full"


# -- pairing -----------------------------------------------------------------


class PairingFailed(LmspClientError):
    """Pairing ended without a token."""


class PairingDenied(PairingFailed):
    pass


class PairingExpired(PairingFailed):
    pass


ERRORS_BY_CODE: dict[str, type[ApiError]] = {
    cls.code: cls
    for cls in (
        InvalidRequest,
        InvalidIdempotencyKey,
        Unauthorized,
        InsufficientScope,
        ForbiddenOrigin,
        NotFound,
        ModelNotFound,
        InvalidState,
        ModelInUse,
        IdempotencyKeyInProgress,
        PayloadTooLarge,
        InvalidHost,
        IdempotencyKeyReused,
        RateLimited,
        ServerError,
        ServiceUnavailable,
        StorageFull,
    )
}

ERRORS_BY_STATUS: dict[int, type[ApiError]] = {
    400: InvalidRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    413: PayloadTooLarge,
    421: InvalidHost,
    422: IdempotencyKeyReused,
    429: RateLimited,
    503: ServiceUnavailable,
    507: StorageFull,
}


def parse_retry_after(value: str | None) -> float | None:
    if value is None:
        return None
    try:
        seconds = float(value.strip())
    except ValueError:
        return None
    return max(0.0, seconds)


def error_from_reply(status: int, body: bytes, retry_after: str | None = None) -> ApiError:
    """The typed error for an error answer (``body`` is the raw bytes received)."""
    parsed: Any = None
    try:
        parsed = json.loads(body) if body else None
    except ValueError:
        parsed = None
    detail: dict[str, Any] = {}
    if isinstance(parsed, dict) and isinstance(parsed.get("error"), dict):
        detail = parsed["error"]
    code = detail.get("code") if isinstance(detail.get("code"), str) else None
    message = detail.get("message")
    if not isinstance(message, str) or not message:
        message = f"The service answered HTTP {status}"
    param = detail.get("param") if isinstance(detail.get("param"), str) else None
    cls = ERRORS_BY_CODE.get(code or "")
    if cls is None:
        cls = ERRORS_BY_STATUS.get(status, ServerError if status >= 500 else ApiError)
    return cls(
        message,
        status=status,
        code=code,
        param=param,
        retry_after=parse_retry_after(retry_after),
        body=parsed if isinstance(parsed, dict) else None,
    )
