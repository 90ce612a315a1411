"""Build the committed notebooks from their sources in notebooks/src (jupytext "percent" format).

    python notebooks/build.py            # write notebooks/*.ipynb, clean (no outputs, no counts)
    python notebooks/build.py --check    # exit 1 if a committed notebook differs from its source

A cell starts at a ``# %%`` line; ``# %% [markdown]`` starts a markdown cell whose lines
are comments; ``tags=["parameters"]`` after the marker sets the cell's tags.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import nbformat

HERE = Path(__file__).resolve().parent
SOURCES = HERE / "src"
MARKER = re.compile(r"^# %%(?P<md> \[markdown\])?(?:\s+tags=(?P<tags>\[.*\]))?\s*$")
KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}


def parse(text: str) -> list[tuple[str, str, list[str]]]:
    """Split a percent-format source into (kind, source, tags) cells; text before the first marker is ignored."""
    cells: list[tuple[str, list[str], list[str]]] = []
    for line in text.splitlines():
        m = MARKER.match(line)
        if m:
            kind = "markdown" if m.group("md") else "code"
            cells.append((kind, [], json.loads(m.group("tags") or "[]")))
        elif cells:
            kind, lines, _ = cells[-1]
            if kind == "markdown":
                line = line[2:] if line.startswith("# ") else line.lstrip("#")
            lines.append(line)
    return [(kind, "\n".join(lines).strip("\n"), tags) for kind, lines, tags in cells]


def build(source: Path) -> nbformat.NotebookNode:
    """One clean notebook: no outputs, no execution counts, stable cell ids."""
    nb = nbformat.v4.new_notebook()
    nb.metadata = {"kernelspec": KERNELSPEC, "language_info": {"name": "python"}}
    for i, (kind, text, tags) in enumerate(parse(source.read_text(encoding="utf-8"))):
        metadata = {"tags": tags} if tags else {}
        if kind == "markdown":
            cell = nbformat.v4.new_markdown_cell(text, metadata=metadata)
        else:
            cell = nbformat.v4.new_code_cell(text, metadata=metadata)
        cell.id = f"{source.stem[:2]}-{i:03d}"  # stable ids keep rebuilds diff-free
        nb.cells.append(cell)
    nbformat.validate(nb)
    return nb


def main(argv: list[str] | None = None) -> int:
    """Write (or, with --check, compare) every notebook built from notebooks/src/*.py."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args(argv)
    stale = []
    for source in sorted(SOURCES.glob("[0-9][0-9]_*.py")):
        target = HERE / f"{source.stem}.ipynb"
        text = nbformat.writes(build(source)) + "\n"
        if args.check:
            if not target.exists() or target.read_text(encoding="utf-8") != text:
                stale.append(target.name)
        else:
            target.write_text(text, encoding="utf-8")
            print(f"wrote {target.relative_to(HERE.parent)}")
    if stale:
        print("out of date with notebooks/src (run python notebooks/build.py):", *stale)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
