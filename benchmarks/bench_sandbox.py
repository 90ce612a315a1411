"""What the sandbox costs: bash("true") unisolated, under unshare and bubblewrap, in an empty workspace and
in one of 10,000 files (the sweep after each call walks it); race-free opens vs open().

python benchmarks/bench_sandbox.py [--runs 30] [--reads 5000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from agentlib.sandbox import files, isolation, tree
from agentlib.sandbox.workspace import Workspace


def per_call(fn, n: int) -> float:
    """Median seconds per call over ``n`` calls, after one warm-up."""
    fn()
    times = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--reads", type=int, default=5000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        plain = Workspace(root, isolation="none")
        t_plain = per_call(lambda: plain.bash("true"), args.runs)
        timings = [f"unisolated {t_plain * 1e3:.1f} ms"]
        for mode in ("unshare", "bwrap"):  # the cost of each isolation, and of its cgroup
            works, why = isolation.probe(mode)
            if works:
                boxed = Workspace(root, isolation=mode)
                t_boxed = per_call(lambda ws=boxed: ws.bash("true"), args.runs)
                timings.append(f"{mode} {t_boxed * 1e3:.1f} ms (ratio {t_boxed / t_plain:.2f})")
            else:
                timings.append(f"{mode} unavailable ({why})")
        print("bash('true'): " + ", ".join(timings))

        with tempfile.TemporaryDirectory() as small:
            for i in range(20):
                (Path(small) / f"f{i}.py").write_text("x = 1\n")
            t_small = per_call(lambda: tree.sweep(small), args.reads)
        with tempfile.TemporaryDirectory() as full:  # the sweep after each call walks every file
            for i in range(100):
                (Path(full) / f"d{i}").mkdir()
                for j in range(100):
                    (Path(full) / f"d{i}" / f"f{j}.py").write_text("x = 1\n")
            t_sweep = per_call(lambda: tree.sweep(full), args.runs)
            crowded = Workspace(full, isolation="none")
            t_full = per_call(lambda: crowded.bash("true"), args.runs)
            print(f"20 files: the sweep alone {t_small * 1e3:.2f} ms")
            print(
                f"10,000 files: the sweep alone {t_sweep * 1e3:.1f} ms, unisolated bash('true') "
                f"{t_full * 1e3:.1f} ms (ratio {t_full / t_plain:.2f} to the empty workspace)"
            )

        (root / "src").mkdir()
        target = root / "src" / "module.py"
        target.write_text("x = 1\n" * 200)

        def plain_read():
            with open(target, encoding="utf-8") as f:
                return f.read()

        t_open = per_call(plain_read, args.reads)
        t_tool = per_call(lambda: plain.read_file("src/module.py"), args.reads)
        root_fd = os.open(root, os.O_RDONLY)
        t_os = per_call(lambda: os.close(os.open(target, os.O_RDONLY)), args.reads)
        t_beneath = per_call(
            lambda: os.close(files.open_beneath(root_fd, "src/module.py", os.O_RDONLY)),
            args.reads,
        )
        os.close(root_fd)
        print(
            f"file open ({files.METHOD}): os.open {t_os * 1e6:.1f} us, open_beneath {t_beneath * 1e6:.1f} us, ratio {t_beneath / t_os:.2f}"
        )
        print(
            f"whole read: open().read() {t_open * 1e6:.1f} us, Workspace.read_file {t_tool * 1e6:.1f} us"
            f" (safe_path + race-free open + checks), ratio {t_tool / t_open:.2f}"
        )


if __name__ == "__main__":
    main()
