"""Notebook 04: exercise 7 (a glob that stays inside)."""

from __future__ import annotations

from . import right, wrong

REFUSE = """if Path(pattern).is_absolute() or ".." in Path(pattern).parts:
        return f"Error: pattern must stay inside the workspace: {pattern}\""""
LIST = """matches = sorted(str(p.relative_to(WORKDIR)) for p in WORKDIR.glob(pattern))
    return "\\n".join(matches) or "(no matches)\""""


def glob_answer(refuse: str = REFUSE, listing: str = LIST) -> str:
    return f"""
def safe_glob(pattern: str) -> str:
    {refuse}
    {listing}
"""


SAFE_GLOB = [
    wrong(
        "refuses_without_saying_error",
        "starts with 'Error:'",
        glob_answer(refuse=REFUSE.replace("Error: pattern must", "Refused: the pattern must")),
    ),
    wrong("no_refusal_at_all", "/etc", glob_answer(refuse="pass")),
    wrong(
        "only_absolute_refused",
        "..",
        glob_answer(refuse='if pattern.startswith("/"):\n        return "Error: absolute pattern"'),
    ),
    wrong(
        "dotdot_at_the_start_only",
        "..",
        glob_answer(
            refuse='if pattern.startswith(("/", "..")):\n        return "Error: pattern leaves the workspace"'
        ),
    ),
    wrong(
        "string_prefix_on_results",
        "..",
        glob_answer(
            refuse='if pattern.startswith("/"):\n        return "Error: absolute pattern"',
            listing="hits = [p for p in WORKDIR.glob(pattern) if str(p.resolve()).startswith(str(WORKDIR))]\n"
            '    return "\\n".join(sorted(str(p.relative_to(WORKDIR)) for p in hits))',
        ),
    ),
    wrong(
        "resolved_without_a_check",
        "relative",
        glob_answer(
            refuse="base = WORKDIR.resolve()",
            listing='return "\\n".join(sorted(str(p.resolve()) for p in base.glob(pattern)))',
        ),
    ),
    wrong(
        "returns_a_list",
        "text",
        glob_answer(
            listing="return sorted(str(p.relative_to(WORKDIR)) for p in WORKDIR.glob(pattern))"
        ),
    ),
    wrong(
        "not_sorted",
        "sorted",
        glob_answer(
            listing='return "\\n".join(str(p.relative_to(WORKDIR)) for p in WORKDIR.glob(pattern))'
        ),
    ),
    wrong(
        "absolute_paths",
        "relative",
        glob_answer(listing='return "\\n".join(sorted(str(p) for p in WORKDIR.glob(pattern)))'),
    ),
    wrong(
        "raises_on_escape",
        "Error",
        glob_answer(
            refuse=REFUSE.replace('return f"Error: pattern', 'raise ValueError(f"pattern').replace(
                '{pattern}"', '{pattern}")'
            )
        ),
    ),
    wrong(
        "prints_the_listing", "print", glob_answer(listing=LIST.replace("return ", "print(") + ")")
    ),
    right(
        "glob_module_with_root_dir",
        """
import glob as globbing

def safe_glob(pattern: str) -> str:
    p = Path(pattern)
    if p.is_absolute() or ".." in p.parts:
        return "Error: only patterns inside the workspace are allowed"
    found = globbing.glob(pattern, root_dir=WORKDIR, recursive=True)
    return "\\n".join(sorted(found)) or "(no matches)"
""",
    ),
    right(
        "loop_with_a_resolve_check_too",
        """
def safe_glob(pattern: str) -> str:
    if Path(pattern).is_absolute() or any(part == ".." for part in Path(pattern).parts):
        return "Error: refusing to search outside the workspace"
    inside = WORKDIR.resolve()
    lines = []
    for hit in WORKDIR.glob(pattern):
        if hit.resolve().is_relative_to(inside):
            lines.append(hit.relative_to(WORKDIR).as_posix())
    lines.sort()
    return "\\n".join(lines) if lines else "No files match."
""",
    ),
    right(
        "files_only",
        glob_answer(
            listing=LIST.replace(
                "for p in WORKDIR.glob(pattern))", "for p in WORKDIR.glob(pattern) if p.is_file())"
            )
        ),
    ),
]

ANSWERS = {"ex7_safe_glob": SAFE_GLOB}
