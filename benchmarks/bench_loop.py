"""Per-round overhead of agentlib's loop against a bare seed-shaped loop, same offline transport.

Both loops run the same scripted model (N tool rounds, then an answer) through the real SDK
and the offline HTTP transport, with the same trivial tool. Prints the per-round time of each
and their ratio (target: at most 1.15).

    python benchmarks/bench_loop.py [--rounds 10 100 1000]
"""

from __future__ import annotations

import argparse
import statistics
import time

from agentlib import Toolbox, agent_loop, tool
from agentlib.offline import Script, call, offline_client, say


@tool
def echo(text: str) -> str:
    """Return the text.

    Args:
        text: Anything.
    """
    return text


TOOLS = Toolbox([echo])


def seed_loop(messages, client, model):
    # the s01 loop from the seeds, with the dispatch map of s02
    while True:
        response = client.messages.create(
            model=model, messages=messages, tools=TOOLS.TOOLS, max_tokens=8000
        )
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return
        results = []
        for block in response.content:
            if block.type == "tool_use":
                output = TOOLS.TOOL_HANDLERS[block.name](**block.input)
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": output})
        messages.append({"role": "user", "content": results})


def library_loop(messages, client, model):
    agent_loop(messages, client=client, model=model, tools=TOOLS, max_rounds=10**6)


def timed(loop, rounds: int) -> float:
    script = Script(*[call("echo", text=f"r{i}") for i in range(rounds)], say("done"))
    client, model = offline_client(script)
    messages = [{"role": "user", "content": "go"}]
    start = time.perf_counter()
    loop(messages, client, model)
    return (time.perf_counter() - start) / (rounds + 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(
        f"{'rounds':>7} {'seed ms/round':>14} {'agentlib ms/round':>18} {'ratio':>6}  (target <= 1.15)"
    )
    for rounds in args.rounds:
        seed, lib = [], []
        for _ in range(args.repeat):  # interleaved, so drift on a noisy machine hits both
            seed.append(timed(seed_loop, rounds))
            lib.append(timed(library_loop, rounds))
        s, w = statistics.median(seed), statistics.median(lib)
        print(f"{rounds:>7} {s * 1e3:>14.3f} {w * 1e3:>18.3f} {w / s:>6.2f}")


if __name__ == "__main__":
    main()
