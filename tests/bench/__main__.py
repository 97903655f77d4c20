"""`make bench`: run every benchmark module (bench_*.py) in this folder, or those named.

    python -m tests.bench                 all benchmarks
    python -m tests.bench store recovery  only bench_store.py and bench_recovery.py

Each module has a ``main() -> None`` that prints its figures as ratios against a
baseline measured in the same run.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path


def main(names: list[str]) -> int:
    folder = Path(__file__).parent
    modules = sorted(p.stem for p in folder.glob("bench_*.py"))
    if names:
        modules = [m for m in modules if m.removeprefix("bench_") in names or m in names]
    for name in modules:
        print(f"== {name}", flush=True)
        module = importlib.import_module(f"tests.bench.{name}")
        module.main()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
