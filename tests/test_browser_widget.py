"""The widget's JavaScript in a real headless Chromium: a test page with a fake model, and JupyterLab."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import widget_examples as examples

from agentlib.widgets.trace import Trace

CHROMIUM = "/usr/bin/chromium"
WIDGETS = Path(__file__).parents[1] / "agentlib" / "widgets"
README_IMAGE = Path(__file__).parents[1] / "docs" / "img" / "round-diagram.png"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip

pytestmark = pytest.mark.browser

# a stand-in for the anywidget model: get/set/on/send, enough for initialize() and render()
PAGE = """<!doctype html><html><head><meta charset="utf-8"><style>%(css)s</style></head>
<body %(body)s><div id="root"></div>
<script type="application/json" id="trace">%(trace)s</script>
<script type="module">
import widget from "/widget.js";
class FakeModel {
  constructor(state) { this.state = state; this.handlers = {}; this.sent = []; }
  get(key) { return this.state[key]; }
  set(key, value) { this.state[key] = value; this.trigger("change:" + key); }
  on(name, fn) { (this.handlers[name] ||= []).push(fn); }
  off() {}
  trigger(name, ...args) { (this.handlers[name] || []).forEach((fn) => fn(...args)); }
  send(msg) { this.sent.push(msg); }
  save_changes() {}
}
window.alerted = false;
window.alert = () => { window.alerted = true; };
const model = new FakeModel({ snapshot: JSON.parse(document.getElementById("trace").textContent), patch: {} });
widget.initialize({ model });
widget.render({ model, el: document.getElementById("root") });
window.model = model;
window.ready = true;
</script></body></html>"""


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium to run the browser tests")
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="Python Playwright is not installed"
    )
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


def open_page(browser, trace: dict, *, body: str = "", dark: bool = False):
    page = browser.new_page(
        color_scheme="dark" if dark else "light", viewport={"width": 1200, "height": 900}
    )
    html = PAGE % {
        "css": (WIDGETS / "widget.css").read_text(),
        "trace": json.dumps(trace).replace("</", "<\\/"),
        "body": body,
    }
    files = {
        "/": ("text/html", html),
        "/widget.js": ("text/javascript", (WIDGETS / "widget.js").read_text()),
    }

    def serve(route):
        path = "/" + route.request.url.split("/", 3)[3]
        if path in files:
            kind, text = files[path]
            route.fulfill(status=200, content_type=kind, body=text)
        else:
            route.fulfill(status=404, body="")

    page.set_default_timeout(5000)
    page.route("http://widget.test/**", serve)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto("http://widget.test/")
    page.wait_for_function("window.ready === true")
    assert errors == []
    return page


def trace_of(events) -> dict:
    return Trace.from_events(events).to_dict()


def test_buttons_step_through_rounds_and_announce_them(browser):
    page = open_page(browser, trace_of(examples.single_tool()))
    assert page.text_content(".ad-pos").startswith(
        "Round 2 of 2"
    )  # a finished run opens at its end
    page.click(".ad-prev")
    assert page.text_content(".ad-pos") == "Round 1 of 2"
    live = page.text_content(".ad-live[aria-live=polite]")
    assert live.startswith("Round 1 of 2: the model asks for bash; stop_reason tool_use")
    assert "a.txt\nb.txt" in page.text_content(".ad-out")
    page.click(".ad-next")
    assert page.text_content(".ad-live[aria-live=polite]").startswith(
        "Round 2 of 2: the model answers: There are two"
    )
    assert page.input_value(".ad-slider") == "2"


def test_keyboard_moves_between_rounds(browser):
    page = open_page(browser, trace_of(examples.long_run(6)))
    page.focus(".ad-root")
    page.keyboard.press("Home")
    assert page.text_content(".ad-pos") == "Round 1 of 6"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.text_content(".ad-pos") == "Round 3 of 6"
    page.keyboard.press("ArrowLeft")
    assert page.text_content(".ad-live[aria-live=polite]").startswith(
        "Round 2 of 6: the model asks for bash"
    )
    page.keyboard.press("End")
    assert page.text_content(".ad-pos").startswith("Round 6 of 6")
    page.fill(".ad-slider", "4")
    assert page.text_content(".ad-pos") == "Round 4 of 6"


def test_errors_and_untruncated_calls_are_marked_in_words(browser):
    page = open_page(browser, trace_of(examples.tool_error()))
    page.click(".ad-first")
    assert page.text_content(".ad-call .ad-error") == "ERROR"
    page = open_page(browser, trace_of(examples.max_tokens()))
    assert "NOT RUN" in page.text_content(".ad-lanes")
    page.click("[data-tab=protocol]")
    assert "unanswered tool_use" in page.text_content(".ad-body")


def background(page) -> tuple[int, ...]:
    color = page.eval_on_selector(".ad-root", "el => getComputedStyle(el).backgroundColor")
    return tuple(int(x) for x in color[color.index("(") + 1 : color.index(")")].split(",")[:3])


def test_theme_follows_jupyterlab_then_the_system(browser):
    trace = trace_of(examples.single_tool())
    assert background(open_page(browser, trace)) == (255, 255, 255)
    assert sum(background(open_page(browser, trace, dark=True))) < 100  # no JupyterLab: system dark
    jp_dark = 'style="--jp-layout-color0:#111111;--jp-content-font-color1:#eeeeee"'
    assert background(open_page(browser, trace, body=jp_dark)) == (17, 17, 17)
    jp_light = 'style="--jp-layout-color0:#fafafa"'
    assert background(open_page(browser, trace, body=jp_light, dark=True)) == (250, 250, 250)


def test_messages_view_marks_what_is_new_in_round_k(browser):
    page = open_page(browser, trace_of(examples.long_run(4)))
    page.click("[data-tab=messages]")
    page.keyboard.press("End")
    assert page.locator(".ad-msgs > li").count() == 7
    assert page.locator(".ad-msgs > li.ad-new").count() == 2
    assert "the whole history is sent every time" in page.text_content(".ad-body")
    page.click("[data-tab=growth]")
    assert page.locator("svg.ad-growth rect").count() == 4


def test_live_patches_draw_new_rounds_and_fill_gaps(browser):
    events = examples.long_run(5)
    full = Trace.from_events(events)
    first = Trace.from_events([e for e in events if e.round == 1]).to_dict()
    page = open_page(browser, first)
    assert page.text_content(".ad-pos").startswith("Round 1 of 1")
    patch = {
        "seq": 1,
        "meta": {**full.meta(), "round_count": 3, "finished": None},
        "round": full.rounds[2],
    }
    page.evaluate("p => window.model.set('patch', p)", patch)  # round 2 never arrived
    assert page.text_content(".ad-pos") == "Round 3 of 3"
    assert page.evaluate("window.model.sent") == [{"type": "resend", "rounds": [2]}]
    page.click(".ad-prev")
    assert page.text_content(".ad-body") == "Round 2 has not arrived yet."
    answer = {
        "type": "rounds",
        **full.meta(),
        "round_count": 3,
        "finished": None,
        "rounds": [full.rounds[1]],
    }
    page.evaluate("m => window.model.trigger('msg:custom', m)", answer)
    assert "Sent 3 messages, 2 new" in page.text_content(".ad-body")


def test_predict_then_reveal(browser):
    page = open_page(browser, trace_of(examples.single_tool()))
    page.check(".ad-predict")
    page.click(".ad-first")
    assert page.locator(".ad-predict-box").count() == 1
    assert "a.txt\nb.txt" not in page.text_content(".ad-body")  # the reply is hidden until a guess
    assert page.text_content(".ad-live[aria-live=polite]") == "Round 1 of 2: make your prediction"
    page.click(".ad-guess[data-guess='']")
    assert page.text_content(".ad-verdict") == (
        "Not this time: you guessed “answer in text”; the model called bash."
    )
    assert "a.txt\nb.txt" in page.text_content(".ad-out")
    page.click(".ad-next")
    page.click(".ad-guess[data-guess='']")
    assert page.text_content(".ad-verdict") == (
        "Right: you guessed “answer in text”; the model answered in text."
    )


FIVE_TOOLS = ["bash", "read_file", "write_file", "edit_file", "glob"]


def test_predict_offers_every_tool_in_the_toolbox_and_text(browser):
    trace = Trace.from_events(examples.single_tool(), tools=FIVE_TOOLS).to_dict()
    page = open_page(browser, trace)  # the run called bash only
    page.check(".ad-predict")
    page.click(".ad-first")
    guesses = page.eval_on_selector_all(".ad-guess", "els => els.map((e) => e.dataset.guess)")
    assert guesses == [*FIVE_TOOLS, ""]  # the last: answer in text
    assert "only the tools this run called" not in page.text_content(".ad-predict-box")
    page.click("[data-guess='glob']")
    assert page.text_content(".ad-verdict") == (
        "Not this time: you guessed “glob”; the model called bash."
    )


def test_predict_without_a_toolbox_offers_the_tools_called_and_says_so(browser):
    page = open_page(browser, trace_of(examples.single_tool()))
    page.check(".ad-predict")
    page.click(".ad-first")
    guesses = page.eval_on_selector_all(".ad-guess", "els => els.map((e) => e.dataset.guess)")
    assert guesses == ["bash", ""]
    assert "only the tools this run called are offered" in page.text_content(".ad-predict-box")


HISTORY = [
    {"role": "user", "content": "List files"},
    {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "bash", "input": {"command": "ls"}}]},
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "a.py"}]},
    {"role": "assistant", "content": "One file: a.py"},
]  # fmt: skip


def test_a_history_alone_says_inferred_once_and_draws_no_zero_bars(browser):
    from agentlib.widgets.history import trace_from_messages

    page = open_page(browser, trace_from_messages(HISTORY).to_dict())
    note = page.locator(".ad-inferred")
    assert note.is_visible() and note.text_content().startswith("Stop reasons are inferred")
    for k in (1, 2):
        page.click(".ad-first") if k == 1 else page.click(".ad-next")
        assert "inferred" not in page.text_content(".ad-body")  # not on every stop line
    page.click("[data-tab=growth]")
    assert page.locator("svg.ad-growth").count() == 0
    assert page.text_content(".ad-body").startswith("No token counts recorded for this run")


def test_a_run_with_events_has_no_inferred_note(browser):
    page = open_page(browser, trace_of(examples.single_tool()))
    assert page.locator(".ad-inferred").is_hidden()


def test_keys_are_hinted_and_the_first_lane_says_what_the_harness_is(browser):
    page = open_page(browser, trace_of(examples.single_tool()))
    assert page.text_content(".ad-keys") == (
        "Keys: ← → (or ↑ ↓) previous / next round, Home / End first / last round."
    )
    assert page.get_attribute(".ad-root", "aria-keyshortcuts") == (
        "ArrowLeft ArrowRight ArrowUp ArrowDown Home End"
    )
    heading = page.locator(".ad-lane-user h4")
    assert heading.text_content() == "Your code (the harness)"
    assert heading.get_attribute("title").startswith("The harness is your code around the model")
    assert "your code (the harness) sends the whole history" in page.text_content(".ad-legend")


def test_hostile_strings_stay_text(browser):
    page = open_page(browser, trace_of(examples.hostile_output()))
    page.click(".ad-first")
    page.click("[data-tab=messages]")
    page.click("[data-tab=diagram]")
    assert page.evaluate("window.alerted") is False
    assert page.locator(".ad-root script, .ad-root style, .ad-root svg").count() == 0
    assert "<script>alert(1)</script>" in page.text_content(".ad-out")


# ---- every word from the trace, in either language ------------------------------------------

SEEN = """root => [root.innerText,
  ...[...root.querySelectorAll("[title], [aria-label], [aria-valuetext]")].flatMap((el) =>
    ["title", "aria-label", "aria-valuetext"].map((a) => el.getAttribute(a) || "")),
  root.getAttribute("aria-label"), ...[...root.querySelectorAll("svg text")].map((t) => t.textContent)
].join("\\n")"""


def everything_shown(page) -> str:
    """What a reader sees or hears in every view of every round, predictions and cut texts too."""
    seen = []
    rounds = int(page.get_attribute(".ad-slider", "max"))
    for tab in ("diagram", "messages", "growth", "protocol"):
        page.click(f"[data-tab={tab}]")
        for k in range(1, rounds + 1):
            page.fill(".ad-slider", str(k))
            seen.append(page.eval_on_selector(".ad-root", SEEN))
            while page.locator(".ad-more").count():
                page.click(".ad-more >> nth=0")
            seen.append(page.eval_on_selector(".ad-root", SEEN))
    page.click("[data-tab=diagram]")
    page.check(".ad-predict")
    for k in range(1, rounds + 1):
        page.fill(".ad-slider", str(k))
        seen.append(page.eval_on_selector(".ad-root", SEEN))
        page.click(".ad-guess >> nth=0")
        seen.append(page.eval_on_selector(".ad-root", SEEN))
    return "\n".join(seen)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("make", [examples.single_tool, examples.max_tokens, examples.long_answer,
                                  examples.edit], ids=lambda f: f.__name__)  # fmt: skip
def test_every_word_the_widget_shows_comes_from_the_trace(browser, make, lang):
    from test_widgets_words import leftover, marked

    trace = marked(Trace.from_events(make(), lang=lang).to_dict())
    page = open_page(browser, trace)
    assert leftover(everything_shown(page), trace) == []
    assert leftover("◀ Prev", trace) == ["Prev"]  # a word of its own would be caught


def test_the_chinese_diagram_speaks_chinese_in_the_browser(browser, tmp_path):
    trace = Trace.from_events(examples.single_tool(), tools=FIVE_TOOLS, lang="zh").to_dict()
    page = open_page(browser, trace)
    assert page.text_content(".ad-pos") == "第 2 轮，共 2 轮 · 结束：end_turn"
    assert page.text_content(".ad-lane-user h4") == "你的代码（harness）"
    assert (
        page.text_content(".ad-lane-tools")
        == "工具没有工具调用：这条回复就是最终回答，循环到此结束。"
    )
    tabs = page.eval_on_selector_all(".ad-tab", "els => els.map((e) => e.textContent)")
    assert tabs == ["图解", "发送的消息", "上下文增长", "协议检查"]
    assert page.get_attribute(".ad-root", "lang") == "zh"
    page.click(".ad-first")
    assert page.text_content(".ad-live[aria-live=polite]").startswith(
        "第 1 轮（共 2 轮）：模型请求调用 bash；stop_reason 为 tool_use"
    )
    assert "stop_reason: tool_use，意思是模型请求调用一个或多个工具。" in page.text_content(
        ".ad-stop"
    )
    page.mouse.move(0, 0)
    page.locator(".ad-root").screenshot(path=str(tmp_path / "diagram-zh.png"))
    page.check(".ad-predict")
    assert page.text_content(".ad-predict-box h4") == "预测第 1 轮"
    page.click(".ad-guess[data-guess='']")
    assert page.text_content(".ad-verdict") == "这次没猜中：你猜的是“用文字回答”；模型调用了 bash。"


def test_an_edit_keeps_its_indentation_and_the_last_round_names_the_answer(browser):
    page = open_page(browser, trace_of(examples.edit()))
    assert page.text_content(".ad-lane-tools .ad-final").startswith(
        "No tool calls: this reply is the final"
    )
    page.click(".ad-first")
    shown = page.inner_text(".ad-call .ad-io")  # innerText: what the reader sees, spaces and all
    assert "new_text:\n  def greet(name):\n      if name:\n          return f'hi {name}'" in shown
    assert page.locator(".ad-final").count() == 0  # a round that calls tools is not the last


def test_a_reply_cut_short_opens_on_a_click(browser):
    page = open_page(browser, trace_of(examples.long_answer()))
    block = page.locator(".ad-lane-model .ad-block .ad-text")
    assert block.inner_text().endswith("…") and len(block.inner_text()) == 400
    page.click(".ad-lane-model .ad-more")
    assert block.inner_text() == examples.LONG_ANSWER


def test_nbconvert_html_of_an_executed_notebook_shows_the_diagrams_offline(browser, tmp_path):
    import nbformat
    from nbclient import NotebookClient
    from nbconvert import HTMLExporter
    from test_widgets_notebook import notebook

    nb = notebook()
    NotebookClient(nb, timeout=120, kernel_name="python3").execute(cwd=str(tmp_path))
    assert "widgets" not in nb.metadata
    page_path = tmp_path / "executed.html"
    page_path.write_text(HTMLExporter().from_notebook_node(nb)[0], encoding="utf-8")
    asked: list[str] = []
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:")
               else (asked.append(route.request.url), route.abort()))  # fmt: skip
    page.goto(page_path.as_uri())
    diagrams = page.locator(".agentlib-round-diagram")
    assert diagrams.count() == 3 and all(diagrams.nth(i).is_visible() for i in range(3))
    assert "Model: the reply" in diagrams.nth(0).inner_text()
    assert "模型：回复" in diagrams.nth(2).inner_text()
    assert diagrams.nth(0).bounding_box()["height"] > 200
    # nbconvert's page aligns table cells right: the diagram's own style keeps them left
    aligned = page.eval_on_selector_all(
        ".agentlib-round-diagram td", "els => els.map((e) => getComputedStyle(e).textAlign)"
    )
    assert set(aligned) == {"left"}
    diagrams.nth(0).screenshot(path=str(tmp_path / "nbconvert.png"))
    nbformat.write(nb, tmp_path / "executed.ipynb")


# ---- one end-to-end run in a real JupyterLab ----------------------------------------------------

DEMO_OFFLINE = '''from pathlib import Path

from agentlib import Toolbox, agent_loop, tool
from agentlib.offline import Script, call, offline_client, reply, say
from agentlib.widgets import show

Path("notes.txt").write_text("Ship the round diagram on Friday.\\n")


@tool(read_only=True)
def list_files() -> str:
    """List the files in the current folder."""
    return "\\n".join(sorted(p.name for p in Path(".").iterdir() if p.is_file()))


@tool(read_only=True)
def read_file(path: str) -> str:
    """Read a text file.

    Args:
        path: the file to read
    """
    return Path(path).read_text()


script = Script(
    reply("I'll see which files are here.", call("list_files")),
    reply("Reading both.", call("read_file", path="notes.txt"), call("read_file", path="todo.txt")),
    say("notes.txt says: ship the round diagram on Friday. There is no todo.txt."),
)
client, model = offline_client(script)
question = [{"role": "user", "content": "What do my notes and my todo list say?"}]
state = agent_loop(question, client=client, model=model, tools=Toolbox([list_files, read_file]))
show(state)'''

DEMO_EVENTS = f"""import sys
sys.path.insert(0, {str(Path(__file__).parent)!r})
import widget_examples as examples
from agentlib.widgets import show

