"""LMSP error answers become typed exceptions."""

from __future__ import annotations

import json

import pytest

from desktop.client import errors
from desktop.client.errors import error_from_reply


def body(code: str, message: str = "m", param: str | None = None) -> bytes:
    detail: dict[str, str] = {"code": code, "message": message}
    if param:
        detail["param"] = param
    return json.dumps({"error": detail}).encode()


@pytest.mark.parametrize(
    ("status", "code", "expected"),
    [
        (400, "invalid_request", errors.InvalidRequest),
        (400, "invalid_idempotency_key", errors.InvalidIdempotencyKey),
        (401, "unauthorized", errors.Unauthorized),
        (403, "insufficient_scope", errors.InsufficientScope),
        (403, "forbidden_origin", errors.ForbiddenOrigin),
        (404, "not_found", errors.NotFound),
        (404, "model_not_found", errors.ModelNotFound),
        (409, "invalid_state", errors.InvalidState),
        (409, "model_in_use", errors.ModelInUse),
        (409, "idempotency_key_in_progress", errors.IdempotencyKeyInProgress),
        (413, "payload_too_large", errors.PayloadTooLarge),
        (421, "invalid_host", errors.InvalidHost),
        (422, "idempotency_key_reused", errors.IdempotencyKeyReused),
        (429, "rate_limited", errors.RateLimited),
        (500, "internal_error", errors.ServerError),
        (503, "unavailable", errors.ServiceUnavailable),
        (507, "storage_full", errors.StorageFull),
    ],
)
def test_each_code_has_its_class(status: int, code: str, expected: type[Exception]) -> None:
    error = error_from_reply(status, body(code, "boom", "model"), "3")
    assert type(error) is expected
    assert (error.status, error.code, error.message, error.param) == (status, code, "boom", "model")
    assert error.retry_after == 3.0


def test_unknown_codes_and_bodies_fall_back_to_the_status() -> None:
    assert type(error_from_reply(404, body("brand_new"))) is errors.NotFound
    assert type(error_from_reply(502, b"<html>bad gateway</html>")) is errors.ServerError
    teapot = error_from_reply(418, b"")
    assert type(teapot) is errors.ApiError and "418" in teapot.message


def test_invalid_state_keeps_the_object() -> None:
    raw = json.dumps({"error": {"code": "invalid_state", "message": "done"}, "task": {"id": "t"}})
    error = error_from_reply(409, raw.encode())
    assert isinstance(error, errors.InvalidState) and error.body["task"] == {"id": "t"}
