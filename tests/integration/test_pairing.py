"""Pairing, clients and the owner's admin endpoints over real HTTP (LMSP §2)."""

from __future__ import annotations

import asyncio
import os
import re
import stat

from desktop.lmsp.notifications import ClientChanged, PairingChanged
from tests.integration.conftest import Api


async def test_full_pairing_flow_with_long_poll(api: Api) -> None:
    seen: list[object] = []
    api.service.hub.add_listener(seen.append)
    status, pairing, _ = await api.call(
        "POST", "/v1/pairing", json={"client_name": "Writer Pro", "scopes": ["models:read"]}
    )
    assert status == 202
    assert pairing["status"] == "pending" and pairing["poll_interval_ms"] == 1000
    assert re.fullmatch(r"\d{3}-\d{3}", pairing["code"])
    assert pairing["id"].startswith("pair_") and len(pairing["id"]) >= 5 + 26

    status, listed, _ = await api.call("GET", "/v1/admin/pairing", token=api.owner_token)
    assert status == 200 and [p["id"] for p in listed["data"]] == [pairing["id"]]
    assert api.service.list_pairings()[0]["code"] == pairing["code"]

    poll = asyncio.create_task(api.call("GET", f"/v1/pairing/{pairing['id']}?wait=10"))
    await asyncio.sleep(0.2)
    assert not poll.done()
    status, approved, _ = await api.call(
        "POST", f"/v1/admin/pairing/{pairing['id']}/approve", token=api.owner_token
    )
    assert status == 200 and approved["status"] == "approved"
    status, claimed, _ = await asyncio.wait_for(poll, 5)
    assert status == 200 and claimed["status"] == "claimed"
    assert claimed["token"].startswith("lmsp_") and claimed["scopes"] == ["models:read"]
    assert claimed["client_id"].startswith("cli_")

    status, again, _ = await api.call("GET", f"/v1/pairing/{pairing['id']}")
    assert again["status"] == "claimed" and "token" not in again

    status, me, _ = await api.call("GET", "/v1/clients/me", token=claimed["token"])
    assert status == 200
    assert me["id"] == claimed["client_id"] and me["name"] == "Writer Pro"
    assert me["scopes"] == ["models:read"] and me["last_used_at"] is not None

    assert any(isinstance(n, PairingChanged) for n in seen)
    assert any(isinstance(n, ClientChanged) and not n.revoked for n in seen)

    # The token is stored only as a fingerprint.
    rows = await api.service.db.fetch_all("SELECT * FROM clients")
    assert claimed["token"] not in repr([dict(r) for r in rows])


async def test_approve_with_fewer_scopes_and_refuse_unrequested(api: Api) -> None:
    _, pairing, _ = await api.call("POST", "/v1/pairing", json={"client_name": "App"})
    status, error, _ = await api.call(
        "POST",
        f"/v1/admin/pairing/{pairing['id']}/approve",
        token=api.owner_token,
        json={"scopes": ["tasks:write"]},
    )
    assert status == 400 and error["error"]["param"] == "scopes"
    await api.service.approve_pairing(pairing["id"], ["models:read"])
    _, claimed, _ = await api.call("GET", f"/v1/pairing/{pairing['id']}")
    assert claimed["scopes"] == ["models:read"]


async def test_deny_abandon_and_unknown(api: Api) -> None:
    _, first, _ = await api.call("POST", "/v1/pairing", json={"client_name": "A"})
    status, denied, _ = await api.call(
        "POST", f"/v1/admin/pairing/{first['id']}/deny", token=api.owner_token
    )
    assert status == 200 and denied["status"] == "denied"
    _, polled, _ = await api.call("GET", f"/v1/pairing/{first['id']}")
    assert polled["status"] == "denied" and "token" not in polled
    status, body, _ = await api.call(
        "POST", f"/v1/admin/pairing/{first['id']}/approve", token=api.owner_token
    )
    assert status == 409 and body["error"]["code"] == "invalid_state"

    _, second, _ = await api.call("POST", "/v1/pairing", json={"client_name": "B"})
    status, _, _ = await api.call("DELETE", f"/v1/pairing/{second['id']}")
    assert status == 204
    status, body, _ = await api.call("GET", f"/v1/pairing/{second['id']}")
    assert status == 404 and body["error"]["code"] == "not_found"


async def test_expiry(api: Api) -> None:
    _, pairing, _ = await api.call("POST", "/v1/pairing", json={"client_name": "Late"})
    api.service.pairing._expire(pairing["id"])  # what the 120 s timer does
    _, polled, _ = await api.call("GET", f"/v1/pairing/{pairing['id']}")
    assert polled["status"] == "expired"
    assert api.service.list_pairings() == []


async def test_at_most_five_pending(api: Api) -> None:
    for number in range(5):
        status, _, _ = await api.call("POST", "/v1/pairing", json={"client_name": f"c{number}"})
        assert status == 202
    status, body, headers = await api.call("POST", "/v1/pairing", json={"client_name": "six"})
    assert status == 429 and body["error"]["code"] == "rate_limited"
    assert int(headers["Retry-After"]) >= 1


async def test_pairing_validation(api: Api) -> None:
    for body, param in (
        ({"client_name": ""}, "client_name"),
        ({"client_name": "x" * 65}, "client_name"),
        ({"client_name": "a\nb"}, "client_name"),
        ({"client_name": "ok", "scopes": ["admin"]}, "scopes.0"),
        ({"client_name": "ok", "extra": 1}, "extra"),
    ):
        status, error, _ = await api.call("POST", "/v1/pairing", json=body)
        assert status == 400, body
        assert error["error"]["code"] == "invalid_request"
        assert error["error"]["param"] == param


async def test_revocation_is_immediate(api: Api) -> None:
    claimed = await api.pair()
    status, clients, _ = await api.call("GET", "/v1/admin/clients", token=api.owner_token)
    assert status == 200 and [c["id"] for c in clients["data"]] == [claimed["client_id"]]
    status, _, _ = await api.call(
        "DELETE", f"/v1/admin/clients/{claimed['client_id']}", token=api.owner_token
    )
    assert status == 204
    status, body, _ = await api.call("GET", "/v1/clients/me", token=claimed["token"])
    assert status == 401 and body["error"]["code"] == "unauthorized"
    assert await api.service.list_clients() == []
    status, _, _ = await api.call(
        "DELETE", f"/v1/admin/clients/{claimed['client_id']}", token=api.owner_token
    )
    assert status == 404


async def test_owner_token_file_and_identity(api: Api) -> None:
    path = api.service.layout.owner_token
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert re.fullmatch(r"lmsp_[A-Za-z0-9_-]{43}", api.owner_token)
    status, me, _ = await api.call("GET", "/v1/clients/me", token=api.owner_token)
    assert status == 200 and me["scopes"] == ["admin"]
    # The owner token never appears in an answer.
    _, document, _ = await api.call("GET", "/openapi.json")
    assert api.owner_token not in repr(document)


async def test_owner_token_changes_at_each_start(api: Api) -> None:
    before = api.owner_token
    await api.service.stop()
    await api.service.start()
    after = api.service.layout.owner_token.read_text().strip()
    assert after != before
    api.url = api.service.url
    status, _, _ = await api.call("GET", "/v1/clients/me", token=before)
    assert status == 401
    status, _, _ = await api.call("GET", "/v1/clients/me", token=after)
    assert status == 200
