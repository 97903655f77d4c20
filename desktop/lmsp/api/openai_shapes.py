"""LMSP objects in OpenAI's shapes (LMSP §10): errors, statuses, models, response objects.

The OpenAI-compatible endpoints serve the same tasks as the native API; this
module only translates. Statuses follow the §10 table; times become Unix
seconds; a response's ``model`` is the model's name (what OpenAI clients pass
in), and its message item has an id derived from the response id, so the same
response always reads the same.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from desktop.lmsp.clock import parse_time
from desktop.lmsp.errors import LmspError

OPENAI_STATUS = {
    "queued": "queued",
    "loading": "queued",
    "running": "in_progress",
    "cancelling": "in_progress",
    "completed": "completed",
    "failed": "failed",
    "cancelled": "cancelled",
}

ERROR_TYPE_BY_STATUS = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    409: "invalid_request_error",
    413: "invalid_request_error",
    421: "invalid_request_error",
    422: "invalid_request_error",
    429: "rate_limit_error",
}


def error_body(status: int, code: str, message: str, param: str | None = None) -> dict[str, Any]:
    kind = ERROR_TYPE_BY_STATUS.get(
        status, "server_error" if status >= 500 else "invalid_request_error"
    )
    return {"error": {"message": message, "type": kind, "param": param, "code": code}}


def error_response(exc: LmspError) -> web.Response:
    headers = {} if exc.retry_after is None else {"Retry-After": str(exc.retry_after)}
    body = error_body(exc.http_status, exc.code, exc.message, exc.param)
    return web.json_response(body, status=exc.http_status, headers=headers)


def unix_time(text: str | None) -> int | None:
    return None if not text else int(parse_time(text).timestamp())


def model_object(model: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": model["name"],
        "object": "model",
        "created": unix_time(model.get("created_at")) or 0,
        "owned_by": "lmsp-desktop",
    }


def message_item_id(response_id: str) -> str:
    return "msg_" + response_id.removeprefix("resp_")


def message_item(response_id: str, text: str, *, done: bool) -> dict[str, Any]:
    return {
        "type": "message",
        "id": message_item_id(response_id),
        "status": "completed" if done else "in_progress",
        "role": "assistant",
        "content": [output_text_part(text)],
    }


def output_text_part(text: str) -> dict[str, Any]:
    return {"type": "output_text", "text": text, "annotations": [], "logprobs": []}


def response_usage(usage: dict[str, Any] | None) -> dict[str, Any] | None:
    if not usage:
        return None
    return {
        "input_tokens": int(usage.get("input_tokens", 0)),
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": int(usage.get("output_tokens", 0)),
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": int(usage.get("total_tokens", 0)),
    }


def chat_usage(usage: dict[str, Any] | None) -> dict[str, int]:
    prompt = int((usage or {}).get("input_tokens", 0))
    completion = int((usage or {}).get("output_tokens", 0))
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }


class ResponseShape:
    """The unchanging part of one response in OpenAI's shape, and snapshots of it."""

    def __init__(self, lmsp: dict[str, Any], model_name: str, params: dict[str, Any]) -> None:
        self.id = str(lmsp["id"])
        self.static: dict[str, Any] = {
            "id": self.id,
            "object": "response",
            "created_at": unix_time(lmsp.get("created_at")),
            "model": model_name,
            "instructions": lmsp.get("instructions"),
            "metadata": lmsp.get("metadata") or {},
            "background": bool(lmsp.get("background")),
            "max_output_tokens": params.get("max_output_tokens"),
            "temperature": params.get("temperature"),
            "top_p": params.get("top_p"),
            "parallel_tool_calls": False,
            "tool_choice": "auto",
            "tools": [],
            "text": {"format": {"type": "text"}},
            "truncation": "disabled",
            "store": True,
            "incomplete_details": None,
        }

    def snapshot(
        self,
        lmsp_status: str,
        text: str | None,
        *,
        usage: dict[str, Any] | None = None,
        error: dict[str, Any] | None = None,
        completed_at: str | None = None,
    ) -> dict[str, Any]:
        """The response object at one moment: ``text`` None means no output item yet."""
        status = OPENAI_STATUS.get(lmsp_status, lmsp_status)
        output = [] if text is None else [message_item(self.id, text, done=status == "completed")]
        return {
            **self.static,
            "status": status,
            "output": output,
            "usage": response_usage(usage),
            "error": _response_error(error),
            "completed_at": unix_time(completed_at),
        }

    def from_lmsp(self, lmsp: dict[str, Any]) -> dict[str, Any]:
        """The snapshot matching a full LMSP response object."""
        text = str(lmsp.get("output_text") or "")
        has_output = bool(text) or lmsp.get("status") == "completed"
        return self.snapshot(
            str(lmsp.get("status")),
            text if has_output else None,
            usage=lmsp.get("usage"),
            error=lmsp.get("error"),
            completed_at=lmsp.get("completed_at"),
        )


def _response_error(error: dict[str, Any] | None) -> dict[str, Any] | None:
    if not error:
        return None
    return {"code": str(error.get("code", "server_error")), "message": str(error.get("message"))}
