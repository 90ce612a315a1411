"""A notebook that draws diagrams, executed by nbclient, papermill and nbconvert, then made HTML."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbconvert import HTMLExporter

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
HAVE_OFFLINE = importlib.util.find_spec("agentlib.offline") is not None

# the real loop on the offline model when it is present; else a hand-built run of the same shape
RUN_OFFLINE = '''
from agentlib import Toolbox, agent_loop, tool
from agentlib.offline import Script, call, offline_client, reply

@tool(read_only=True)
def shout(text: str) -> str:
    """Return the text in capitals.

    Args:
        text: what to shout
    """
    return text.upper()

def run(on_event=None):
    script = Script(reply("Shouting.", call("shout", text="<script>alert(1)</script>")), "Done: it says HI.")
    client, model = offline_client(script)
    messages = [{"role": "user", "content": "Shout hi"}]
    return agent_loop(messages, client=client, model=model, tools=Toolbox([shout]), on_event=on_event)
'''
RUN_EVENTS = f"""
import sys
sys.path.insert(0, {str(Path(__file__).parent)!r})
import widget_examples as examples

def run(on_event=None):
    events = examples.single_tool()
    for event in events:
        (on_event or (lambda e: None))(event)
    return events
"""


def notebook() -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.cells = [
        nbformat.v4.new_code_cell(RUN_OFFLINE if HAVE_OFFLINE else RUN_EVENTS),
        nbformat.v4.new_code_cell("from agentlib.widgets import live, show\nshow(run())"),
        nbformat.v4.new_code_cell("diagram = live()\nstate = run(on_event=diagram.on_event)"),
        nbformat.v4.new_code_cell('show(run(), lang="zh")'),
    ]
    return nb


def run_nbclient(source: Path, out: Path) -> None:
    nb = nbformat.read(source, as_version=4)
    NotebookClient(nb, timeout=120, kernel_name="python3").execute(cwd=str(source.parent))
    nbformat.write(nb, out)


def run_papermill(source: Path, out: Path) -> None:
    pytest.importorskip("papermill")
    command = [
        sys.executable,
        "-m",
        "papermill",
        str(source),
        str(out),
        "--cwd",
        str(source.parent),
    ]
    subprocess.run(command, check=True, capture_output=True, timeout=180)


def run_nbconvert(source: Path, out: Path) -> None:
    command = [sys.executable, "-m", "nbconvert", "--to", "notebook", "--execute", str(source),
               "--output", out.name, "--output-dir", str(out.parent)]  # fmt: skip
    subprocess.run(command, check=True, capture_output=True, timeout=180)


# each runs the notebook with its own defaults: widget state stored, as an instructor gets it
RUNNERS = {"nbclient": run_nbclient, "papermill": run_papermill, "nbconvert": run_nbconvert}


@pytest.fixture(scope="module", params=sorted(RUNNERS))
def executed(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp(request.param)
    source, out = folder / "diagram.ipynb", folder / "executed.ipynb"
    nbformat.write(notebook(), source)
    RUNNERS[request.param](source, out)
    return out


def converted(path: Path) -> str:
    """What ``jupyter nbconvert --to html`` makes of it with its default options."""
    return HTMLExporter().from_filename(str(path))[0]


def bundle(cell) -> dict:
    (out,) = [o for o in cell.outputs if o.output_type in ("display_data", "execute_result")]
    return out.data


@pytest.mark.parametrize("cell_index", [1, 2, 3], ids=["show", "live", "zh"])
def test_output_has_the_static_html_and_text(executed, cell_index):
    data = bundle(nbformat.read(executed, as_version=4).cells[cell_index])
    assert {"text/html", "text/plain"} <= set(data)
    rounds = "第 2 轮，共 2 轮" if cell_index == 3 else "Round 2 of 2"
    assert rounds in data["text/plain"]  # the live cell's static copy was refreshed at the end
    assert 'class="agentlib-round-diagram"' in data["text/html"]
    assert "<script" not in data["text/html"]
    if HAVE_OFFLINE:
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in data["text/html"]


def test_a_runner_gets_no_widget_so_none_is_stored(executed):
    nb = nbformat.read(executed, as_version=4)
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if WIDGET_MIME in o.get("data", {})]
    assert "widgets" not in nb.metadata  # nothing for nbconvert's HTML to prefer to the copy


def test_nbconvert_html_of_any_runner_shows_every_diagram(executed):
    page = converted(executed)
    assert page.count('class="agentlib-round-diagram"') == 3
    assert "Model: the reply" in page and "stop_reason: end_turn means" in page
    assert "模型：回复" in page
    assert WIDGET_MIME not in page and "html-manager" not in page  # no CDN script to wait for
