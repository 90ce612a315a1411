"""What the per-call bounds buy: peak memory and time of hostile calls, bounded against unbounded.

python benchmarks/bench_bounds.py [--sparse-gb 2] [--skip-unbounded]

Each measurement runs in a fresh Python process and reports its peak resident memory growth
(VmHWM minus VmRSS before the call), so one measurement cannot hide behind another's peak.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

PROBE = textwrap.dedent(
    """
    import json, sys, threading, time
    from pathlib import Path
    from agentlib.sandbox import Limits, Workspace

    def kb(path, field):
        for line in Path(path).read_text().splitlines():
            if line.startswith(field):
                return int(line.split()[1]) * 1024

    def rss(field):
        return kb("/proc/self/status", field)

    lowest = [kb("/proc/meminfo", "MemAvailable:")]
    done = threading.Event()

    def sample():  # the machine's free memory, for what the command's processes take
        while not done.wait(0.005):
            lowest.append(min(lowest[-1], kb("/proc/meminfo", "MemAvailable:")))

    root, case = sys.argv[1], sys.argv[2]
    ws = Workspace(root, isolation="auto")
    before = rss("VmRSS:")
    available = lowest[0]
    threading.Thread(target=sample, daemon=True).start()
    start = time.perf_counter()
    try:
        outcome = "ok: " + str({body})[-90:].replace("\\n", " ")
    except Exception as exc:
        outcome = type(exc).__name__ + ": " + str(exc)[:90]
    took = time.perf_counter() - start
    done.set()
    machine = available - min(lowest)
    print(json.dumps({{"growth": rss("VmHWM:") - before, "machine": machine,
                       "seconds": took, "outcome": outcome}}))
    """
)

GRAB = "python3 -c 'x = (2 << 30) * chr(120)'"  # 2 GB, every page touched
CASES = {
    "read_file, bounded": "ws.read_file('hole.bin')[-60:]",
    "read the whole file (the seed's read_text)": "len(Path(root, 'hole.bin').read_text())",
    "edit_file replace_all over the cap": "ws.edit_file('small.txt', 'a', 'b' * 200, True)",
    "the same replace, unbounded": "len(Path(root, 'small.txt').read_text().replace('a', 'b' * 200))",
    "bash allocating 2 GB, 1 GB bound": f"ws.bash({GRAB!r})",
    "bash allocating 2 GB, 4 GB bound": (
        f"Workspace(root, isolation='auto', limits=Limits(memory_bytes=4 << 30)).bash({GRAB!r})"
    ),
}
UNBOUNDED = {"read the whole file (the seed's read_text)", "the same replace, unbounded"}


def measure(root: Path, case: str) -> dict:
    code = PROBE.format(body=CASES[case])
    done = subprocess.run(
        [sys.executable, "-c", code, str(root), case], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        return {"growth": 0, "machine": 0, "seconds": 0, "outcome": done.stderr.strip()[-200:]}
    return json.loads(done.stdout.splitlines()[-1])


def worst_glob(root: Path, seconds: float | None) -> tuple[float, float, str]:
    """Wall time of hundreds of '**' over one deep folder, against the glob_seconds bound."""
    from agentlib.sandbox import Limits, Workspace

    root.joinpath("deep", *["x"] * 200).mkdir(parents=True, exist_ok=True)
    limits = Limits() if seconds is None else Limits(glob_seconds=seconds)
    ws = Workspace(root / "deep", isolation="none", limits=limits)
    pattern = "/".join(["**", "x*"] * 300) + "/nothing"
    start = time.perf_counter()
    out = ws.glob(pattern)
    return time.perf_counter() - start, ws.limits.glob_seconds, out.splitlines()[-1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sparse-gb", type=float, default=2.0)
    parser.add_argument("--skip-unbounded", action="store_true", help="skip the costly baselines")
    args = parser.parse_args()
    mb = 1 << 20
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        with open(root / "hole.bin", "wb") as f:
            f.truncate(int(args.sparse_gb * (1 << 30)))
        (root / "small.txt").write_text("a\n" * 500_000)
        print(f"{args.sparse_gb:g} GB sparse file, 1 MB file edited 200-fold (limits: defaults)")
        for case in CASES:
            if args.skip_unbounded and (case in UNBOUNDED or "4 GB" in case):
                continue
            got = measure(root, case)
            print(
                f"  {case:44} peak growth {got['growth'] / mb:8.1f} MB,"
                f" machine {got['machine'] / mb:7.1f} MB, {got['seconds']:6.2f} s"
                f"  [{got['outcome'][:70]}]"
            )
        for seconds in (None, 0.5):
            took, bound, last = worst_glob(root, seconds)
            print(
                f"  worst glob: {took:.2f} s against a {bound:g} s bound, ratio {took / bound:.2f}"
                f"  [{last[:90]}]"
            )


if __name__ == "__main__":
    main()
