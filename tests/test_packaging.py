"""pyproject.toml and environment.yml ask for the same things; importing agentlib has no side effects."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10 has no tomllib
    tomllib = pytest.importorskip(
        "tomli", reason="reading pyproject.toml on Python 3.10 needs tomli"
    )

ROOT = Path(__file__).resolve().parents[1]
REQ = re.compile(r"^\s*([A-Za-z0-9_.\-]+)\s*(.*)$")


def _parse(spec: str) -> tuple[str, str]:
    name, rest = REQ.match(spec).groups()
    return name.lower().replace("_", "-"), rest.replace(" ", "")


def _pyproject() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    specs = project["dependencies"] + project["optional-dependencies"]["test"]
    return dict(_parse(s) for s in specs)


# PyPI name -> conda-forge name, where they differ
CONDA_NAMES = {"playwright": "playwright-python"}
# what conda-forge does not carry (anthropic: 0.x only there; httpx2, testbook: not found there)
PIP_ONLY = {"anthropic", "httpx2", "testbook"}


def _environment() -> tuple[dict[str, str], dict[str, str]]:
    """environment.yml's conda and pip requirements, each as name -> version specifier."""
    conda, pip = {}, {}
    text = (ROOT / "environment.yml").read_text()
    for line in text.split("dependencies:", 1)[1].splitlines():
        item = line.strip()
        if not item.startswith("- ") or item.endswith(":"):
            continue
        spec = item[2:].strip()
        if spec in ("pip", "-e .") or spec.startswith("python>="):
            continue
        name, rest = _parse(spec)
        (pip if line.startswith("      - ") else conda)[name] = rest
    return conda, pip


def test_environment_yml_asks_for_what_pyproject_asks_for():
    conda, pip = _environment()
    wanted = _pyproject()
    as_conda = {CONDA_NAMES.get(n, n): v for n, v in wanted.items() if n not in PIP_ONLY}
    assert conda == as_conda
    assert pip == {n: v for n, v in wanted.items() if n in PIP_ONLY}


def test_environment_yml_uses_conda_forge_names():
    conda, _ = _environment()
    for pypi, conda_name in CONDA_NAMES.items():
        assert pypi not in conda, f"conda-forge has no {pypi!r}; its package is {conda_name!r}"
    assert not PIP_ONLY & set(conda), "conda-forge lacks these: list them under pip"


def test_environment_yml_is_yaml_conda_reads():
    yaml = pytest.importorskip("yaml", reason="PyYAML comes with jupytext (the test extra)")
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    assert env["channels"] == ["conda-forge"]
    pip_sections = [d["pip"] for d in env["dependencies"] if isinstance(d, dict)]
    assert len(pip_sections) == 1 and "-e ." in pip_sections[0]
    assert all(isinstance(d, str) for d in env["dependencies"] if not isinstance(d, dict))


def test_environment_yml_installs_the_package_itself():
    assert "- -e ." in (ROOT / "environment.yml").read_text()


def test_python_floor_matches():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["requires-python"] == ">=3.10"
    assert "python>=3.10" in (ROOT / "environment.yml").read_text()


def test_import_prints_nothing_reads_no_env_and_loads_no_widgets(tmp_path):
    (tmp_path / ".env").write_text("AGENTLIB_PROBE=from-dotenv\n")
    code = (
        "import os, sys, agentlib\n"
        "assert 'AGENTLIB_PROBE' not in os.environ, 'import read .env'\n"
        "heavy = [m for m in ('ipywidgets', 'anywidget', 'anthropic', 'dotenv') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "AGENTLIB_PROBE"}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, env=env
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout == "" and out.stderr == ""


def test_public_names_resolve():
    import agentlib

    for name in agentlib.__all__:
        assert getattr(agentlib, name) is not None, name


def test_ci_runs_exactly_the_readme_test_command():
    ci_command = (ROOT / ".ci" / "run").read_text().strip().splitlines()[-1]
    assert "pytest" in ci_command
    assert f"\n{ci_command}\n" in (ROOT / "README.md").read_text()


def test_readme_main_command_works_offline(tmp_path):
    import shlex

    readme = (ROOT / "README.md").read_text()
    line = next(x for x in readme.splitlines() if "-m agentlib s02 -p" in x)
    argv = shlex.split(line.split(".venv/bin/python", 2)[-1])  # what runs after the set-up
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "AGENTLIB_"))}
    env["TMPDIR"] = str(tmp_path)  # the REPL's fresh workspace lands here
    out = subprocess.run(
        [sys.executable, *argv], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert "offline model" in out.stdout and "Hello, World!" in out.stdout
    assert [p.read_text() for p in tmp_path.glob("*/hello.py")] == ['print("Hello, World!")\n']


def test_code_and_notebooks_pass_ruff():
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed (it comes with the test extra)")
    out = subprocess.run([ruff, "check", "--no-cache", str(ROOT)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout[-3000:]
