"""The Messages API's rules for a conversation, each with the live API's 400 wording and the same said in words.

One rule set, used three ways: the offline API refuses a request with the first problem's
``api`` message (``agentlib.offline.validate``), ``check_history`` explains every problem in
``words``, and the round diagram lists them for the history each round sent. Rule ids are the
ones docs/conformance.md lists with their public sources. A tool definition's rules, in the
same ``Problem`` shape, are ``agentlib.tool_checks.tool_problems``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .messages import content_blocks, to_dict


@dataclass(frozen=True)
class Problem:
    """One way a request breaks the Messages API's rules, said twice: as the API does, and in words."""

    rule: str  # the rule's id in docs/conformance.md and agentlib.offline.validate.RULES
    api: str | None  # what the API answers (its 400's message); None: accepted, only advice
    words: str  # the same problem explained for the learner, with messages[i] as sent


@dataclass
class _Turn:
    """Consecutive messages of one role, combined into one turn as the API reads them."""

    role: str
    blocks: list[dict[str, Any]] = field(default_factory=list)
    sources: list[int] = field(default_factory=list)  # messages[i] each block came from
    first: int = 0  # messages[i] the turn starts at


def _combined_turns(messages: list[dict[str, Any]]) -> list[_Turn]:
    # the API combines consecutive same-role messages before its protocol checks, and counts
    # its messages.N.content.M paths in the combined turns (the SDK's recorded live 400 shows it)
    turns: list[_Turn] = []
    for i, message in enumerate(messages):
        if not turns or turns[-1].role != message["role"]:
            turns.append(_Turn(message["role"], first=i))
        blocks = [b for b in content_blocks(message.get("content")) if isinstance(b, dict)]
        turns[-1].blocks.extend(blocks)
        turns[-1].sources.extend([i] * len(blocks))
    return turns


def _message_problems(messages: list[dict[str, Any]]) -> list[Problem]:
    problems = []
    last = len(messages) - 1
    for i, message in enumerate(messages):
        content = message.get("content")
        is_prefill = i == last and message["role"] == "assistant"
        if not content and not is_prefill:
            problems.append(
                Problem(
                    "content-non-empty",
                    f"messages.{i}: all messages must have non-empty content except for the "
                    "optional final assistant message",
                    f"messages[{i}] has empty content; only a final assistant message (a prefill) "
                    "may be empty.",
                )
            )
        texts = [
            b.get("text")
            for b in content_blocks(content)
            if isinstance(b, dict) and b.get("type") == "text"
        ]
        if isinstance(content, list) and any(t == "" for t in texts):
            problems.append(
                Problem(
                    "text-non-empty",
                    "messages: text content blocks must be non-empty",
                    f"messages[{i}] has a text block with no text.",
                )
            )
        elif any(isinstance(t, str) and t and not t.strip() for t in texts) and not is_prefill:
            problems.append(
                Problem(
                    "text-non-whitespace",
                    "messages: text content blocks must contain non-whitespace text",
                    f"messages[{i}] has a text block that is only whitespace.",
                )
            )
        elif (
            is_prefill and texts and isinstance(texts[-1], str) and texts[-1] != texts[-1].rstrip()
        ):
            problems.append(
                Problem(
                    "prefill-trailing-whitespace",
                    "messages: final assistant content cannot end with trailing whitespace",
                    f"messages[{i}] is a final assistant message (a prefill) whose text ends with "
                    "whitespace; a prefill may not end with a space or a newline.",
                )
            )
    return problems


def tool_pairing_problems(messages: list[dict[str, Any]]) -> list[Problem]:
    """Every break of the tool_use / tool_result pairing, as the API decides it.

    Each ``tool_use`` id is unique; the user turn right after an assistant turn with
    ``tool_use`` blocks answers every one of them, and begins with those ``tool_result``
    blocks; a ``tool_result`` answers a ``tool_use`` of the turn right before it. Consecutive
    messages of one role count as one turn. ``messages`` are dicts with a valid role.
    """
    problems = []
    turns = _combined_turns(messages)
    seen: set[Any] = set()
    for n, turn in enumerate(turns):
        for m, block in enumerate(turn.blocks):
            if block.get("type") == "tool_use":
                if isinstance(block.get("id"), str) and block.get("id") in seen:
                    problems.append(
                        Problem(
                            "tool-use-unique",
                            f"messages.{n}.content.{m}: `tool_use` ids must be unique",
                            f"messages[{turn.sources[m]}] reuses the tool_use id {block.get('id')}: "
                            "every tool_use id in a history must be unique.",
                        )
                    )
                seen.add(block.get("id"))
        if turn.role == "user":
            problems += _stray_results(turns, n)
        else:
            problems += _unanswered_calls(turns, n)
    return problems


