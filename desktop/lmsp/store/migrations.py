"""Numbered schema upgrade steps, versioned in ``PRAGMA user_version``.

Step N upgrades a database at version N-1 to version N. ``Database.open``
applies every pending step in order inside one transaction, so an upgrade
either happens whole or not at all. A step, once released, is never edited:
later changes are new steps.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MigrationStep:
    version: int
    description: str
    statements: tuple[str, ...]


_UNFINISHED = "('queued', 'loading', 'running', 'cancelling')"

STEPS: tuple[MigrationStep, ...] = (
    MigrationStep(
        1,
        "The seven tables of LMSP §5.1",
        (
            """CREATE TABLE service_config (
                key TEXT PRIMARY KEY,
                value TEXT NOT NULL
            ) WITHOUT ROWID""",
            """CREATE TABLE clients (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                token_sha256 TEXT NOT NULL UNIQUE,
                scopes TEXT NOT NULL,
                created_at TEXT NOT NULL,
                last_used_at TEXT,
                revoked_at TEXT
            )""",
            """CREATE TABLE models (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL UNIQUE,
                format TEXT NOT NULL,
                status TEXT NOT NULL,
                storage TEXT NOT NULL,
                path TEXT NOT NULL,
                size_bytes INTEGER NOT NULL,
                mtime_ns INTEGER NOT NULL,
                sha256 TEXT NOT NULL,
                metadata TEXT NOT NULL,
                source TEXT,
                created_at TEXT NOT NULL
            )""",
            """CREATE TABLE tasks (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                id TEXT NOT NULL UNIQUE,
                kind TEXT NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('queued', 'loading', 'running',
                    'cancelling', 'completed', 'failed', 'cancelled')),
                owner TEXT NOT NULL,
                model_id TEXT,
                on_restart TEXT NOT NULL CHECK (on_restart IN ('fail', 'retry', 'resume')),
                attempt INTEGER NOT NULL DEFAULT 1,
                last_sequence_number INTEGER NOT NULL DEFAULT 0,
                params TEXT NOT NULL DEFAULT '{}',
                progress TEXT,
                error TEXT,
                result TEXT,
                snapshot TEXT,
                snapshot_sequence_number INTEGER,
                created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL,
                finished_at TEXT
            )""",
            f"CREATE INDEX tasks_unfinished ON tasks(status) WHERE status IN {_UNFINISHED}",
            "CREATE INDEX tasks_owner ON tasks(owner, seq)",
            "CREATE INDEX tasks_model ON tasks(model_id) WHERE model_id IS NOT NULL",
            "CREATE INDEX tasks_finished_at ON tasks(finished_at) WHERE finished_at IS NOT NULL",
            """CREATE TABLE task_events (
                task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
                sequence_number INTEGER NOT NULL CHECK (sequence_number >= 1),
                type TEXT NOT NULL,
                data TEXT NOT NULL,
                created_at TEXT NOT NULL,
                PRIMARY KEY (task_id, sequence_number)
            ) WITHOUT ROWID""",
            """CREATE TABLE responses (
                task_id TEXT PRIMARY KEY REFERENCES tasks(id) ON DELETE CASCADE,
                model_id TEXT NOT NULL,
                input TEXT NOT NULL,
                instructions TEXT,
                generation TEXT NOT NULL,
                background INTEGER NOT NULL,
                output_text TEXT NOT NULL DEFAULT '',
                usage TEXT,
                metadata TEXT NOT NULL DEFAULT '{}',
                completed_at TEXT
            )""",
            """CREATE TABLE idempotency_keys (
                owner TEXT NOT NULL,
                key TEXT NOT NULL,
                fingerprint TEXT NOT NULL,
                status_code INTEGER,
                response_body TEXT,
                task_id TEXT,
                created_at TEXT NOT NULL,
                expires_at TEXT NOT NULL,
                PRIMARY KEY (owner, key)
            ) WITHOUT ROWID""",
            "CREATE INDEX idempotency_keys_expiry ON idempotency_keys(expires_at)",
        ),
    ),
)

LATEST_VERSION = STEPS[-1].version


def pending_steps(current_version: int) -> list[MigrationStep]:
    return [step for step in STEPS if step.version > current_version]
