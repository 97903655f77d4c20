"""Local security (LMSP §7) and error mapping (§1.1) over real HTTP."""

from __future__ import annotations

import io
import json
import logging
import socket
from pathlib import Path

import pytest

from desktop.lmsp.errors import PortInUse
from desktop.lmsp.service import Service, ServiceOptions
from tests.integration.conftest import Api


async def test_host_allow_list(api: Api) -> None:
    port = api.service.port
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"):
        status, _, _ = await api.call("GET", "/v1/health", headers={"Host": host})
        assert status == 200, host
    for host in ("evil.example", f"evil.example:{port}", "127.0.0.1:1", "localhost"):
        status, body, _ = await api.call("GET", "/v1/health", headers={"Host": host})
        assert status == 421 and body["error"]["code"] == "invalid_host", host
    await api.service.update_settings({"allowed_hosts": ["box.lan"]})
    status, _, _ = await api.call("GET", "/v1/health", headers={"Host": f"box.lan:{port}"})
    assert status == 200


async def test_host_checked_before_anything_else(api: Api) -> None:
    status, body, _ = await api.call(
        "GET", "/v1/tasks", headers={"Host": "evil.example", "Origin": "http://evil.example"}
    )
    assert status == 421 and body["error"]["code"] == "invalid_host"


async def test_origin_refused_unless_allowed(api: Api) -> None:
    status, body, headers = await api.call(
        "GET", "/v1/health", headers={"Origin": "http://evil.example"}
    )
    assert status == 403 and body["error"]["code"] == "forbidden_origin"
    assert "Access-Control-Allow-Origin" not in headers
    await api.service.update_settings({"allowed_origins": ["http://app.local"]})
    status, _, _ = await api.call("GET", "/v1/health", headers={"Origin": "http://app.local"})
    assert status == 200


async def test_body_limit(api: Api) -> None:
    big = io.BytesIO(b"{" + b" " * (1024 * 1024 + 10) + b"}")
    async with api.http.post(
        api.url + "/v1/pairing", data=big, headers={"Content-Type": "application/json"}
    ) as response:
        assert response.status == 413
        assert (await response.json())["error"]["code"] == "payload_too_large"

    async def chunks():  # no Content-Length: the limit applies while reading
        for _ in range(20):
            yield b" " * (64 * 1024)

    async with api.http.post(api.url + "/v1/pairing", data=chunks()) as response:
        assert response.status == 413
        assert (await response.json())["error"]["code"] == "payload_too_large"


async def test_unknown_route_and_method(api: Api) -> None:
    status, body, _ = await api.call("GET", "/v1/nothing-here")
    assert status == 404 and body["error"]["code"] == "not_found"
    status, body, headers = await api.call("PUT", "/v1/tasks")
    assert status == 405 and body["error"]["code"] == "method_not_allowed"
    assert headers["Allow"] == "GET"


async def test_bug_is_a_generic_500_logged_with_traceback(
    api: Api, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(**_: object) -> None:
        raise RuntimeError("secret internals at /home/user")

    monkeypatch.setattr(api.service, "list_tasks", broken)
    with caplog.at_level(logging.ERROR):
        status, body, _ = await api.call("GET", "/v1/tasks", token=api.owner_token)
    assert status == 500
    assert body == {
        "error": {"code": "internal_error", "message": "The service hit an unexpected error"}
    }
    assert any(record.exc_info for record in caplog.records)


async def test_logs_never_carry_tokens_or_pairing_ids(
    api: Api, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG):
        claimed = await api.pair()
        await api.call("GET", "/v1/clients/me", token=claimed["token"])
        await api.call("GET", "/v1/tasks", token=api.owner_token)
    text = caplog.text
    assert claimed["token"] not in text and api.owner_token not in text
    pairing_id = claimed["id"]
    assert pairing_id not in text
    assert "GET /v1/clients/me 200 client=" + claimed["client_id"] in text


async def test_health_while_starting_and_discovery_file(api: Api) -> None:
    api.service.state = "starting"
    status, body, headers = await api.call("GET", "/v1/health")
    assert status == 503 and body == {"status": "starting"} and headers["Retry-After"]
    api.service.state = "running"
    discovery = api.service.layout.discovery_file
    info = json.loads(discovery.read_text())
    assert info["url"] == api.url and info["protocol"] == "lmsp/1.0"
    assert info["service_id"] == api.service.service_id


async def test_port_in_use_is_a_clear_error(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        service = Service(ServiceOptions(data_dir=tmp_path / "data", port=port))
        with pytest.raises(PortInUse, match=f"Port {port}"):
            await service.start()
    assert service.state == "stopped"
    assert not service.layout.discovery_file.exists()
    # The data dir is free again: a service on a free port starts.
    again = Service(ServiceOptions(data_dir=tmp_path / "data", port=0))
    await again.start()
    await again.stop()
    assert not again.layout.discovery_file.exists()


async def test_restart_listener_follows_settings_and_survives_a_taken_port(api: Api) -> None:
    service = api.service
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free_port = probe.getsockname()[1]
    object.__setattr__(service.options, "port", None)  # let the settings choose the port
    await service.update_settings({"port": free_port})
    await service.restart_listener()
    assert service.port == free_port and service.url.endswith(f":{free_port}")
    api.url = service.url
    status, _, _ = await api.call("GET", "/v1/health")
    assert status == 200
    discovery = json.loads(service.layout.discovery_file.read_text())
    assert discovery["url"] == service.url

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        await service.update_settings({"port": taken.getsockname()[1]})
        with pytest.raises(PortInUse):
            await service.restart_listener()
    assert service.port == free_port  # back on the old address
    status, _, _ = await api.call("GET", "/v1/health")
    assert status == 200
