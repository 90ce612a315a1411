"""``python -m agentlib s01|s02``: the seeds' REPL, offline by default; ``models`` lists real models."""

from __future__ import annotations

import argparse
import sys

from .client import BACKENDS
from .errors import ConfigError
from .text import looks_chinese


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, run the REPL or one prompt, and return the exit code."""
    parser = argparse.ArgumentParser(
        prog="python -m agentlib", description="The s01/s02 coding agent in a terminal."
    )
    parser.add_argument(
        "chapter",
        choices=["s01", "s02", "models"],
        help="s01: bash only; s02: bash and the file tools; models: list real models",
    )
    parser.add_argument("-p", "--prompt", help="run this one prompt, print the answer and exit")
    parser.add_argument(
        "--workspace",
        metavar="DIR",
        help="folder the agent works in (default: a fresh temporary folder)",
    )
    parser.add_argument(
        "--backend",
        default="auto",
        choices=BACKENDS,
        help="auto: AGENTLIB_BACKEND if set, else the real API when a key is configured, "
        "else offline",
    )
    parser.add_argument("--model", help="model id (default: MODEL_ID from .env or the environment)")
    parser.add_argument(
        "--lang",
        choices=["en", "zh"],
        help="the language of its own lines (default: zh when --prompt is Chinese, else en)",
    )
    args = parser.parse_args(argv)
    if args.lang is None:
        args.lang = "zh" if args.prompt and looks_chinese(args.prompt) else "en"
    try:
        if args.chapter == "models":
            from .client import anthropic_client, list_models, read_settings

            for model_id in list_models(anthropic_client(read_settings())):
                print(model_id)
            return 0
        from .repl import run

        options = {k: v for k, v in vars(args).items() if k != "chapter"}  # run()'s keywords
        return run(args.chapter, **options)
    except ConfigError as error:
        print(f"agentlib: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