show(examples.tool_error())"""


@pytest.fixture
def jupyterlab(tmp_path):
    """A JupyterLab server on a free port serving ``tmp_path/work``; stopped after the test."""
    import nbformat

    if shutil.which("jupyter-lab", path=str(Path(sys.executable).parent)) is None:
        pytest.skip("jupyter-lab is not installed next to this Python")
    work = tmp_path / "work"
    work.mkdir()
    have_offline = importlib.util.find_spec("agentlib.offline") is not None
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.cells = [nbformat.v4.new_code_cell(DEMO_OFFLINE if have_offline else DEMO_EVENTS)]
    nbformat.write(nb, work / "demo.ipynb")
    settings = tmp_path / "settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
    env = {
        **os.environ,
        "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"),
        "JUPYTERLAB_SETTINGS_DIR": str(tmp_path / "settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(tmp_path / "workspaces"),
    }
    cmd = [  # port 0: the system picks a free one, which no other test can take in between
        str(Path(sys.executable).parent / "jupyter-lab"), "--no-browser", "--port=0",
        "--IdentityProvider.token=", "--ServerApp.password=", f"--notebook-dir={work}",
    ]  # fmt: skip
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")  # containers and CI often run as root
    log = open(tmp_path / "lab.log", "wb")  # closed in the finally below
    server = subprocess.Popen(
        cmd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 90
        while True:
            try:  # the server writes where it listens into its runtime folder
                info = json.loads(next((tmp_path / "runtime").glob("jpserver-*.json")).read_text())
                url = f"http://127.0.0.1:{info['port']}"
                with urllib.request.urlopen(f"{url}/api/status", timeout=2):
                    break
            except (OSError, StopIteration, ValueError):
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError((tmp_path / "lab.log").read_text()[-2000:]) from None
                time.sleep(0.5)
        yield url, have_offline
    finally:
        server.terminate()  # the server shuts its kernels down on SIGTERM
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, 9)
            server.wait()
        log.close()


def run_all_until_a_diagram(page):
    """Run All Cells from JupyterLab's menu until a round diagram appears (None if it never does)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']")
    for _attempt in range(4):  # a Run All clicked while the kernel still connects is dropped
        dialog = page.locator(".jp-Dialog")
        if dialog.count() and dialog.first.is_visible():  # say what JupyterLab asks, not a timeout
            raise AssertionError(f"JupyterLab shows a dialog: {dialog.first.inner_text()[:300]!r}")
        page.click(".lm-MenuBar-itemLabel:text-is('Run')")
        page.click(".lm-Menu-itemLabel:text-is('Run All Cells')")
        try:  # a run that was taken marks its cells [*] (running or queued) at once
            page.wait_for_selector(".jp-InputPrompt:has-text('[*]'), .ad-root", timeout=5_000)
        except PlaywrightTimeout:
            page.keyboard.press("Escape")
            continue
        try:
            return page.wait_for_selector(".ad-root", timeout=60_000)
        except PlaywrightTimeout:
            return None
    return None


