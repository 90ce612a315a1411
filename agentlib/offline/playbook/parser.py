"""parse(prompt): the parts a request asks for, in order, or the first clause the playbook cannot read."""

from __future__ import annotations

import re

from agentlib.offline.playbook import chinese, english
from agentlib.offline.playbook.request import (
    CJK,
    MARK,
    MAX_CLAUSE_CHARS,
    MAX_CLAUSES,
    MAX_PROMPT_CHARS,
    Part,
    Request,
    Speller,
    protect_quotes,
    split_clauses,
    unquote,
)
from agentlib.offline.playbook.words import IT, Change

SPELLER = Speller(english.TYPO_TARGETS, english.KNOWN_WORDS)
BOTH_STARTS = re.compile(f"{chinese.START.pattern}|{english.START.pattern}", re.I)
MUTATING = {"create", "mkdir", "append", "replace", "move", "copy", "delete", "delete_ext"}
MUTATING |= {"docstring"}
FILTERABLE = {"list", "search", "count"}


def _candidates(clause: str, is_chinese: bool):
    """The clause as each rule set reads it: as typed first, then without filler, typos fixed."""
    if is_chinese:
        yield chinese.normalize(clause, drop_filler=False), chinese.RULES
        yield chinese.normalize(clause), chinese.RULES
        yield SPELLER.fix(chinese.normalize(clause)), chinese.RULES
    plain = english.FILLER.sub("", clause).strip()
    yield clause, english.RULES
    yield plain, english.RULES
    yield SPELLER.fix(plain), english.RULES


def _read_clause(clause: str, is_chinese: bool, q, parts: list[Part]) -> bool:
    """Add what the first fully matching rule makes of ``clause`` to ``parts``; False if none."""
    if len(clause) > MAX_CLAUSE_CHARS:
        return False
    tried = set()
    for text, rules in _candidates(clause, is_chinese):
        for candidate in (text, text.rstrip("!?！？。.~ ")):
            if (
                not candidate
                or len(candidate) > MAX_CLAUSE_CHARS
                or (candidate, id(rules)) in tried
            ):
                continue
            tried.add((candidate, id(rules)))
            for pattern, build in rules:
                found = pattern.fullmatch(candidate)
                made = build(found, q) if found else None
                if isinstance(made, Change):
                    if parts and made.apply(parts[-1]):
                        return True
                elif made is not None:
                    made.clause = q(clause)
                    parts.append(made)
                    return True
    return False


def parse(prompt: str) -> Request:
    """Read the whole prompt; any clause that matches no rule makes the request unclear."""
    is_chinese = bool(CJK.search(prompt[:MAX_PROMPT_CHARS]))
    if len(prompt) > MAX_PROMPT_CHARS:
        note = f"a {len(prompt):,}-character prompt (I read at most {MAX_PROMPT_CHARS:,})"
        return Request([], is_chinese, note)
    text, quoted = protect_quotes(prompt.strip().replace(MARK, " "))

    def q(value: str | None) -> str | None:
        return unquote(value, quoted)

    starts = BOTH_STARTS if is_chinese else english.START
    parts: list[Part] = []
    clauses = split_clauses(text, starts)
    if len(clauses) > MAX_CLAUSES:
        return Request(
            [], is_chinese, f"{len(clauses)} requests in one prompt (I take at most {MAX_CLAUSES})"
        )
    for clause in clauses:
        if not _read_clause(clause, is_chinese, q, parts):
            return Request(parts, is_chinese, q(clause))
    problem = _check(parts)
    return Request(parts, is_chinese, problem)


def _check(parts: list[Part]) -> str | None:
    """Resolve 'it' and 'in there', apply guards and filters; the clause that does not fit, if any."""
    if not parts:
        return "(an empty request)"
    last_file = last_folder = None
    for part in parts:
        p = part.params
        for key in ("path",):
            if p.get(key) == IT:
                if last_file is None:
                    return part.clause
                p[key] = last_file
        if part.kind == "mkdir":
            last_folder = p["paths"][-1]
        if part.kind == "create" and last_folder and part.clause.startswith(("在里面", "里面")):
            p["paths"] = [f"{last_folder}/{name}" for name in p["paths"]]
        paths = p.get("paths") or ([p["path"]] if "path" in p else [])
        if paths:
            last_file = paths[-1]
    skips = [part for part in parts if part.kind == "skip"]
    filterable = [part for part in parts if part.kind in FILTERABLE]
    for skip in skips:
        if len(filterable) != 1:
            return skip.clause
        target = filterable[0].params
        target["skip"] = target.get("skip", []) + skip.params["skip"]
        target["recursive"] = True
    for part in parts:
        p = part.params
        named = [p.get(k) for k in ("path", "src", "dest", "folder")] + p.get("paths", [])
        if any(_outside(name) for name in named if isinstance(name, str)) or "" in named:
            return part.clause  # the workspace is all it works in
        if part.kind == "edit":
            return part.clause  # 'edit x.py' with no edit the playbook knows
        if part.kind == "guard":
            named = set(part.params["paths"])
            for other in parts:
                if part.params["no"] == "mutate" and other.kind in MUTATING:
                    return part.clause
                used = {other.params.get("path"), *other.params.get("paths", [])}
                if other is not part and named & used:
                    return part.clause
    return None


def _outside(path: str) -> bool:
    return path.startswith(("/", "~")) or ".." in path.split("/")
