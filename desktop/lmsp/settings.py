"""The settings of LMSP §9, as one declarative table.

Each ``SettingSpec`` gives a key, its type, bounds or choices, its default, a
description and how a change is applied. The service validates every change
with this table and the settings window builds its fields from it, so the two
can never disagree.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from enum import Enum
from typing import Any

from desktop.lmsp.errors import InvalidRequest


class ApplyMode(Enum):
    LIVE = "live"
    RESTART_LISTENER = "restart_listener"


@dataclass(frozen=True)
class SettingSpec:
    key: str
    kind: type
    default: Any
    label: str
    description: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] | None = None
    apply: ApplyMode = ApplyMode.LIVE

    def validate(self, value: Any) -> Any:
        """Return the value in canonical form, or raise ``InvalidRequest``."""
        if self.kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidRequest(f"{self.key} must be an integer", param=self.key)
            if self.minimum is not None and value < self.minimum:
                raise InvalidRequest(f"{self.key} must be at least {self.minimum}", param=self.key)
            if self.maximum is not None and value > self.maximum:
                raise InvalidRequest(f"{self.key} must be at most {self.maximum}", param=self.key)
            return value
        if self.kind is str:
            if not isinstance(value, str):
                raise InvalidRequest(f"{self.key} must be a string", param=self.key)
            if self.choices is not None and value not in self.choices:
                allowed = ", ".join(self.choices)
                raise InvalidRequest(f"{self.key} must be one of: {allowed}", param=self.key)
            if self.key == "bind_host":
                return _validate_host(value)
            return value
        if self.kind is list:
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise InvalidRequest(f"{self.key} must be a list of strings", param=self.key)
            cleaned = [v.strip() for v in value if v.strip()]
            if any(len(v) > 253 or any(c.isspace() for c in v) for v in cleaned):
                raise InvalidRequest(f"{self.key} has an invalid entry", param=self.key)
            return cleaned
        raise TypeError(f"unsupported setting kind {self.kind!r}")


def _validate_host(value: str) -> str:
    try:
        return str(ipaddress.ip_address(value.strip()))
    except ValueError:
        raise InvalidRequest(
            "bind_host must be an IP address such as 127.0.0.1", param="bind_host"
        ) from None


def is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


RESTART_POLICIES = ("fail", "retry", "resume")

SETTINGS: tuple[SettingSpec, ...] = (
    SettingSpec(
        "port",
        int,
        8731,
        "Port",
        "Listening port (0 = any free port).",
        minimum=0,
        maximum=65535,
        apply=ApplyMode.RESTART_LISTENER,
    ),
    SettingSpec(
        "bind_host",
        str,
        "127.0.0.1",
        "Bind address",
        "Listening address. Anything but loopback exposes the service to the network.",
        apply=ApplyMode.RESTART_LISTENER,
    ),
    SettingSpec(
        "retention_days",
        int,
        30,
        "Keep finished tasks (days)",
        "How long finished tasks and their events are kept.",
        minimum=1,
        maximum=3650,
    ),
    SettingSpec(
        "idempotency_ttl_hours",
        int,
        24,
        "Keep idempotency keys (hours)",
        "How long idempotency keys are remembered.",
        minimum=1,
        maximum=720,
    ),
    SettingSpec(
        "default_on_restart",
        str,
        "resume",
        "Default restart policy",
        "What happens to a background task after a crash when it does not say.",
        choices=RESTART_POLICIES,
    ),
    SettingSpec(
        "max_attempts",
        int,
        3,
        "Max attempts",
        "A task that would start more attempts than this fails (crash-loop guard).",
        minimum=1,
        maximum=100,
    ),
    SettingSpec(
        "max_concurrent_tasks",
        int,
        1,
        "Tasks at once",
        "How many tasks run at the same time.",
        minimum=1,
        maximum=16,
    ),
    SettingSpec(
        "snapshot_every_tokens",
        int,
        16,
        "Snapshot every (tokens)",
        "Output is committed at least every this many tokens.",
        minimum=1,
        maximum=4096,
    ),
    SettingSpec(
        "snapshot_interval_ms",
        int,
        250,
        "Snapshot interval (ms)",
        "Output is committed at least this often.",
        minimum=10,
        maximum=60000,
    ),
    SettingSpec(
        "allowed_hosts",
        list,
        [],
        "Allowed Host names",
        "Extra Host header names accepted besides loopback (DNS-rebinding defence).",
    ),
    SettingSpec(
        "allowed_origins",
        list,
        [],
        "Allowed origins",
        "Browser origins allowed to call the service (empty: none).",
    ),
)

SETTINGS_BY_KEY: dict[str, SettingSpec] = {spec.key: spec for spec in SETTINGS}


def default_settings() -> dict[str, Any]:
    return {
        spec.key: (list(spec.default) if spec.kind is list else spec.default) for spec in SETTINGS
    }


def validate_changes(changes: dict[str, Any]) -> dict[str, Any]:
    """Validate a partial update; unknown keys are refused."""
    cleaned: dict[str, Any] = {}
    for key, value in changes.items():
        spec = SETTINGS_BY_KEY.get(key)
        if spec is None:
            raise InvalidRequest(f"unknown setting {key!r}", param=key)
        cleaned[key] = spec.validate(value)
    return cleaned