def _ids(turn: _Turn | None, kind: str, key: str) -> list[Any]:
    return [b.get(key) for b in turn.blocks if b.get("type") == kind] if turn else []


def _stray_results(turns: list[_Turn], n: int) -> list[Problem]:
    before = turns[n - 1] if n else None
    asked = _ids(before, "tool_use", "id")
    stray = [
        (m, b.get("tool_use_id"))
        for m, b in enumerate(turns[n].blocks)
        if b.get("type") == "tool_result" and b.get("tool_use_id") not in asked
    ]
    if not stray:
        return []
    m, _ = stray[0]
    ids = ", ".join(str(tool_id) for _, tool_id in stray)
    return [
        Problem(
            "tool-result-matches-call",
            f"messages.{n}.content.{m}: unexpected `tool_use_id` found in `tool_result` blocks: "
            f"{ids}. Each `tool_result` block must have a corresponding `tool_use` block in the "
            "previous message.",
            f"messages[{turns[n].sources[m]}] returns a result for id {ids}, which no tool_use in "
            "the assistant message right before it asked for.",
        )
    ]


def _unanswered_calls(turns: list[_Turn], n: int) -> list[Problem]:
    turn = turns[n]
    calls = [b for b in turn.blocks if b.get("type") == "tool_use"]
    if not calls:
        return []
    after = turns[n + 1] if n + 1 < len(turns) else None
    answered = _ids(after, "tool_result", "tool_use_id")
    missing = [b for b in calls if b.get("id") not in answered]
    if missing:
        where = "the next message" if after else "a next message (there is none yet)"
        names = ", ".join(f"{b.get('name')!r} (id {b.get('id')})" for b in missing)
        return [
            Problem(
                "tool-use-answered",
                f"messages.{n}: `tool_use` ids were found without `tool_result` blocks immediately "
                f"after: {', '.join(str(b.get('id')) for b in missing)}. Each `tool_use` block must "
                "have a corresponding `tool_result` block in the next message.",
                f"messages[{turn.sources[turn.blocks.index(missing[0])]}] asks for tool {names}, "
                f"but {where} carries no tool_result for that id: the API refuses the history "
                "until the tool's result is sent back.",
            )
        ]
    leading = 0
    for block in after.blocks:
        if block.get("type") != "tool_result":
            break
        leading += 1
    if leading >= len(calls):
        return []
    return [
        Problem(
            "tool-result-first",
            f"messages.{n + 1}: Did not find {len(calls)} `tool_result` block(s) at the beginning "
            "of this message. Messages following `tool_use` blocks must begin with a matching "
            "number of `tool_result` blocks.",
            f"messages[{after.first}] answers the tool calls before it, but does not begin with "
            "its tool_result blocks: "
            + (
                "its first block must be the tool_result, before any text."
                if len(calls) == 1
                else f"its first {len(calls)} blocks must be the tool_result blocks, before any text."
            ),
        )
    ]


def protocol_problems(messages: list[dict[str, Any]]) -> list[Problem]:
    """Every rule of the conversation's shape this history breaks, in the order the API checks.

    The offline API refuses a request with the first problem's ``api`` message and
    ``check_history`` explains them all in ``words``: one rule set for both. Consecutive
    messages of one role are allowed (the API combines them); roles need not alternate.
    """
    problems = []
    for i, message in enumerate(messages):
        role = message.get("role")
        if role not in ("user", "assistant"):
            problems.append(
                Problem(
                    "role",
                    f"messages.{i}.role: Input should be 'user' or 'assistant'",
                    f"messages[{i}] has role {role!r}; only 'user' and 'assistant' exist "
                    "(a system prompt goes in the system= argument).",
                )
            )
    if problems:
        return problems
    if not messages:
        return [
            Problem(
                "messages-non-empty",
                "messages: at least one message is required",
                "The history is empty: the first message must be the user's question.",
            )
        ]
    if messages[0]["role"] != "user":
        problems.append(
            Problem(
                "first-user",
                'messages: first message must use the "user" role',
                "messages[0] must come from the user; it comes from the assistant.",
            )
        )
    return problems + _message_problems(messages) + tool_pairing_problems(messages)


def check_history(messages: list[Any]) -> list[str]:
    """Explain, in words, every way this history breaks the Messages API's protocol.

    An empty list means the API will accept the shape of the conversation. The rules are
    ``protocol_problems``: the same code the offline API uses to refuse a request.
    """
    msgs = [m if isinstance(m, dict) else {"role": None} for m in to_dict(list(messages))]
    # content that is neither a string nor a list of blocks is no content at all
    msgs = [
        {**m, "content": m.get("content") if isinstance(m.get("content"), (str, list)) else None}
        for m in msgs
    ]
    return [problem.words for problem in protocol_problems(msgs)]