def test_jupyterlab_runs_the_notebook_and_the_widget_steps(browser, jupyterlab, tmp_path):
    url, have_offline = jupyterlab
    page = browser.new_page(viewport={"width": 1280, "height": 1000}, device_scale_factor=2)
    page.set_default_timeout(90_000)
    try:
        page.goto(f"{url}/lab/tree/demo.ipynb")
        page.wait_for_selector(".jp-Notebook .jp-Cell")
        page.click(".jp-SideBar.jp-mod-left .lm-TabBar-tab.lm-mod-current")  # fold the file browser
        root = run_all_until_a_diagram(page)
        assert root is not None, "the notebook ran but no round diagram appeared"
        page.set_default_timeout(10_000)
        rounds = 3 if have_offline else 2
        assert page.text_content(".ad-pos").startswith(f"Round {rounds} of {rounds}")
        page.click(".ad-first")
        assert page.text_content(".ad-pos") == f"Round 1 of {rounds}"
        page.focus(".ad-root")
        page.keyboard.press("ArrowRight")
        assert page.text_content(".ad-pos") == f"Round 2 of {rounds}"
        assert page.text_content(".ad-live[aria-live=polite]").startswith(f"Round 2 of {rounds}: ")
        # keys the notebook itself binds in command mode (up/down move between cells, "d d"
        # deletes one) must reach the diagram, not the notebook
        cells = page.locator(".jp-Notebook .jp-Cell").count()
        page.keyboard.press("ArrowUp")
        assert page.text_content(".ad-pos") == f"Round 1 of {rounds}"
        page.keyboard.press("End")
        assert page.text_content(".ad-pos").startswith(f"Round {rounds} of {rounds}")
        page.keyboard.press("ArrowUp")
        page.keyboard.press("d")
        page.keyboard.press("d")
        assert page.text_content(".ad-pos") == f"Round {rounds - 1} of {rounds}"
        assert page.locator(".jp-Notebook .jp-Cell").count() == cells
        page.keyboard.press("ArrowDown")
        assert page.text_content(".ad-pos").startswith(f"Round {rounds} of {rounds}")
        page.keyboard.press("Home")
        page.keyboard.press("ArrowRight")
        if have_offline:
            page.click(".ad-prev")
            page.click(".ad-next")  # leave round 2 (two reads, one ERROR) for the picture
            assert "ERROR" in page.text_content(".ad-lane-tools")
            page.mouse.move(0, 0)
            # the README's picture is refreshed on request only, so a test run leaves the tree clean
            shot = (
                README_IMAGE if os.environ.get("UPDATE_README_IMAGE") else tmp_path / "diagram.png"
            )
            shot.parent.mkdir(parents=True, exist_ok=True)
            root.screenshot(path=str(shot), animations="disabled")
            assert shot.stat().st_size > 10_000
    except Exception:
        page.screenshot(path=str(tmp_path / "failure.png"))  # what JupyterLab showed, for diagnosis
        raise
    finally:
        page.close()


