"""Loop cost: agentlib's agent_loop against the bare seed loop, same SDK client, canned replies.

Both loops talk to a real ``anthropic.Anthropic`` whose transport answers in-process with
replies prepared in advance (N calls to a trivial tool, then an answer), so what differs is
only the loop. Printed side by side in one run:

- loop CPU time, agentlib / bare, the median of paired runs (target: at most 1.15 up to
  50 rounds, the loop's default round limit; longer runs are printed for information);
- peak memory (tracemalloc) during the run, agentlib / bare, and what each round adds on
  average (a figure that stays flat as runs grow is memory growing linearly).

    python benchmarks/bench_loop.py [--rounds 10 25 50 100 300] [--memory 10 25 50 300 1000]

(``--rounds`` or ``--memory`` with no sizes skips that table.)
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
import tracemalloc

import httpx2

from agentlib import Toolbox, agent_loop, tool
from agentlib.offline.simulator import client_for


@tool
def echo(text: str) -> str:
    """Return the text.

    Args:
        text: Anything.
    """
    return text


TOOLS = Toolbox([echo])
TOOL_SPECS = TOOLS.TOOLS
TOOL_HANDLERS = {"echo": lambda text: text}
MODEL = "canned-model"
TARGET_ROUNDS = 50  # agent_loop's default max_rounds: the CPU target holds up to here


def canned_replies(rounds: int) -> list[bytes]:
    """``rounds`` replies that call echo, then one that answers: API JSON, encoded once."""

    def message(i: int, content: list, stop_reason: str) -> bytes:
        body = {
            "id": f"msg_{i:06d}",
            "type": "message",
            "role": "assistant",
            "model": MODEL,
            "content": content,
            "stop_reason": stop_reason,
            "stop_sequence": None,
            "usage": {"input_tokens": 10 + 20 * i, "output_tokens": 12},
        }
        return json.dumps(body).encode()

    calls = [
        message(
            i,
            [
                {
                    "type": "tool_use",
                    "id": f"toolu_{i:06d}",
                    "name": "echo",
                    "input": {"text": f"r{i}"},
                }
            ],
            "tool_use",
        )
        for i in range(rounds)
    ]
    return [*calls, message(rounds, [{"type": "text", "text": "done"}], "end_turn")]


class CannedTransport(httpx2.BaseTransport):
    """Answers each request with the next prepared reply, without reading the request."""

    def __init__(self, replies: list[bytes]) -> None:
        self.replies = replies
        self.sent = 0

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        request.read()
        body = self.replies[self.sent]
        self.sent += 1
        return httpx2.Response(200, headers={"content-type": "application/json"}, content=body)


def bare_loop(messages, client) -> None:
    # the seed's s01 loop with s02's dispatch map, as a learner writes it
    while True:
        response = client.messages.create(
            model=MODEL, messages=messages, tools=TOOL_SPECS, max_tokens=8000
        )
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return
        results = []
        for block in response.content:
            if block.type == "tool_use":
                output = TOOL_HANDLERS[block.name](**block.input)
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": output})
        messages.append({"role": "user", "content": results})


def agentlib_loop(messages, client) -> None:
    agent_loop(messages, client=client, model=MODEL, tools=TOOLS, max_rounds=10**6)


LOOPS = {"bare": bare_loop, "agentlib": agentlib_loop}


def fresh_run(name: str, replies: list[bytes]):
    """A client over a new canned transport, a one-question history, and the loop to run."""
    transport = CannedTransport(replies)
    client = client_for(transport, max_retries=0)
    messages = [{"role": "user", "content": "go"}]
    return lambda: LOOPS[name](messages, client), transport, messages


def cpu_seconds(name: str, replies: list[bytes]) -> float:
    run, transport, _ = fresh_run(name, replies)
    started = time.process_time()
    run()
    spent = time.process_time() - started
    assert transport.sent == len(replies), f"{name} stopped early"
    return spent


def peak_bytes(name: str, replies: list[bytes]) -> int:
    run, transport, messages = fresh_run(name, replies)
    tracemalloc.start()
    run()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert transport.sent == len(replies) and len(messages) == 2 * len(replies)
    return peak


def repeats_for(rounds: int) -> int:
    """Enough pairs for a stable median, fewer for the long runs."""
    return max(3, min(41, 4000 // rounds))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, nargs="*", default=[10, 25, 50, 100, 300])
    parser.add_argument("--memory", type=int, nargs="*", default=[10, 25, 50, 300, 1000])
    parser.add_argument("--repeat", type=int, help="pairs per size (default: 41 down to 3)")
    args = parser.parse_args()

    if args.rounds:
        cpu_table(args.rounds, args.repeat)
    if args.memory:
        memory_table(args.memory)


def warm_up() -> None:
    """Run both loops once, so imports and the SDK's caches count in neither table."""
    cpu_seconds("bare", canned_replies(5))
    cpu_seconds("agentlib", canned_replies(5))


def cpu_table(sizes: list[int], repeat: int | None) -> None:
    warm_up()
    print("Loop CPU time (time.process_time), median of paired runs")
    print(f"{'rounds':>7} {'pairs':>6} {'bare ms':>9} {'agentlib ms':>12} {'ratio':>6}  target")
    for rounds in sizes:
        replies = canned_replies(rounds)
        bare, lib, ratios = [], [], []
        for i in range(repeat or repeats_for(rounds)):
            # alternate who goes first, so drift on a busy machine hits both alike
            order = ("bare", "agentlib") if i % 2 == 0 else ("agentlib", "bare")
            spent = {name: cpu_seconds(name, replies) for name in order}
            bare.append(spent["bare"])
            lib.append(spent["agentlib"])
            ratios.append(spent["agentlib"] / spent["bare"])
        print(
            f"{rounds:>7} {len(ratios):>6} {statistics.median(bare) * 1e3:>9.1f} "
            f"{statistics.median(lib) * 1e3:>12.1f} {statistics.median(ratios):>6.2f}  "
            f"{'<= 1.15' if rounds <= TARGET_ROUNDS else '(information)'}",
            flush=True,
        )


def memory_table(sizes: list[int]) -> None:
    warm_up()
    print("Peak memory during the run (tracemalloc)")
    print(
        f"{'rounds':>7} {'bare MB':>9} {'agentlib MB':>12} {'ratio':>6} "
        f"{'bare KB/round':>14} {'agentlib KB/round':>18}"
    )
    for rounds in sizes:
        replies = canned_replies(rounds)
        bare, lib = peak_bytes("bare", replies), peak_bytes("agentlib", replies)
        print(
            f"{rounds:>7} {bare / 1e6:>9.2f} {lib / 1e6:>12.2f} {lib / bare:>6.2f} "
            f"{bare / rounds / 1e3:>14.2f} {lib / rounds / 1e3:>18.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
