"""The published course: executed notebooks built into static pages, offline, with the round diagram showing."""

from __future__ import annotations

import base64
import importlib.util
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "docs" / "course"
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
CHINESE = sorted((ROOT / "notebooks" / "zh").glob("*.ipynb"))
# where the runner saves each language's executed notebooks, under the book's folder
LANGUAGES = {"": NOTEBOOKS, "zh/": CHINESE}
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip
DIAGRAM = "agentlib-round-diagram"  # the class of the diagram's static HTML copy
pytestmark = pytest.mark.xdist_group("book")  # the book is built once, on one worker

EXTERNAL = re.compile(r"""<(?:script|link|img)\b[^>]*\b(?:src|href)=["'](?:https?:)?//""", re.I)


def _no_network_prefix() -> list[str]:
    """A command prefix that runs a program with no network at all (a fresh network namespace)."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        pytest.skip(
            "bubblewrap (bwrap) is missing: it is how the build is cut off from the network"
        )
    prefix = [bwrap, "--dev-bind", "/", "/", "--unshare-net", "--die-with-parent", "--"]
    probe = subprocess.run([*prefix, sys.executable, "-c", "pass"], capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip(f"bubblewrap cannot make a network namespace here: {probe.stderr.strip()}")
    return prefix


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> Path:
    """The course built as in docs/course/conf.py, both languages in one build: each language's
    notebooks executed offline by the runner, then one Sphinx + MyST-NB build."""
    for module in ("sphinx", "myst_nb"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed (it comes with the test extra)")
    prefix = _no_network_prefix()
    source = tmp_path_factory.mktemp("book") / "course"
    shutil.copytree(BOOK, source, ignore=shutil.ignore_patterns("executed", "_build"))
    for folder, notebooks in LANGUAGES.items():
        executed = subprocess.run(
            [sys.executable, "-m", "agentlib.course", *map(str, notebooks),
             "--output-dir", str(source / folder / "executed")],
            capture_output=True, text=True, timeout=1800,
        )  # fmt: skip
        assert executed.returncode == 0, executed.stdout[-4000:]
    built = subprocess.run(
        [*prefix, sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-q",
         str(source), str(source / "_build" / "html")],
        capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    return source


def test_the_pages_read_like_a_learners_run(book):
    """What the runner saved shows what a learner sees: no runner's flag, no settings, no build paths."""
    texts = {}
    for folder in LANGUAGES:
        for path in sorted((book / folder / "executed").glob("*.ipynb")):
            nb = nbformat.read(path, as_version=4)
            outputs = [c.get("outputs", []) for c in nb.cells]
            texts[folder + path.stem] = json.dumps(outputs, ensure_ascii=False)
    for name, text in texts.items():
        assert "AGENTLIB_FORCE_OFFLINE" not in text and "from the environment" not in text, name
        assert "agentlib-run-" not in text and "/tmp/" not in text, name
        assert "injected-parameters" not in text, name
    assert "nothing configured: the offline model it is" in texts["00_setup"]
    assert "<workspace> | isolation:" in texts["00_setup"]
    assert "no SCRIPT set: nothing to run" in texts["99_appendix"]  # the default instructor section
    assert "什么都没配置：那就用离线模型" in texts["zh/00_setup"]
    assert "<workspace> | 隔离方式：" in texts["zh/00_setup"]
    assert "没有设置 SCRIPT：没有什么要运行的" in texts["zh/99_appendix"]


def _has_diagram(notebook: Path) -> bool:
    nb = nbformat.read(notebook, as_version=4)
    return any(
        DIAGRAM in "".join(o.get("data", {}).get("text/html", ""))
        for c in nb.cells
        for o in c.get("outputs", [])
    )


