"""Round diagram costs: bytes and kernel time per live round, and static HTML render time.

Run: python benchmarks/bench_widget.py   (prints numbers and ratios; no pass/fail)
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import ClassVar

import comm

from agentlib.widgets import live, show

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from widget_examples import long_run

ROUNDS = 200


class CountingComm(comm.DummyComm):
    """Counts the JSON bytes of every message the widget would send to the front end."""

    log: ClassVar[list[tuple[int, int]]] = []  # (round, bytes)
    current_round = 0

    def publish_msg(self, msg_type, data=None, metadata=None, buffers=None, **keys):
        size = len(json.dumps(data, separators=(",", ":")).encode())
        size += sum(len(b) for b in buffers or [])
        CountingComm.log.append((CountingComm.current_round, size))


def bytes_per_round() -> dict[int, int]:
    comm.create_comm = lambda *a, **k: CountingComm(*a, **k)
    diagram = live(display=False)
    CountingComm.log.clear()
    for event in long_run(ROUNDS):
        CountingComm.current_round = event.round
        diagram.on_event(event)
    totals: dict[int, int] = {}
    for round_, size in CountingComm.log:
        totals[round_] = totals.get(round_, 0) + size
    return totals


def seconds_per_round(repeats: int = 5) -> dict[int, float]:
    """Kernel time ``on_event`` takes for each round of a live run (best of ``repeats`` runs)."""
    comm.create_comm = lambda *a, **k: comm.DummyComm(*a, **k)
    best: dict[int, float] = {}
    for _ in range(repeats):
        diagram = live(display=False)
        spent: dict[int, float] = {}
        for event in long_run(ROUNDS):
            started = time.perf_counter()
            diagram.on_event(event)
            spent[event.round] = spent.get(event.round, 0.0) + time.perf_counter() - started
        best = {k: min(v, best.get(k, v)) for k, v in spent.items()}
    return best


def main() -> None:
    took = seconds_per_round()
    early = sum(took[k] for k in range(6, 16)) / 10
    late = sum(took[k] for k in range(ROUNDS - 10, ROUNDS)) / 10
    print(
        f"live kernel time: rounds 6-15 {early * 1e3:.2f} ms/round, rounds {ROUNDS - 10}-{ROUNDS - 1} "
        f"{late * 1e3:.2f} ms/round, ratio {late / early:.2f} (target: does not grow with the history)"
    )
    totals = bytes_per_round()
    r10, r200 = totals[10], totals[ROUNDS]
    print(f"live traffic: round 10 sent {r10} bytes, round {ROUNDS} sent {r200} bytes")
    print(f"ratio round {ROUNDS} / round 10 = {r200 / r10:.2f} (target <= 1.5)")
    print(f"round {ROUNDS - 1} (the last with a tool call) sent {totals[ROUNDS - 1]} bytes")
    print(f"whole run sent {sum(totals.values())} bytes over {ROUNDS} rounds")

    events = long_run(ROUNDS)
    diagram = show(events)
    best = float("inf")
    for _ in range(5):
        started = time.perf_counter()
        data, _ = diagram._repr_mimebundle_()
        best = min(best, time.perf_counter() - started)
    print(
        f"static bundle (text/html {len(data['text/html'])} chars + text/plain) "
        f"of a {ROUNDS}-round run: {best * 1000:.1f} ms (best of 5)"
    )


if __name__ == "__main__":
    main()
