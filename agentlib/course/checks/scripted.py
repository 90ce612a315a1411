"""What every check runs the learner's code with: a scripted offline model, the real SDK and loop."""

from __future__ import annotations

import io
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stdout, suppress
from typing import Any

from ...loop import LoopState, agent_loop
from ...messages import content_text, to_dict
from ...offline import Script, call, offline_client, say
from ...sandbox import remove_tree
from ...tools import Toolbox
from ..language import pick


def spec(name: str, description: str, *arguments: str) -> dict[str, Any]:
    """A seed-style schema dict: every argument a required string."""
    return {
        "name": name,
        "description": description,
        "input_schema": {
            "type": "object",
            "properties": {a: {"type": "string"} for a in arguments},
            "required": list(arguments),
        },
    }


BASH = spec("bash", "Run a shell command.", "command")
EDIT_FILE = spec("edit_file", "Replace exact text in file.", "path", "old_text", "new_text")
GLOB = spec("glob", "Find files matching a glob pattern.", "pattern")


def scripted(*replies: Any) -> tuple[Any, str]:
    """A client and model name: the API's real checks, the model's replies queued."""
    return offline_client(Script(*replies))


def run_loop(tools: Toolbox, question: str, *replies: Any) -> LoopState:
    """The library loop, once, on ``question`` with ``tools`` and a model that gives ``replies``."""
    client, model = scripted(*replies)
    return agent_loop(
        [{"role": "user", "content": question}], client=client, model=model, tools=tools
    )


def model_read(
    handler: Callable[..., Any], schema: dict[str, Any], call_input: dict, answer: str
) -> str:
    """Run the loop with the learner's one tool, which the model calls once with ``call_input``; what it read back."""
    name = schema["name"]
    tools = Toolbox.from_dicts([schema], {name: handler})
    state = run_loop(tools, f"Use {name}", call(name, **call_input), say(answer))
    return state.messages[2]["content"][0]["content"]


def has_number(text: str, number: int) -> bool:
    """Whether ``number`` stands in ``text`` on its own (3, not the 3 of 13)."""
    return re.search(rf"(?<!\d){number}(?!\d)", text) is not None


def returned(fn: Callable[..., Any], *args: Any) -> tuple[Any, str]:
    """``fn(*args)`` and what it printed meanwhile: a function that prints its answer returns None."""
    printed = io.StringIO()
    with redirect_stdout(printed):
        value = fn(*args)
    return value, printed.getvalue()


def not_text(what: str, value: Any, printed: str) -> str | None:
    """Why ``value`` is no tool output the model can read, or None when it is text."""
    if isinstance(value, str):
        return None
    if value is None and printed.strip():
        return pick(
            f"{what} printed {printed.strip()[:60]!r} and returned None: the model reads only what "
            "the function returns, so return the text instead of printing it.",
            f"{what} 打印了 {printed.strip()[:60]!r}，返回的却是 None：模型只读函数返回的东西，所以要返回文本，而不是打印它。",
        )
    return pick(
        f"{what} returned {type(value).__name__}, not text: the model can only read strings.",
        f"{what} 返回的是 {type(value).__name__}，不是文本：模型只能读字符串。",
    )


def text_of(content: Any) -> str:
    return content_text(to_dict(content))


class RunawayLoop(Exception):
    """Raised inside the learner's loop when it calls the model more often than the script allows."""


class CountingClient:
    """Stands in for ``client``: forwards ``messages.create``, records each request, stops a loop that never ends."""

    def __init__(self, replies: list[Any]) -> None:
        self.client, self.model = scripted(*replies)
        self.limit, self.calls = len(replies), []
        self.messages = self

    def create(self, **request: Any) -> Any:
        self.calls.append(to_dict(request))
        if len(self.calls) > self.limit:
            raise RunawayLoop(
                pick(
                    f"the loop called the model {self.limit + 1} times",
                    f"循环调用了模型 {self.limit + 1} 次",
                )
            )
        return self.client.messages.create(**request)


@contextmanager
def globals_swapped(fn: Callable[..., Any], **values: Any) -> Iterator[None]:
    """Temporarily rebind the notebook globals ``fn`` reads (``client``, ``MODEL``, ``run_bash``...)."""
    namespace = fn.__globals__
    saved = {k: namespace[k] for k in values if k in namespace}
    namespace.update(values)
    try:
        yield
    finally:
        for k in values:
            namespace.pop(k, None)
        namespace.update(saved)


def remove_folder(path: str | os.PathLike[str]) -> None:
    """Remove a folder a check made, whatever the learner's code left in it; never raises."""
    with suppress(OSError):
        remove_tree(path)
