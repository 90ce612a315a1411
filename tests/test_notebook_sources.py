"""Each committed notebook is what jupytext builds from its source in notebooks/src, and clean."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
SOURCES = sorted((NOTEBOOKS / "src").glob("*.py"))
REBUILD = "jupytext --sync notebooks/src/*.py"


def _jupytext() -> str:
    found = shutil.which("jupytext", path=str(Path(sys.executable).parent)) or shutil.which(
        "jupytext"
    )
    if found is None:
        pytest.skip("jupytext is not installed (it comes with the test extra)")
    return found


def _copy_pairs(tmp_path: Path) -> Path:
    """The notebooks folder's pairing config, sources and notebooks, copied to ``tmp_path``."""
    folder = tmp_path / "notebooks"
    (folder / "src").mkdir(parents=True)
    shutil.copy(NOTEBOOKS / "jupytext.toml", folder)
    for source in SOURCES:
        shutil.copy(source, folder / "src")
        notebook = NOTEBOOKS / f"{source.stem}.ipynb"
        if notebook.exists():
            shutil.copy(notebook, folder)
    return folder


def _sync(folder: Path, newer: str) -> None:
    """Run the rebuild command with the ``newer`` side ("py" or "ipynb") as the most recent."""
    for path in [*folder.glob("*.ipynb"), *folder.glob("src/*.py")]:
        age = 0 if path.suffix == f".{newer}" else 60
        os.utime(path, (path.stat().st_mtime - age, path.stat().st_mtime - age))
    sources = [str(p) for p in sorted(folder.glob("src/*.py"))]
    done = subprocess.run(
        [_jupytext(), "--sync", *sources], cwd=folder.parent, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


def test_every_source_has_its_notebook_and_every_notebook_its_source():
    notebooks = {p.stem for p in NOTEBOOKS.glob("*.ipynb")}
    sources = {p.stem for p in SOURCES}
    assert sources, "no sources in notebooks/src"
    assert sources - notebooks == set(), f"not built yet: run {REBUILD}"
    assert notebooks - sources == set(), "a notebook without a source in notebooks/src"


def test_committed_notebooks_are_what_jupytext_builds_from_the_sources(tmp_path):
    folder = _copy_pairs(tmp_path)
    _sync(folder, newer="py")
    stale = [
        source.stem
        for source in SOURCES
        if (folder / f"{source.stem}.ipynb").read_bytes()
        != (NOTEBOOKS / f"{source.stem}.ipynb").read_bytes()
    ]
    assert stale == [], f"out of date with notebooks/src: {stale}; run {REBUILD}"


def test_sources_are_what_jupytext_writes_back_from_the_notebooks(tmp_path):
    # a sync that happens to start from the notebook side must not rewrite a source
    folder = _copy_pairs(tmp_path)
    _sync(folder, newer="ipynb")
    changed = [s.name for s in SOURCES if (folder / "src" / s.name).read_bytes() != s.read_bytes()]
    assert changed == [], f"jupytext would rewrite these sources (header or blank lines): {changed}"


@pytest.mark.parametrize("source", SOURCES, ids=[s.stem for s in SOURCES])
def test_notebook_is_committed_clean(source):
    nb = nbformat.read(NOTEBOOKS / f"{source.stem}.ipynb", as_version=4)
    nbformat.validate(nb)
    assert nb.metadata.get("kernelspec", {}).get("name") == "python3", (
        "no kernelspec: start the source with the same '# ---' header as notebooks/src/00_setup.py"
    )
    assert "widgets" not in nb.metadata
    ids = [cell.get("id") for cell in nb.cells]
    assert all(ids) and len(set(ids)) == len(ids), "cell ids missing or repeated"
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [], f"outputs committed in: {cell.source[:80]!r}"
            assert cell.execution_count is None, f"execution count in: {cell.source[:80]!r}"