def test_jupyterlab_runs_a_chinese_notebook_and_draws_the_diagram_in_chinese(browser, jupyterlab, tmp_path):  # fmt: skip
    url, _ = jupyterlab
    chinese = Path(__file__).parents[1] / "notebooks" / "zh" / "00_setup.ipynb"
    (tmp_path / "work" / "00_setup.ipynb").write_bytes(chinese.read_bytes())  # the fixture's folder
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    page.set_default_timeout(90_000)
    try:
        page.goto(f"{url}/lab/tree/00_setup.ipynb")
        page.wait_for_selector(".jp-Notebook .jp-Cell")
        root = run_all_until_a_diagram(page)
        assert root is not None, "the Chinese notebook ran but no round diagram appeared"
        page.wait_for_selector(".ad-pos:has-text('结束')", timeout=60_000)  # the live run is over
        page.set_default_timeout(10_000)
        assert page.get_attribute(".ad-root", "lang") == "zh"
        assert page.text_content(".ad-pos") == "第 2 轮，共 2 轮 · 结束：end_turn"
        assert page.text_content(".ad-lane-user h4") == "你的代码（harness）"
        tabs = page.eval_on_selector_all(".ad-tab", "els => els.map((e) => e.textContent)")
        assert tabs == ["图解", "发送的消息", "上下文增长", "协议检查"]
        page.click(".ad-first")
        assert page.text_content(".ad-pos") == "第 1 轮，共 2 轮"
        assert "stop_reason: tool_use，意思是模型请求调用一个或多个工具。" in page.text_content(
            ".ad-stop"
        )
        root.screenshot(path=str(tmp_path / "diagram-zh.png"), animations="disabled")
    except Exception:
        page.screenshot(path=str(tmp_path / "failure.png"))  # what JupyterLab showed, for diagnosis
        raise
    finally:
        page.close()
