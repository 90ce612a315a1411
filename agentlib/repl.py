"""The seeds' REPL (``s01 >>``): history across questions, tool calls shown as they run."""

from __future__ import annotations

import os
import sys
import tempfile
import unicodedata
from pathlib import Path
from typing import Any, TextIO

import anthropic

from .client import connect, is_offline, next_start_problems
from .errors import ConfigError
from .events import Event
from .loop import LoopState, agent_loop
from .offline.errors import OfflineError
from .text import clip, cut_marker

SYSTEMS = {
    "s01": "You are a coding agent at {root}. Use bash to inspect and change the workspace. "
    "Act first, then report clearly.",
    "s02": "You are a coding agent at {root}. Use tools to solve tasks. Act, don't explain.",
}
QUIT = ("q", "exit")
PREVIEW = 200  # characters of tool output shown, as in the seeds


class Style:
    """ANSI colours when writing to a terminal (and NO_COLOR is unset), plain text otherwise."""

    def __init__(self, stream: TextIO) -> None:
        self.on = stream.isatty() and "NO_COLOR" not in os.environ

    def __call__(self, code: str, text: str) -> str:
        return f"\033[{code}m{text}\033[0m" if self.on else text


# Unicode categories a terminal obeys or hides instead of showing: controls (ESC, BEL, CR, C1),
# format characters (bidi overrides that reorder text, zero-width ones), line and paragraph
# separators, and lone surrogates (which cannot even be printed)
HIDDEN = {"Cc", "Cf", "Zl", "Zp", "Cs"}
KEPT = {"\t", "\n", "\u200c", "\u200d"}  # tabs, newlines, and the joiners emoji and scripts need


class _Shown(dict):
    """str.translate's table, filled in as characters are met: each hidden one as its escape."""

    def __missing__(self, code: int) -> str:
        char = chr(code)
        hidden = char not in KEPT and unicodedata.category(char) in HIDDEN
        shown = ascii(char)[1:-1] if hidden else char  # \x1b, \r, \u202e: as Python writes them
        if len(self) < 4096:  # bounded, whatever a hostile text holds
            self[code] = shown
        return shown


_SHOWN = _Shown()


def visible(text: str) -> str:
    """Text from the model or a tool with its control characters shown, not obeyed (ESC, OSC 52, CR, BEL)."""
    return text.translate(_SHOWN)


class Session:
    """One REPL session: a client, a workspace's toolbox, and the history kept across questions."""

    def __init__(
        self, chapter: str, client: Any, model: str, workspace: Any, out: TextIO, lang: str = "en"
    ) -> None:
        from . import course_tools

        self.chapter, self.client, self.model, self.out = chapter, client, model, out
        self.lang = lang
        self.tools = getattr(course_tools, f"{chapter}_tools")(workspace)
        self.system = SYSTEMS[chapter].format(root=workspace.root)
        self.history: list[dict[str, Any]] = []
        self.style = Style(out)

    def ask(self, query: str) -> LoopState | None:
        """Run the loop on one question; print replies and tool calls as they happen."""
        self.history.append({"role": "user", "content": query})
        try:
            state = agent_loop(
                self.history,
                client=self.client,
                model=self.model,
                tools=self.tools,
                system=self.system,
                on_event=self.show,
                lang=self.lang,
            )
        except (anthropic.APIError, OfflineError, ConfigError) as error:
            # agent_loop has already turned a bad key or a dead endpoint into a ConfigError
            self.write(self.style("31", visible(f"Error: {error}")))
            return None
        self.write(self.style("2", _summary(state, self.lang)))
        return state

    def show(self, event: Event) -> None:
        """Print each reply's text blocks, and each tool call with a short preview of its output."""
        if event.kind == "model_replied":
            for block in event.message["content"]:
                if block.get("type") == "text" and block.get("text"):
                    self.write(visible(block["text"]))
        elif event.kind == "tool_ran":
            self.write(self.style("33", visible(_call_line(event.name, event.input))))
            preview = visible(clip(event.output, PREVIEW))
            self.write(self.style("31" if event.is_error else "2", preview))

    def write(self, text: str) -> None:
        """Print one line to the session's output at once (no buffering behind a slow tool)."""
        print(text, file=self.out, flush=True)


