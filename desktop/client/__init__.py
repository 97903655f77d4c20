"""A small LMSP 1.0 client for apps that use LMSP Desktop — standard library only.

Copy this folder into your app if you like: it needs nothing but Python 3.11
(``platformdirs`` is used when installed, to find the default folders).

    from desktop.client import LmspClient, pair, save_token, load_token

    token = load_token()
    if token is None:
        paired = pair(url, "My App", on_code=lambda p: print("Code:", p.code))
        save_token(paired.token)
        token = paired.token
    client = LmspClient.discover(token)
    for piece in client.stream_response("gemma-3-270m-q4_k_m", "Hello").deltas():
        print(piece, end="", flush=True)
"""

from .client import LmspClient, Page, new_idempotency_key, response_body
from .discovery import (
    ServiceLocation,
    default_data_dir,
    read_discovery_file,
    resolve_service_url,
)
from .errors import (
    ApiError,
    Conflict,
    ConnectionFailed,
    Forbidden,
    ForbiddenOrigin,
    IdempotencyKeyInProgress,
    IdempotencyKeyReused,
    InsufficientScope,
    InvalidHost,
    InvalidIdempotencyKey,
    InvalidRequest,
    InvalidState,
    LmspClientError,
    ModelInUse,
    ModelNotFound,
    NotFound,
    PairingDenied,
    PairingExpired,
    PairingFailed,
    PayloadTooLarge,
    RateLimited,
    ServerError,
    ServiceNotRunning,
    ServiceUnavailable,
    StorageFull,
    Unauthorized,
)
from .events import Event, follow_events
from .pairing import (
    PairedClient,
    PairingCode,
    default_token_path,
    load_token,
    pair,
    save_token,
)
from .response_stream import ResponseStream
from .sse import SseDecoder, SseMessage, parse_sse
from .transport import HttpTransport, RetryPolicy

__all__ = [
    "ApiError",
    "Conflict",
    "ConnectionFailed",
    "Event",
    "Forbidden",
    "ForbiddenOrigin",
    "HttpTransport",
    "IdempotencyKeyInProgress",
    "IdempotencyKeyReused",
    "InsufficientScope",
    "InvalidHost",
    "InvalidIdempotencyKey",
    "InvalidRequest",
    "InvalidState",
    "LmspClient",
    "LmspClientError",
    "ModelInUse",
    "ModelNotFound",
    "NotFound",
    "Page",
    "PairedClient",
    "PairingCode",
    "PairingDenied",
    "PairingExpired",
    "PairingFailed",
    "PayloadTooLarge",
    "RateLimited",
    "ResponseStream",
    "RetryPolicy",
    "ServerError",
    "ServiceLocation",
    "ServiceNotRunning",
    "ServiceUnavailable",
    "SseDecoder",
    "SseMessage",
    "StorageFull",
    "Unauthorized",
    "default_data_dir",
    "default_token_path",
    "follow_events",
    "load_token",
    "new_idempotency_key",
    "pair",
    "parse_sse",
    "read_discovery_file",
    "resolve_service_url",
    "response_body",
    "save_token",
]
