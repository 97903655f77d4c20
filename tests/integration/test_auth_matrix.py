"""Every route in the app's router × every kind of bad credential (LMSP §2.2, §2.4).

``RULES`` must name every route the router knows: a new route without a rule
fails ``test_every_route_has_a_rule``, so no endpoint can ship unguarded.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

import pytest

from desktop.lmsp.api.app import build_app
from desktop.lmsp.clients import new_token
from desktop.lmsp.requests import ResponseRequest
from tests.integration.conftest import ALL_SCOPES, Api, register_fake_model

PUBLIC = "public"
ANY_TOKEN = "token"


@dataclass(frozen=True)
class Rule:
    auth: str | tuple[str, ...]  # PUBLIC, ANY_TOKEN, or the scopes (any of them) it needs
    owned: bool = False  # {id} names a task or response of one client


RULES: dict[tuple[str, str], Rule] = {
    ("GET", "/v1/health"): Rule(PUBLIC),
    ("GET", "/v1/service"): Rule(PUBLIC),
    ("GET", "/openapi.json"): Rule(PUBLIC),
    ("POST", "/v1/pairing"): Rule(PUBLIC),
    ("GET", "/v1/pairing/{id}"): Rule(PUBLIC),
    ("DELETE", "/v1/pairing/{id}"): Rule(PUBLIC),
    ("GET", "/v1/clients/me"): Rule(ANY_TOKEN),
    ("GET", "/v1/admin/pairing"): Rule(("admin",)),
    ("POST", "/v1/admin/pairing/{id}/approve"): Rule(("admin",)),
    ("POST", "/v1/admin/pairing/{id}/deny"): Rule(("admin",)),
    ("GET", "/v1/admin/clients"): Rule(("admin",)),
    ("DELETE", "/v1/admin/clients/{id}"): Rule(("admin",)),
    ("GET", "/v1/admin/tasks"): Rule(("admin",)),
    ("GET", "/v1/models"): Rule(("models:read",)),
    ("POST", "/v1/models"): Rule(("models:write",)),
    ("GET", "/v1/models/{id}"): Rule(("models:read",)),
    ("DELETE", "/v1/models/{id}"): Rule(("models:write",)),
    ("POST", "/v1/responses"): Rule(("responses:write",)),
    ("GET", "/v1/responses/{id}"): Rule(("responses:read",), owned=True),
    ("DELETE", "/v1/responses/{id}"): Rule(("responses:write",), owned=True),
    ("POST", "/v1/responses/{id}/cancel"): Rule(("responses:write",), owned=True),
    ("GET", "/v1/responses/{id}/events"): Rule(("responses:read",), owned=True),
    ("GET", "/v1/tasks"): Rule(("tasks:read",)),
    ("GET", "/v1/tasks/{id}"): Rule(("tasks:read",), owned=True),
    ("POST", "/v1/tasks/{id}/cancel"): Rule(("tasks:write", "responses:write"), owned=True),
    ("GET", "/v1/tasks/{id}/events"): Rule(("tasks:read",), owned=True),
    # OpenAI-compatible endpoints (LMSP §10): same tokens, same scopes
    ("GET", "/openai/v1/models"): Rule(("models:read",)),
    ("GET", "/openai/v1/models/{id}"): Rule(("models:read",)),
    ("POST", "/openai/v1/chat/completions"): Rule(("responses:write",)),
    ("POST", "/openai/v1/responses"): Rule(("responses:write",)),
    ("GET", "/openai/v1/responses/{id}"): Rule(("responses:read",), owned=True),
    ("POST", "/openai/v1/responses/{id}/cancel"): Rule(("responses:write",), owned=True),
    ("DELETE", "/openai/v1/responses/{id}"): Rule(("responses:write",), owned=True),
}


def router_routes(api: Api) -> set[tuple[str, str]]:
    app = build_app(api.service)
    found = set()
    for route in app.router.routes():
        info = route.resource.get_info() if route.resource is not None else {}
        path = info.get("formatter") or info.get("path")
        found.add((route.method, str(path)))
    return found


def test_every_route_has_a_rule(api: Api) -> None:
    assert router_routes(api) == set(RULES)


@pytest.fixture
async def world(api: Api) -> dict[str, str]:
    """Client A owns a response; B has every scope; C was revoked; D has one unrelated scope."""
    api.service.set_paused(True)
    model_id = await register_fake_model(api.service)
    a = await api.pair("A", ALL_SCOPES)
    b = await api.pair("B", ALL_SCOPES)
    c = await api.pair("C", ALL_SCOPES)
    await api.service.revoke_client(c["client_id"])
    response = await api.service.create_response(
        ResponseRequest(model="fake-model", input="hi", background=True), owner=a["client_id"]
    )
    return {
        "a": a["token"],
        "b": b["token"],
        "revoked": c["token"],
        "resource": response["id"],
        "model": model_id,
        "client": b["client_id"],
    }


def _path(template: str, world: dict[str, str]) -> str:
    if "/models/" in template:
        return template.replace("{id}", world["model"])
    if "/admin/clients/" in template:
        return template.replace("{id}", world["client"])
    if "/pairing/" in template:
        return template.replace("{id}", "pair_" + secrets.token_hex(16))
    return template.replace("{id}", world["resource"])


def _scopes_missing(needed: tuple[str, ...]) -> list[str]:
    return [s for s in ALL_SCOPES if s not in needed][:1] or ["models:read"]


async def test_bad_credentials_on_every_route(api: Api, world: dict[str, str]) -> None:
    unscoped: dict[tuple[str, ...], str] = {}
    failures = []
    for (method, template), rule in sorted(RULES.items()):
        if rule.auth == PUBLIC:
            continue
        path = _path(template, world)
        cases = {
            "no token": (None, 401),
            "malformed token": ("not-a-token", 401),
            "unknown token": (new_token(), 401),
            "revoked token": (world["revoked"], 401),
        }
        if isinstance(rule.auth, tuple):
            if rule.auth not in unscoped:
                scopes = _scopes_missing(rule.auth)
                unscoped[rule.auth] = (await api.pair("unscoped", scopes))["token"]
            cases["token without the scope"] = (unscoped[rule.auth], 403)
        if rule.owned:
            cases["another client's resource"] = (world["b"], 404)
        for case, (token, expected) in cases.items():
            status, body, _ = await api.call(method, path, token=token, json={})
            code = body["error"]["code"] if isinstance(body, dict) and "error" in body else None
            expected_code = {401: "unauthorized", 403: "insufficient_scope", 404: "not_found"}
            if status != expected or code != expected_code[expected]:
                failures.append(f"{method} {template} [{case}]: {status} {code}")
    assert not failures, "\n".join(failures)


async def test_owner_reaches_its_clients_resources(api: Api, world: dict[str, str]) -> None:
    for (method, template), rule in sorted(RULES.items()):
        if method != "GET" or not rule.owned:
            continue
        status, body, _ = await api.call(method, _path(template, world), token=api.owner_token)
        assert status == 200, (template, body)
        status, body, _ = await api.call(method, _path(template, world), token=world["a"])
        assert status == 200, (template, body)


async def test_clients_list_only_their_own_tasks(api: Api, world: dict[str, str]) -> None:
    _, mine, _ = await api.call("GET", "/v1/tasks", token=world["a"])
    _, theirs, _ = await api.call("GET", "/v1/tasks", token=world["b"])
    _, everything, _ = await api.call("GET", "/v1/admin/tasks", token=api.owner_token)
    assert [t["id"] for t in mine["data"]] == [world["resource"]]
    assert theirs["data"] == []
    assert world["resource"] in [t["id"] for t in everything["data"]]
