"""Fold the loop's events (or a bare message history) into a per-round, JSON-able trace."""

from __future__ import annotations

import json
from typing import Any

from ..client import is_offline
from ..events import Finished, ModelReplied, RoundStarted, ToolRan
from ..loop import OUT_OF_ROUNDS
from ..messages import content_blocks, to_dict
from ..protocol import check_history, tool_pairing_problems
from ..text import as_text, clip
from .words import say, stop_words, words

MAX_CHARS = 2000  # longer strings are cut, with a marker saying how much was left out


def _shown(value: Any) -> str:
    # tool_result content given as blocks shows their text, other blocks as JSON
    if isinstance(value, list):
        return "\n".join(as_text(b.get("text", b)) for b in content_blocks(value))
    return as_text(value)


def block_summary(block: Any) -> dict[str, Any]:
    """One content block as a small dict the views can draw (long strings clipped)."""
    b = to_dict(block)
    if not isinstance(b, dict):
        return {"type": "text", "text": clip(str(b), MAX_CHARS)}
    kind = b.get("type", "?")
    if kind == "text":
        return {"type": "text", "text": clip(b.get("text", ""), MAX_CHARS)}
    if kind == "tool_use":
        return {
            "type": kind,
            "id": b.get("id"),
            "name": b.get("name"),
            "input": _input(b.get("input")),
        }
    if kind == "tool_result":
        out = {"type": kind, "tool_use_id": b.get("tool_use_id")}
        out["content"] = clip(_shown(b.get("content", "")), MAX_CHARS)
        if b.get("is_error"):
            out["is_error"] = True
        return out
    rest = {k: v for k, v in b.items() if k != "type"}
    return {"type": kind, "text": clip(as_text(rest), MAX_CHARS)}


def _input(value: Any) -> Any:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return value if len(text) <= MAX_CHARS else {"(clipped)": clip(text, MAX_CHARS)}


def message_summary(message: Any) -> dict[str, Any]:
    """One message as {role, blocks}; a string content becomes one text block."""
    m = to_dict(message)
    blocks = content_blocks(m.get("content"))
    return {"role": m.get("role", "?"), "blocks": [block_summary(b) for b in blocks]}


def tool_specs(tools: Any) -> dict[str, str]:
    """Tool name -> first line of its description, from a Toolbox, Tools, TOOLS dicts or names."""
    specs = getattr(tools, "TOOLS", tools)
    out = {}
    for item in specs or []:
        spec = getattr(item, "spec", item)  # a Tool describes itself with .spec
        if isinstance(spec, str):
            out[spec] = ""
        else:
            lines = (spec.get("description") or "").strip().splitlines()
            out[spec["name"]] = lines[0] if lines else ""
    return out


