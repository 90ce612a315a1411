"""The bash tool's budgets: peak memory on a command printing 1 GB, and a background child vs the timeout.

Each measurement runs in a fresh Python process so its peak RSS (getrusage) is its own.
Prints the numbers against their targets (memory under 64 MB, wall time under 6 s) and the
seed's run_bash on the same commands for contrast (on 100 MB only: 1 GB would take gigabytes).

    python benchmarks/bench_shell.py
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile

CHILD = r"""
import json, resource, sys, time
from agentlib.seed import seed_run_bash
from agentlib.sandbox.workspace import Workspace
root, which, command, timeout = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
ws = Workspace(root, isolation="none")
ws.bash("true")
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
try:
    out = ws.bash(command, timeout=timeout) if which == "workspace" else seed_run_bash(command, root, timeout)
except Exception as exc:
    out = str(exc)
wall = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"before_kb": before, "peak_kb": peak, "wall_s": wall, "chars": len(out)}))
"""

GB = "head -c 1000000000 /dev/zero | tr '\\0' 'x'"
HUNDRED_MB = "head -c 100000000 /dev/zero | tr '\\0' 'x'"


def measure(which: str, command: str, timeout: float) -> dict:
    with tempfile.TemporaryDirectory() as root:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, root, which, command, str(timeout)],
            capture_output=True,
            text=True,
            check=True,
        )
    return json.loads(done.stdout)


def main() -> None:
    print("bash tool budgets (Workspace, isolation='none')")
    big = measure("workspace", GB, 600)
    peak_mb = big["peak_kb"] / 1024
    print(
        f"  1 GB of output: peak RSS {peak_mb:.1f} MB (before the command {big['before_kb'] / 1024:.1f} MB),"
        f" target < 64 MB, ratio {peak_mb / 64:.2f}; {big['wall_s']:.1f} s; returned {big['chars']} chars"
    )
    seed = measure("seed", HUNDRED_MB, 600)
    print(
        f"  seed run_bash, 100 MB of output: peak RSS {seed['peak_kb'] / 1024:.1f} MB"
        f" (grows with the output; 1 GB would need several GB)"
    )
    bg = measure("workspace", "sleep 100 & echo hi", 5)
    print(
        f"  'sleep 100 & echo hi', timeout 5 s: {bg['wall_s']:.2f} s, target < 6 s, ratio {bg['wall_s'] / 6:.2f}"
    )
    seed_bg = measure("seed", "sleep 30 & echo hi", 5)
    print(
        f"  seed run_bash, 'sleep 30 & echo hi', timeout 5 s: {seed_bg['wall_s']:.2f} s"
        " (the pipe stays open: a timeout is reported for a command that finished at once,"
        " and the background child keeps running)"
    )


if __name__ == "__main__":
    main()
