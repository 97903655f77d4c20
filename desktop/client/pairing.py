"""Pairing with the service (LMSP §2.3) and keeping the token it grants in a private file.

``pair`` asks to pair, hands the code to ``on_code`` (show it to the user, who
compares it with the one in the LMSP Desktop dialog), then long-polls until
the request is approved (the token comes back), denied or expired. If the
wait is interrupted, the request is abandoned on the service. ``save_token``
writes the token to a file only its owner can read (mode 0600, replaced
atomically); ``load_token`` reads it back.
"""

from __future__ import annotations

import contextlib
import os
import sys
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from .errors import (
    LmspClientError,
    NotFound,
    PairingDenied,
    PairingExpired,
    PairingFailed,
)
from .transport import HttpTransport, RetryPolicy

CONFIG_APP_NAME = "lmsp"
TOKEN_FILE_NAME = "token"  # noqa: S105 - a file name, not a secret
LONG_POLL_S = 30


@dataclass(frozen=True)
class PairingCode:
    """A pending pairing request, as shown to the user."""

    id: str
    code: str
    client_name: str
    scopes: tuple[str, ...]
    expires_at: str


@dataclass(frozen=True)
class PairedClient:
    """What an approved pairing grants. The token is shown once: keep it."""

    token: str
    client_id: str
    scopes: tuple[str, ...]
    url: str


def pair(
    url: str,
    client_name: str,
    scopes: Sequence[str] | None = None,
    *,
    on_code: Callable[[PairingCode], None] | None = None,
    retry: RetryPolicy | None = None,
) -> PairedClient:
    """Ask the service at ``url`` to pair ``client_name`` and wait for the owner's answer."""
    transport = HttpTransport(url, retry=retry)
    body: dict[str, object] = {"client_name": client_name}
    if scopes is not None:
        body["scopes"] = list(scopes)
    created = transport.request(
        "POST", "/v1/pairing", body=body, headers={"Idempotency-Key": str(uuid.uuid4())}
    ).json()
    request = PairingCode(
        id=str(created["id"]),
        code=str(created["code"]),
        client_name=str(created.get("client_name", client_name)),
        scopes=tuple(created.get("scopes") or ()),
        expires_at=str(created.get("expires_at", "")),
    )
    if on_code is not None:
        on_code(request)
    finished = False
    try:
        result = _wait_for_answer(transport, request)
        finished = True
        return result
    finally:
        if not finished:
            with contextlib.suppress(LmspClientError):
                transport.request("DELETE", f"/v1/pairing/{request.id}", retry=False, timeout=5)


def _wait_for_answer(transport: HttpTransport, request: PairingCode) -> PairedClient:
    while True:
        try:
            answer = transport.request(
                "GET",
                f"/v1/pairing/{request.id}",
                query={"wait": LONG_POLL_S},
                timeout=LONG_POLL_S + 15,
            ).json()
        except NotFound:
            raise PairingExpired(
                "The pairing request is no longer known to the service (it may have restarted)"
            ) from None
        status = answer.get("status")
        if status in ("approved", "claimed") and answer.get("token"):
            return PairedClient(
                token=str(answer["token"]),
                client_id=str(answer.get("client_id", "")),
                scopes=tuple(answer.get("scopes") or ()),
                url=transport.url,
            )
        if status == "denied":
            raise PairingDenied("The pairing request was denied")
        if status == "expired":
            raise PairingExpired("The pairing request expired before it was approved")
        if status == "claimed":
            raise PairingFailed("The token was already handed out to an earlier poll")
        if status != "pending":
            raise PairingFailed(f"Unexpected pairing status {status!r}")


# -- token files ---------------------------------------------------------------


def default_token_path() -> Path:
    """``<user config dir of "lmsp">/token`` (platformdirs when installed)."""
    try:
        import platformdirs
    except ImportError:
        home = Path.home()
        if sys.platform == "win32":
            base = os.environ.get("LOCALAPPDATA") or str(home / "AppData" / "Local")
            folder = Path(base) / CONFIG_APP_NAME / CONFIG_APP_NAME
        elif sys.platform == "darwin":
            folder = home / "Library" / "Application Support" / CONFIG_APP_NAME
        else:
            base = os.environ.get("XDG_CONFIG_HOME", "").strip() or str(home / ".config")
            folder = Path(base) / CONFIG_APP_NAME
        return folder / TOKEN_FILE_NAME
    return Path(platformdirs.user_config_dir(CONFIG_APP_NAME)) / TOKEN_FILE_NAME


def save_token(token: str, path: str | os.PathLike[str] | None = None) -> Path:
    """Write ``token`` to ``path`` (default: ``default_token_path()``), readable by you only."""
    target = Path(path) if path is not None else default_token_path()
    target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    with contextlib.suppress(FileNotFoundError):
        temporary.unlink()
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(token.strip() + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        temporary.replace(target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()
        raise
    with contextlib.suppress(OSError):
        target.chmod(0o600)
    return target


def load_token(path: str | os.PathLike[str] | None = None) -> str | None:
    """The token saved at ``path`` (default: ``default_token_path()``), or None if there is none."""
    source = Path(path) if path is not None else default_token_path()
    try:
        token = source.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return None
    return token or None
