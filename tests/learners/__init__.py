"""Learners' answers to the exercises, as data: the source of the exercise cell, and what the check should say."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Answer:
    name: str
    source: str  # the exercise cell as the learner filled it in
    phrase: str | None = None  # for a wrong answer: words the check's message must contain

    @property
    def right(self) -> bool:
        return self.phrase is None


def wrong(name: str, phrase: str, source: str) -> Answer:
    return Answer(name, source, phrase)


def right(name: str, source: str) -> Answer:
    return Answer(name, source)


from . import agent_loop, loop_by_hand, sandbox, tool_use, your_own_tool  # noqa: E402

ANSWERS: dict[str, list[Answer]] = {
    **loop_by_hand.ANSWERS,
    **agent_loop.ANSWERS,
    **tool_use.ANSWERS,
    **sandbox.ANSWERS,
    **your_own_tool.ANSWERS,
}
