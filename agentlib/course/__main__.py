"""``python -m agentlib.course NOTEBOOK... -p NAME=VALUE``: run notebooks offline, report each one."""

from __future__ import annotations

import argparse
import ast
import sys
import tempfile
from pathlib import Path
from typing import Any

from ..sandbox import remove_tree
from .runner import published, run_notebook


def parse_parameter(text: str) -> tuple[str, Any]:
    """``NAME=VALUE``: VALUE is read as a Python literal when it is one, else kept as a string."""
    name, sep, raw = text.partition("=")
    if not sep or not name.strip().isidentifier():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    try:
        value = ast.literal_eval(raw)
    except (ValueError, SyntaxError):
        value = raw
    return name.strip(), value


def _given_twice(given: list[tuple[str, Any]]) -> list[str]:
    """A parameter two ``-p`` options set to different values: which one was meant cannot be told."""
    values: dict[str, list[Any]] = {}
    for name, value in given:
        if value not in values.setdefault(name, []):
            values[name].append(value)
    return [
        f"{name} is given {len(found)} different values ("
        + ", ".join(f"-p {name}={v!r}" for v in found)
        + "): give it once"
        for name, found in values.items()
        if len(found) > 1
    ]


def _checks_mode_problem() -> list[str]:
    """A mistyped ``AGENTLIB_CHECKS`` would fail every notebook at its first check: say it once, now."""
    from .checks.verdict import strict

    try:
        strict()
    except ValueError as e:
        return [str(e)]
    return []


def _refused(paths: list[Path], parameters: dict[str, Any]) -> list[str]:
    """Every notebook's problem with the parameters, checked before the first kernel starts."""
    import nbformat

    from .runner import parameter_problems

    refused = []
    for path in paths:
        if not path.is_file():
            refused.append(f"{path}: no such notebook")
            continue
        problems = parameter_problems(
            nbformat.read(path, as_version=4), parameters, path.parent.resolve()
        )
        refused += [f"{path.name}: {problem}" for problem in problems]
    return refused


def main(argv: list[str] | None = None) -> int:
    """Run each notebook, print PASS/FAIL with its time and failing cell; exit 1 if any failed.

    Exit 2, running nothing, when a parameter is unknown to a notebook, given twice, or WORKSPACE
    is not an existing absolute folder, or when ``AGENTLIB_CHECKS`` is not a mode the checks know. ``student-copy ...`` instead writes the notebooks without their solutions (see ``student``).
    """
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["student-copy"]:
        from .student import main as student_copy

        return student_copy(argv[1:])
    parser = argparse.ArgumentParser(
        prog="python -m agentlib.course",
        description="Execute notebooks top to bottom with nbclient, forced offline unless --live.",
    )
    parser.add_argument("notebooks", nargs="+", type=Path)
    parser.add_argument(
        "-p",
        "--parameter",
        action="append",
        default=[],
        type=parse_parameter,
        metavar="NAME=VALUE",
        help="set a parameter (injected after the 'parameters' cell)",
    )
    parser.add_argument("--timeout", type=int, default=300, help="seconds per cell (default 300)")
    parser.add_argument(
        "--live",
        action="store_true",
        help="keep ANTHROPIC_* and let BACKEND / .env choose the model (default: forced offline)",
    )
    parser.add_argument("--output-dir", type=Path, help="save the executed notebooks here")
    args = parser.parse_args(argv)

    parameters = dict(args.parameter)
    refused = _given_twice(args.parameter) or _refused(args.notebooks, parameters)
    refused += _checks_mode_problem()
    if refused:
        print("\n".join(refused), file=sys.stderr)
        return 2
    failed = 0
    for path in args.notebooks:
        # each kernel gets a temporary folder of its own, removed afterwards whatever it holds
        tmpdir = tempfile.mkdtemp(prefix="agentlib-run-")
        try:
            run = run_notebook(
                path, parameters, {"TMPDIR": tmpdir}, timeout=args.timeout, live=args.live
            )
            print(run.report(), flush=True)
            failed += not run.ok
            if args.output_dir:
                import nbformat

                args.output_dir.mkdir(parents=True, exist_ok=True)
                nbformat.write(published(run.notebook, tmpdir), args.output_dir / path.name)
        finally:
            remove_tree(tmpdir)
    print(f"{len(args.notebooks) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