def _summary(state: LoopState, lang: str = "en") -> str:
    replies = [e for e in state.events if e.kind == "model_replied"]
    tokens_in = sum(e.usage.get("input_tokens") or 0 for e in replies)
    tokens_out = sum(e.usage.get("output_tokens") or 0 for e in replies)
    estimated = any(is_offline(e.model) for e in replies)
    if lang == "zh":
        tokens = f"输入 {tokens_in} / 输出 {tokens_out} 个 token{'（估算）' if estimated else ''}"
        return f"（{state.rounds} 轮，{tokens}；{state.why}）"
    tokens = f"{tokens_in} tokens in, {tokens_out} out{', estimated' if estimated else ''}"
    rounds = "1 round" if state.rounds == 1 else f"{state.rounds} rounds"
    return f"({rounds}, {tokens}; {state.why})"


def _call_line(name: str, tool_input: Any) -> str:
    if name == "bash" and isinstance(tool_input, dict) and "command" in tool_input:
        first, *rest = str(tool_input["command"]).splitlines() or [""]
        return f"$ {first}" + (f" {cut_marker(f'{len(rest)} lines')}" if rest else "")
    # short values keep their type (numbers show as numbers); long ones are cut as text
    shown = {k: v if len(str(v)) <= 60 else clip(str(v), 60) for k, v in dict(tool_input).items()}
    return f"> {name} {shown}"


def open_workspace(folder: str | None, chapter: str, out: TextIO, lang: str = "en"):
    """The workspace: the folder given, else a fresh temporary one (never silently the cwd)."""
    from .sandbox import Workspace

    said = "工作区：" if lang == "zh" else "workspace:"
    if folder is None:
        root = Path(tempfile.mkdtemp(prefix=f"agentlib-{chapter}-"))
        fresh = (
            "（一个新的临时目录，退出后保留；用 --workspace DIR 在你自己的目录里工作）"
            if lang == "zh"
            else " (a fresh temporary folder, kept after exit; "
            "use --workspace DIR to work in a folder of yours)"
        )
        print(f"{said} {root}{fresh}", file=out)
    else:
        root = Path(folder).expanduser()
        try:
            root.mkdir(parents=True, exist_ok=True)
        except OSError as error:  # a read-only clone, a file in the way: say so, no traceback
            raise ConfigError(
                f"Cannot make the workspace {root.absolute()}: {error.strerror or error}. "
                "Give --workspace a folder you can write to, or leave it out for a fresh "
                "temporary folder."
            ) from None
        print(f"{said} {root.resolve()}", file=out)
    return Workspace(root)


def run(
    chapter: str,
    *,
    prompt: str | None = None,
    workspace: str | None = None,
    backend: str = "auto",
    model: str | None = None,
    stdin: TextIO = sys.stdin,
    out: TextIO = sys.stdout,
    lang: str = "en",
) -> int:
    """Run the REPL (or one prompt with ``prompt``); returns the exit code. ``lang="zh"``: in Chinese."""
    if workspace is not None:
        problems = next_start_problems(workspace)
        if problems:
            raise ConfigError(
                f"Not a safe workspace, {Path(workspace).expanduser().resolve()}: "
                + "; ".join(problems)
                + ". Give the agent a folder of its own (--workspace work makes one here), "
                "or leave --workspace out for a fresh temporary folder."
            )
    client, model_name = connect(backend, model=model, surface="repl", lang=lang)
    folder = open_workspace(workspace, chapter, out, lang)
    session = Session(chapter, client, model_name, folder, out, lang)
    if prompt is not None:
        return 0 if session.ask(prompt) is not None else 1
    while True:
        try:
            if stdin is sys.stdin and out is sys.stdout:
                query = input(session.style("36", f"{chapter} >> "))
            else:
                out.write(f"{chapter} >> ")
                out.flush()
                query = stdin.readline()
                if not query:
                    raise EOFError
        except (EOFError, KeyboardInterrupt):
            out.write("\n")
            return 0
        if not query.strip():
            continue  # a blank line is not a quit (the seed quits here; easy to hit by accident)
        if query.strip().lower() in QUIT:
            return 0
        session.ask(query.strip())
        out.write("\n")
