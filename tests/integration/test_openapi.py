"""``/openapi.json`` (LMSP §8): its shape, and schemathesis against the live service."""

from __future__ import annotations

from typing import Any

import hypothesis
import schemathesis
from hypothesis import HealthCheck, Phase
from schemathesis import checks

from desktop.lmsp.api.routes import ROUTES
from tests.integration.conftest import Api

MAX_EXAMPLES = 12
# Conformance checks. "Positive data acceptance" is left out on purpose: a valid
# request may rightly be refused by state (a reused Idempotency-Key is 422).
CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_headers_conformance,
    checks.response_schema_conformance,
]


async def test_document_covers_every_route(api: Api) -> None:
    status, document, _ = await api.call("GET", "/openapi.json")
    assert status == 200 and document["openapi"] == "3.1.0"
    for route in ROUTES:
        operation = document["paths"][route.path][route.method.lower()]
        assert operation["responses"], route.path
        if route.body is not None:
            schema_ref = operation["requestBody"]["content"]["application/json"]["schema"]
            name = schema_ref["$ref"].rsplit("/", 1)[-1]
            assert name == route.body.__name__
            assert name in document["components"]["schemas"]
    create = document["components"]["schemas"]["CreateResponseBody"]
    assert create["additionalProperties"] is False
    assert create["properties"]["max_output_tokens"]["maximum"] == 32768


def run_schemathesis(document: dict[str, Any], base_url: str, token: str) -> None:
    """Generate requests for every operation; the first failing check raises."""
    schema = schemathesis.openapi.from_dict(document)
    for result in schema.get_all_operations():
        operation = result.ok()

        @hypothesis.settings(
            max_examples=MAX_EXAMPLES,
            deadline=None,
            database=None,
            derandomize=True,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @hypothesis.given(case=operation.as_strategy())
        def check(case: Any) -> None:
            response = case.call(
                base_url=base_url, headers={"Authorization": f"Bearer {token}"}, timeout=10
            )
            case.validate_response(response, checks=CHECKS)

        check()


async def test_schemathesis_conformance(api: Api) -> None:
    import asyncio

    api.service.set_paused(True)  # generated tasks stay queued: no downloads, no generation
    _, document, _ = await api.call("GET", "/openapi.json")
    await asyncio.to_thread(run_schemathesis, document, api.url, api.owner_token)
