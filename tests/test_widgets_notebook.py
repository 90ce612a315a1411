"""A notebook that runs the loop and shows the diagram, executed by nbclient and converted by nbconvert."""

from __future__ import annotations

import importlib.util
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
    ]
    return nb


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    nb = notebook()
    NotebookClient(nb, timeout=120, kernel_name="python3", store_widget_state=False).execute(
        cwd=str(tmp_path_factory.mktemp("nb"))
    )
    return nb


def bundle(cell) -> dict:
    (out,) = [o for o in cell.outputs if o.output_type in ("display_data", "execute_result")]
    return out.data


@pytest.mark.parametrize("cell_index", [1, 2], ids=["show", "live"])
def test_output_has_widget_view_html_and_text(executed, cell_index):
    data = bundle(executed.cells[cell_index])
    assert {WIDGET_MIME, "text/html", "text/plain"} <= set(data)
    assert (
        "Round 2 of 2" in data["text/plain"]
    )  # the live cell's static copy was refreshed at the end
    assert 'class="agentlib-round-diagram"' in data["text/html"]
    assert "<script" not in data["text/html"]
    if HAVE_OFFLINE:
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in data["text/html"]


def test_no_widget_state_is_saved(executed):
    assert "widgets" not in executed.metadata


def test_nbconvert_html_shows_the_fallback_diagram(executed):
    body, _ = HTMLExporter().from_notebook_node(executed)
    assert body.count('class="agentlib-round-diagram"') == 2
    assert "Model: the reply" in body and "stop_reason: end_turn" in body
