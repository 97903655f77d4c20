"""``/v1/models`` (LMSP §3): list, read, import or download, delete."""

from __future__ import annotations

from aiohttp import web

from desktop.lmsp.api import idempotency
from desktop.lmsp.api.context import KEY_GUARD, principal_of, read_body, service_of
from desktop.lmsp.api.schemas import CreateModelBody, DownloadSource
from desktop.lmsp.errors import InvalidRequest
from desktop.lmsp.requests import ModelDownloadRequest, ModelImportRequest


async def list_models(request: web.Request) -> web.StreamResponse:
    return web.json_response({"object": "list", "data": await service_of(request).list_models()})


async def get_model(request: web.Request) -> web.StreamResponse:
    return web.json_response(await service_of(request).get_model(request.match_info["id"]))


async def create_model(request: web.Request) -> web.StreamResponse:
    body, raw = await read_body(request, CreateModelBody)
    if isinstance(body.source, DownloadSource) and body.storage is not None:
        raise InvalidRequest("storage applies only to a local file", param="storage")
    principal = principal_of(request)
    service = service_of(request)
    key = idempotency.key_for(request, principal.task_owner, raw)

    async def current_task(task_id: str) -> web.StreamResponse:
        return web.json_response((await service.get_task(task_id)).to_api())

    async with request.app[KEY_GUARD].hold(key):
        replayed = await idempotency.replay(request, key, current_task)
        if replayed is not None:
            return replayed
        if isinstance(body.source, DownloadSource):
            download = ModelDownloadRequest(
                url=body.source.url,
                sha256=body.source.sha256.lower() if body.source.sha256 else None,
                name=body.name,
                on_restart=body.on_restart,
            )
            task = await service.download_model(
                download, owner=principal.task_owner, idempotency=key
            )
        else:
            local = ModelImportRequest(
                path=body.source.path,
                storage=body.storage or "copy",
                name=body.name,
                on_restart=body.on_restart,
            )
            task = await service.import_model(local, owner=principal.task_owner, idempotency=key)
    return web.json_response(
        task.to_api(), status=202, headers={"Location": f"/v1/tasks/{task.id}"}
    )


async def delete_model(request: web.Request) -> web.StreamResponse:
    await service_of(request).delete_model(request.match_info["id"])
    return web.Response(status=204)
