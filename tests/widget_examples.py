"""Hand-built event lists for the diagram: small runs of every shape, with fixed durations."""

from __future__ import annotations

from typing import Any

from agentlib.events import Finished, ModelReplied, RoundStarted, ToolRan
from agentlib.loop import WHY

MODEL = "agentlib-offline"


def _use(tool_id: str, name: str, **tool_input: Any) -> dict[str, Any]:
    return {"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def run_events(
    question: str, rounds: list[tuple[list[dict], str, list[tuple[str, bool]]]]
) -> list[Any]:
    """Events of a run. Each round: (reply blocks, stop_reason, [(output, is_error)] per tool_use)."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": question}]
    events: list[Any] = []
    for k, (blocks, stop, outputs) in enumerate(rounds, start=1):
        events.append(RoundStarted(round=k, messages=list(messages)))
        usage = {"input_tokens": 40 + 30 * len(messages), "output_tokens": 10 + 5 * len(blocks)}
        reply = {"role": "assistant", "content": blocks}
        events.append(
            ModelReplied(
                round=k, message=reply, stop_reason=stop, usage=usage, model=MODEL, duration_s=0.25
            )
        )
        messages.append(reply)
        if stop != "tool_use":
            break
        calls = [b for b in blocks if b["type"] == "tool_use"]
        results = []
        for call, (output, is_error) in zip(calls, outputs, strict=True):
            events.append(
                ToolRan(
                    round=k,
                    tool_use_id=call["id"],
                    name=call["name"],
                    input=call["input"],
                    output=output,
                    is_error=is_error,
                    duration_s=0.01,
                )
            )
            result = {"type": "tool_result", "tool_use_id": call["id"], "content": output}
            results.append({**result, "is_error": True} if is_error else result)
        messages.append({"role": "user", "content": results})
    # k and stop still hold the round the run ended on, as agent_loop's Finished reports it
    why = WHY.get(stop, f"the model stopped ({stop})")
    events.append(Finished(round=k, stop_reason=stop, why=why))
    return events


def single_tool() -> list[Any]:
    """One bash call, then an answer."""
    return run_events(
        "List the files here.",
        [
            (
                [_text("I'll look."), _use("toolu_01", "bash", command="ls")],
                "tool_use",
                [("a.txt\nb.txt", False)],
            ),
            ([_text("There are two files: a.txt and b.txt.")], "end_turn", []),
        ],
    )


def parallel_tools() -> list[Any]:
    """Two reads in one round."""
    return run_events(
        "Compare a.txt and b.txt.",
        [
            (
                [
                    _use("toolu_01", "read_file", path="a.txt"),
                    _use("toolu_02", "read_file", path="b.txt"),
                ],
                "tool_use",
                [("alpha", False), ("beta", False)],
            ),
            ([_text("a.txt says alpha, b.txt says beta.")], "end_turn", []),
        ],
    )


def tool_error() -> list[Any]:
    """A read that fails, then the model recovers."""
    return run_events(
        "Show missing.txt.",
        [
            (
                [_use("toolu_01", "read_file", path="missing.txt")],
                "tool_use",
                [("Error: file not found: missing.txt", True)],
            ),
            ([_text("missing.txt does not exist.")], "end_turn", []),
        ],
    )


def max_tokens() -> list[Any]:
    """A reply cut off mid tool call: the call is not run."""
    return run_events(
        "Write a long poem to poem.txt.",
        [
            (
                [
                    _text("Here is the poem"),
                    _use("toolu_01", "write_file", path="poem.txt", content="Roses"),
                ],
                "max_tokens",
                [],
            ),
        ],
    )


def no_tools() -> list[Any]:
    """A plain answer in one round."""
    return run_events("What is 2 + 2?", [([_text("4.")], "end_turn", [])])


def hostile_output() -> list[Any]:
    """A tool whose output tries to inject markup."""
    evil = "<script>alert(1)</script><style>body{display:none}</style><svg onload=alert(2)>"
    return run_events(
        evil,
        [
            ([_use("toolu_<b>", "bash", command=evil)], "tool_use", [(evil, False)]),
            ([_text(evil)], "end_turn", []),
        ],
    )


NEW_TEXT = "def greet(name):\n    if name:\n        return f'hi {name}'\n    return 'hi'\n"


def edit() -> list[Any]:
    """An edit whose new text is indented code: the views must keep its whitespace."""
    return run_events(
        "Make greet handle an empty name.",
        [
            (
                [
                    _use(
                        "toolu_01",
                        "edit_file",
                        path="greet.py",
                        old_text="def greet(name):\n    return f'hi {name}'\n",
                        new_text=NEW_TEXT,
                    )
                ],
                "tool_use",
                [("Edited greet.py (1 replacement).", False)],
            ),
            ([_text("greet now says 'hi' for an empty name.")], "end_turn", []),
        ],
    )


LONG_ANSWER = "The files, one by one: " + ", ".join(f"file_{k:03d}.txt" for k in range(120)) + "."


def long_answer() -> list[Any]:
    """A final answer longer than any view shows at first."""
    return run_events("List every file.", [([_text(LONG_ANSWER)], "end_turn", [])])


def long_run(rounds: int) -> list[Any]:
    """``rounds`` rounds of one bash call each, the last one answering."""
    plan = [
        (
            [_use(f"toolu_{k:04d}", "bash", command=f"echo step {k}")],
            "tool_use",
            [(f"step {k}", False)],
        )
        for k in range(1, rounds)
    ]
    return run_events("Count up.", [*plan, ([_text("Done counting.")], "end_turn", [])])


CASES = {
    "single_tool": single_tool,
    "parallel_tools": parallel_tools,
    "tool_error": tool_error,
    "max_tokens": max_tokens,
    "no_tools": no_tools,
    "edit": edit,
}