@pytest.mark.parametrize("folder", LANGUAGES)
def test_every_notebook_is_a_page_with_its_diagrams_and_nothing_from_the_network(book, folder):
    html = book / "_build" / "html" / folder
    pages = {p.stem: p.read_text(encoding="utf-8") for p in (html / "executed").glob("*.html")}
    assert set(pages) == {p.stem for p in LANGUAGES[folder]}
    index = (html / "index.html").read_text(encoding="utf-8")
    assert all(f"executed/{name}.html" in index for name in pages)
    drawn = [p.stem for p in (book / folder / "executed").glob("*.ipynb") if _has_diagram(p)]
    assert drawn, "no executed notebook drew a round diagram"
    for name in drawn:
        assert DIAGRAM in pages[name], f"{name}: the diagram's static copy is missing"
    for name, text in pages.items():
        assert not EXTERNAL.findall(text), f"{name} loads something from the network"
    twin = "zh/index.html" if folder == "" else "../index.html"
    assert f'href="{twin}"' in index, f"{folder or 'the'} index does not link its twin"


def test_the_chinese_pages_draw_the_diagram_in_chinese(book):
    html = book / "_build" / "html" / "zh" / "executed"
    drawn = [p.stem for p in (book / "zh" / "executed").glob("*.ipynb") if _has_diagram(p)]
    for name in drawn:
        page = (html / f"{name}.html").read_text(encoding="utf-8")
        assert f'class="{DIAGRAM}" lang="zh"' in page and "模型：回复" in page, name


# Decodes a PNG in the page and says how much of it is not background: a blank or
# near-blank screenshot has almost no distinct colours and almost no non-white pixels.
INK = """async (url) => {
  const img = new Image();
  img.src = url;
  await img.decode();
  const canvas = document.createElement("canvas");
  canvas.width = img.width; canvas.height = img.height;
  const ctx = canvas.getContext("2d");
  ctx.drawImage(img, 0, 0);
  const data = ctx.getImageData(0, 0, img.width, img.height).data;
  let ink = 0;
  const colours = new Set();
  for (let i = 0; i < data.length; i += 4) {
    if (data[i] < 200 || data[i + 1] < 200 || data[i + 2] < 200) ink++;
    colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
  }
  return { width: img.width, height: img.height, ink: ink / (data.length / 4), colours: colours.size };
}"""


@pytest.mark.browser
def test_the_diagram_shows_on_a_built_page_in_chromium(book, tmp_path):
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium to run the browser tests")
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="Python Playwright is not installed"
    )
    page_path = next(
        book / "_build" / "html" / "executed" / f"{p.stem}.html"
        for p in sorted((book / "executed").glob("*.ipynb"))
        if _has_diagram(p)
    )
    blocked: list[str] = []
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.route(
                "**/*",
                lambda route: (
                    route.continue_()
                    if route.request.url.startswith(("file:", "data:"))
                    else (blocked.append(route.request.url), route.abort())
                ),
            )
            page.goto(page_path.as_uri())
            diagram = page.locator(f".{DIAGRAM}").first
            diagram.scroll_into_view_if_needed()
            assert diagram.is_visible()
            box = diagram.bounding_box()
            assert box["width"] > 300 and box["height"] > 80, box
            assert "round" in diagram.inner_text().lower()
            shot = diagram.screenshot(path=str(tmp_path / "diagram.png"))
            url = "data:image/png;base64," + base64.b64encode(shot).decode()
            measured = page.evaluate(INK, url)
        finally:
            browser.close()
    assert blocked == [], f"the page asked the network for: {blocked}"
    assert measured["colours"] > 20 and measured["ink"] > 0.02, json.dumps(measured)


def test_the_jupyter_book_1_config_prefers_the_static_copy_as_conf_py_does():
    yaml = pytest.importorskip("yaml", reason="PyYAML comes with jupytext (the test extra)")
    config = yaml.safe_load((BOOK / "_config.yml").read_text())
    conf: dict = {}
    exec((BOOK / "conf.py").read_text(), conf)
    overrides = [tuple(o) for o in config["sphinx"]["config"]["nb_mime_priority_overrides"]]
    assert overrides == conf["nb_mime_priority_overrides"] == [("html", "text/html", 0)]
    assert config["execute"]["execute_notebooks"] == "off" == conf["nb_execution_mode"]
    toc = yaml.safe_load((BOOK / "_toc.yml").read_text())
    assert toc["root"] == "index" and (BOOK / "index.md").is_file()
    assert toc["chapters"] == [
        {"glob": "executed/*"},
        {"file": "zh/index", "sections": [{"glob": "zh/executed/*"}]},
    ]
    assert (BOOK / "zh" / "index.md").is_file()