class Trace:
    """Every round of one run, built event by event; ``to_dict()`` is what the views draw.

    ``tools`` (a Toolbox, a TOOLS list or names) is what the model was offered: the loop's
    events do not carry it, and predict-before-reveal offers every one of them. ``lang``
    ("en" or "zh") is the language of every word the views show.
    """

    def __init__(self, *, offline: bool | None = None, tools: Any = None, lang: str = "en") -> None:
        self.words = words(lang)  # refuses an unknown language before anything is drawn
        self.lang = lang
        self.rounds: list[dict[str, Any]] = []
        self.toolbox = tool_specs(tools)
        self.stops_inferred = False  # True for a run rebuilt from its history alone
        self.model: str | None = None
        self.finished: dict[str, Any] | None = None
        self.problems: list[str] = []
        self._offline = offline
        self._last_sent: list[dict[str, Any]] = []  # what the round before sent
        self._reported: set[str] = set()

    @property
    def offline(self) -> bool:
        """True when token counts are estimates (explicit flag, else the model id says so)."""
        return self._offline if self._offline is not None else is_offline(self.model)

    @classmethod
    def from_events(
        cls, events: Any, *, offline: bool | None = None, tools: Any = None, lang: str = "en"
    ) -> Trace:
        """Build a trace from a list of loop events."""
        trace = cls(offline=offline, tools=tools, lang=lang)
        for event in events:
            trace.add(event)
        return trace

    def round(self, index: int) -> dict[str, Any]:
        """Round ``index`` (1-based), created empty if the events skipped it."""
        while len(self.rounds) < index:
            n = len(self.rounds) + 1
            self.rounds.append(
                {
                    "index": n,
                    "sent_count": 0,
                    "sent_start": 0,
                    "sent_new": [],
                    "rewritten": False,
                    "reply": None,
                    "stop_reason": None,
                    "meaning": "",
                    "next": "",
                    "usage": None,
                    "duration_s": None,
                    "tools": [],
                    "unanswered": [],
                    "final": False,
                }
            )
        return self.rounds[index - 1]

    def add(self, event: Any) -> int:
        """Fold one event in; return the round it changed."""
        r = self.round(max(event.round, 1))
        if isinstance(event, RoundStarted):
            sent = event.messages  # plain dicts already (the loop sends normalized messages)
            before = self._last_sent
            same_prefix = len(sent) >= len(before) and sent[: len(before)] == before
            start = len(before) if same_prefix else 0
            r.update(sent_count=len(sent), sent_start=start, rewritten=not same_prefix)
            r["sent_new"] = [message_summary(m) for m in sent[start:]]
            self._last_sent = sent
            for problem in check_history(sent):
                if problem not in self._reported:  # a history sent again repeats its problems
                    self._reported.add(problem)
                    self.problems.append(
                        say(self.words, "problem.round", round=r["index"], problem=problem)
                    )
        elif isinstance(event, ModelReplied):
            self.model = event.model or self.model
            blocks = event.message.get("content", [])
            r["reply"] = message_summary({"role": "assistant", "content": blocks})["blocks"]
            r["usage"] = {k: v for k, v in (event.usage or {}).items() if k.endswith("tokens")}
            r["duration_s"] = event.duration_s
            self._set_stop(r, event.stop_reason)
            r["unanswered"] = [b["id"] for b in r["reply"] if b["type"] == "tool_use"]
        elif isinstance(event, ToolRan):
            r["tools"].append(
                {
                    "id": event.tool_use_id,
                    "name": event.name,
                    "input": _input(event.input),
                    "output": clip(event.output, MAX_CHARS),
                    "is_error": bool(event.is_error),
                    "duration_s": event.duration_s,
                }
            )
            if event.tool_use_id in r["unanswered"]:
                r["unanswered"].remove(event.tool_use_id)
        elif isinstance(event, Finished):
            self.finished = {
                "round": event.round,
                "stop_reason": event.stop_reason,
                "why": self._why(event),
            }
            if event.stop_reason == OUT_OF_ROUNDS:
                self._set_stop(r, r["stop_reason"])
            calls = [b for b in r["reply"] or [] if b.get("id") in r["unanswered"]]
            ended = [*self._last_sent, {"role": "assistant", "content": calls}]
            for problem in tool_pairing_problems(ended) if calls else []:
                self.problems.append(
                    say(self.words, "problem.unanswered", round=r["index"],
                        reason=event.stop_reason, problem=problem.words)
                )  # fmt: skip
        return r["index"]

    def _why(self, event: Finished) -> str:
        # the loop explains itself in English; another language says it from the words table
        return event.why if self.lang == "en" else stop_words(self.words, event.stop_reason)[0]

    def _set_stop(self, r: dict[str, Any], stop_reason: str | None) -> None:
        r["stop_reason"] = stop_reason
        r["meaning"], r["next"] = stop_words(self.words, stop_reason)
        # the loop returns after any other stop_reason: this reply is the run's last word
        r["final"] = stop_reason not in (None, "tool_use", "pause_turn")
        limit_reached = self.finished and self.finished["stop_reason"] == OUT_OF_ROUNDS
        if limit_reached and r["index"] == self.finished["round"]:
            r["next"] = say(self.words, "limit_reached")

    def meta(self) -> dict[str, Any]:
        """Everything but the rounds: model, offline flag, how it finished, protocol problems."""
        return {
            "lang": self.lang,
            "model": self.model,
            "offline": self.offline,
            # a history without events or a flag does not say which model answered
            "backend_known": self._offline is not None or bool(self.model),
            "finished": self.finished,
            "problems": list(self.problems),
            "round_count": len(self.rounds),
            "toolbox": [{"name": n, "description": d} for n, d in self.toolbox.items()],
            "stops_inferred": self.stops_inferred,
        }

    def to_dict(self) -> dict[str, Any]:
        """The whole trace as plain JSON-able data, with the words its views show."""
        return {**self.meta(), "words": self.words, "rounds": self.rounds}
