"""``python -m agentlib.course NOTEBOOK... -p NAME=VALUE``: run notebooks offline, report each one."""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path
from typing import Any

from .runner import run_notebook


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


def main(argv: list[str] | None = None) -> int:
    """Run each notebook, print PASS/FAIL with its time and failing cell; exit 1 if any failed.

    ``student-copy ...`` instead writes the notebooks without their solutions (see ``student``).
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

    failed = 0
    for path in args.notebooks:
        run = run_notebook(path, dict(args.parameter), timeout=args.timeout, live=args.live)
        print(run.report(), flush=True)
        failed += not run.ok
        if args.output_dir:
            import nbformat

            args.output_dir.mkdir(parents=True, exist_ok=True)
            nbformat.write(run.notebook, args.output_dir / path.name)
    print(f"{len(args.notebooks) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
