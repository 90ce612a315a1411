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


def _pyproject(*extras: str) -> dict[str, str]:
    """The dependencies, plus those of ``extras``, as name -> version specifier (the package itself left out)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    specs = project["dependencies"] + [
        s for e in extras for s in project["optional-dependencies"][e]
    ]
    return dict(_parse(s) for s in specs if not s.startswith("agentlib"))


# PyPI name -> conda-forge name, where they differ
CONDA_NAMES = {"playwright": "playwright-python"}
# what conda-forge does not carry (anthropic: 0.x only there; httpx2: not found there)
PIP_ONLY = {"anthropic", "httpx2"}
STUDENT, TESTS = ROOT / "environment.yml", ROOT / ".ci" / "environment-test.yml"


def _environment(path: Path) -> tuple[dict[str, str], dict[str, str]]:
    """An environment file's conda and pip requirements, each as name -> version specifier."""
    conda, pip = {}, {}
    text = path.read_text()
    for line in text.split("dependencies:", 1)[1].splitlines():
        item = line.strip()
        if not item.startswith("- ") or item.endswith(":"):
            continue
        spec = item[2:].strip()
        if spec == "pip" or spec.startswith(("-e ", "python=")):
            continue
        name, rest = _parse(spec)
        (pip if line.startswith("      - ") else conda)[name] = rest
    return conda, pip


@pytest.mark.parametrize(("path", "extras"), [(STUDENT, ()), (TESTS, ("test", "docs"))], ids=["student", "tests"])  # fmt: skip
def test_environment_files_ask_for_what_pyproject_asks_for(path, extras):
    conda, pip = _environment(path)
    wanted = _pyproject(*extras)
    as_conda = {CONDA_NAMES.get(n, n): v for n, v in wanted.items() if n not in PIP_ONLY}
    assert conda == as_conda
    assert pip == {n: v for n, v in wanted.items() if n in PIP_ONLY}


def test_the_student_environment_leaves_the_test_and_docs_packages_out():
    conda, pip = _environment(STUDENT)
    extra_only = set(_pyproject("test", "docs")) - set(_pyproject())
    assert extra_only and not extra_only & (set(conda) | set(pip))
    assert "playwright-python" not in conda


def test_the_test_extra_includes_the_docs_extra():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "agentlib[docs]" in project["optional-dependencies"]["test"]
    assert {"sphinx", "myst-nb"} <= set(_pyproject("docs"))


def test_environment_files_use_conda_forge_names():
    for path in (STUDENT, TESTS):
        conda, _ = _environment(path)
        for pypi, conda_name in CONDA_NAMES.items():
            assert pypi not in conda, f"conda-forge has no {pypi!r}; its package is {conda_name!r}"
        assert not PIP_ONLY & set(conda), "conda-forge lacks these: list them under pip"


@pytest.mark.parametrize(("path", "package"), [(STUDENT, "-e ."), (TESTS, "-e ..")], ids=["student", "tests"])  # fmt: skip
def test_environment_files_are_yaml_conda_reads_and_install_the_package(path, package):
    yaml = pytest.importorskip("yaml", reason="PyYAML comes with jupytext (the test extra)")
    env = yaml.safe_load(path.read_text())
    assert env["channels"] == ["conda-forge"]
    pip_sections = [d["pip"] for d in env["dependencies"] if isinstance(d, dict)]
    assert len(pip_sections) == 1 and package in pip_sections[0]
    assert all(isinstance(d, str) for d in env["dependencies"] if not isinstance(d, dict))
    assert (path.parent / package.split()[1] / "pyproject.toml").is_file()  # pip runs from there


def test_python_is_pinned_within_the_floor():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["requires-python"] == ">=3.10"
    for path in (STUDENT, TESTS):  # repo2docker falls back to an old Python without a pin
        pins = re.findall(r"^  - python=3\.(\d+)$", path.read_text(), re.M)
        assert len(pins) == 1 and int(pins[0]) >= 10, path


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
    from agentlib.text import looks_chinese

    said = "离线模型" if looks_chinese(line) else "offline model"  # in the prompt's language
    assert said in out.stdout and "Hello, World!" in out.stdout
    assert [p.read_text() for p in tmp_path.glob("*/hello.py")] == ['print("Hello, World!")\n']


def test_code_and_notebooks_pass_ruff():
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed (it comes with the test extra)")
    out = subprocess.run([ruff, "check", "--no-cache", str(ROOT)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout[-3000:]
