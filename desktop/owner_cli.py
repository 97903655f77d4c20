"""``lmsp-desktop pairing …`` and ``lmsp-desktop clients …``: the owner's commands (LMSP §2.4).

They find the running service through ``<data dir>/service.json``, authenticate
with ``<data dir>/owner.token`` and call the admin endpoints over HTTP, so they
work the same for a headless service and for the window's.
"""

from __future__ import annotations

import argparse
import json
import re
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from desktop.lmsp.paths import DataDirLayout

TIMEOUT_S = 10.0


class OwnerCommandError(Exception):
    """A failure to show as one line, without a traceback."""


def add_owner_commands(parser: argparse.ArgumentParser) -> None:
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    pairing = commands.add_parser("pairing", help="list, approve or deny pairing requests")
    pairing_actions = pairing.add_subparsers(dest="action", required=True, metavar="ACTION")
    pairing_actions.add_parser("list", help="pending pairing requests")
    approve = pairing_actions.add_parser("approve", help="let the app pair")
    approve.add_argument(
        "target", metavar="CODE_OR_ID", help="the code shown by the app, or the id"
    )
    approve.add_argument("--scopes", help="grant only these scopes (comma-separated)")
    deny = pairing_actions.add_parser("deny", help="refuse the pairing request")
    deny.add_argument("target", metavar="CODE_OR_ID")
    clients = commands.add_parser("clients", help="list or revoke paired apps")
    client_actions = clients.add_subparsers(dest="action", required=True, metavar="ACTION")
    client_actions.add_parser("list", help="paired apps")
    revoke = client_actions.add_parser("revoke", help="revoke an app's token at once")
    revoke.add_argument("client_id", metavar="ID")


@dataclass(frozen=True)
class OwnerConnection:
    url: str
    token: str

    @classmethod
    def from_data_dir(cls, data_dir: Path) -> OwnerConnection:
        layout = DataDirLayout(data_dir)
        try:
            discovery = json.loads(layout.discovery_file.read_text(encoding="utf-8"))
            token = layout.owner_token.read_text(encoding="ascii").strip()
        except FileNotFoundError:
            raise OwnerCommandError(
                f"The service is not running for {data_dir} "
                "(start it with: lmsp-desktop --headless, or open the app)."
            ) from None
        except (OSError, ValueError) as exc:
            raise OwnerCommandError(f"Cannot read the service files in {data_dir}: {exc}") from None
        return cls(str(discovery["url"]).rstrip("/"), token)

    def call(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(  # noqa: S310 - the URL comes from our discovery file
            self.url + path,
            data=data,
            method=method,
            headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:  # noqa: S310
                payload = response.read()
        except urllib.error.HTTPError as exc:
            raise OwnerCommandError(_error_message(exc)) from None
        except (urllib.error.URLError, OSError):
            raise OwnerCommandError(
                f"The service at {self.url} does not answer; is it running?"
            ) from None
        return json.loads(payload) if payload else None


def _error_message(exc: urllib.error.HTTPError) -> str:
    try:
        return str(json.loads(exc.read())["error"]["message"])
    except (ValueError, KeyError, TypeError):
        return f"The service answered {exc.code}"


def _pairing_id(connection: OwnerConnection, target: str) -> str:
    if target.startswith("pair_"):
        return target
    digits = re.sub(r"\D", "", target)
    if len(digits) != 6:
        raise OwnerCommandError(f"{target!r} is neither a pairing id nor a 6-digit code")
    code = f"{digits[:3]}-{digits[3:]}"
    pending = connection.call("GET", "/v1/admin/pairing")["data"]
    matches = [p["id"] for p in pending if p["code"] == code]
    if len(matches) != 1:
        raise OwnerCommandError(
            f"No pending request has the code {code}"
            if not matches
            else f"Several pending requests have the code {code}; use the id"
        )
    return str(matches[0])


def run_owner_command(args: argparse.Namespace, data_dir: Path) -> str:
    """Run the command; the text to print. Raises ``OwnerCommandError``."""
    connection = OwnerConnection.from_data_dir(data_dir)
    if args.command == "pairing":
        if args.action == "list":
            pending = connection.call("GET", "/v1/admin/pairing")["data"]
            return (
                "\n".join(
                    f"{p['code']}  {p['client_name']}  [{', '.join(p['scopes'])}]  "
                    f"expires {p['expires_at']}  {p['id']}"
                    for p in pending
                )
                or "No pending pairing requests."
            )
        pairing_id = _pairing_id(connection, args.target)
        if args.action == "approve":
            body = {}
            if args.scopes:
                body["scopes"] = [s.strip() for s in args.scopes.split(",") if s.strip()]
            result = connection.call("POST", f"/v1/admin/pairing/{pairing_id}/approve", body)
            return f"Approved {result['client_name']} with [{', '.join(result['scopes'])}]."
        result = connection.call("POST", f"/v1/admin/pairing/{pairing_id}/deny", {})
        return f"Denied {result['client_name']}."
    if args.action == "list":
        clients = connection.call("GET", "/v1/admin/clients")["data"]
        return (
            "\n".join(
                f"{c['id']}  {c['name']}  [{', '.join(c['scopes'])}]  "
                f"last used {c['last_used_at'] or 'never'}"
                for c in clients
            )
            or "No paired clients."
        )
    connection.call("DELETE", f"/v1/admin/clients/{args.client_id}")
    return f"Revoked {args.client_id}."
