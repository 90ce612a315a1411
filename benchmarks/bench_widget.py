"""Round diagram costs: bytes sent to the front end per live round, and static HTML render time.

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


def main() -> None:
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
