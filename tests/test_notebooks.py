"""The notebooks: committed clean, one sitting each, and executed top to bottom offline twice: as the learner gets them (the exercise checks explain) and with the solutions filled in (the checks pass)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from conftest import FAKE_KEY

from agentlib.course import run_notebook
from agentlib.course.checks import BLANK, NOT_YET, WORKS

pytestmark = pytest.mark.xdist_group("course-runs")  # the session's runs stay on one worker

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
NAMES = [
    "00_setup",
    "01_loop_by_hand",
    "02_agent_loop",
    "03_tool_use",
    "04_sandbox",
    "05_your_own_tool",
    "99_appendix",
]
LESSONS = NAMES[1:-1]  # each opens with a picture and ends with a quiz
EXERCISES = {"01_loop_by_hand": 3, "02_agent_loop": 1, "03_tool_use": 2, "04_sandbox": 1, "05_your_own_tool": 2}  # fmt: skip
MAX_PROSE_WORDS, MAX_CODE_CELLS = 1700, 35
MAX_LESSON_WORDS = 1500  # a lesson (01-05) is one sitting: about 45 minutes
DATED_MODEL = re.compile(r"claude-[a-z0-9.-]*-20\d{6}")
DIAGRAM = 'class="agentlib-round-diagram"'  # the static copy a runner's diagram output is


def read(name: str):
    return nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)


def tagged(nb, tag: str) -> list:
    return [c for c in nb.cells if tag in c.metadata.get("tags", [])]


def execute(name: str, course_runs, *, solutions: bool = False, notebook: Path | None = None, tmp_path: Path | None = None):  # fmt: skip
    """One notebook's run (once per session), offline, with a fake key in the kernel's env.

    ``notebook`` (a changed copy) is run afresh in ``tmp_path/workspace``.
    """
    if notebook is None:
        run, workspace, _ = course_runs.get(name, solutions=solutions)
    else:
        workspace = tmp_path / "workspace"
        workspace.mkdir()
        run = run_notebook(notebook, {"WORKSPACE": str(workspace)}, env={"ANTHROPIC_API_KEY": FAKE_KEY},
                           timeout=120, solutions=solutions)  # fmt: skip
    assert run.ok, run.report()
    everything = json.dumps([c.get("outputs", []) for c in run.code_cells()], ensure_ascii=False)
    assert "sk-ant-" not in everything
    assert not DATED_MODEL.search(everything)
    assert not [o for o in run.outputs() if o.output_type == "error"]  # papermill sees no error
    return run, workspace


def flat(text: str) -> str:
    """``text`` with every run of whitespace made one space: verdicts wrap their lines."""
    return " ".join(text.split())


def verdicts(run) -> list[str]:
    """The first line of every exercise check's verdict, in order."""
    return [line for line in run.text().splitlines() if line.startswith((WORKS, NOT_YET, BLANK))]


def assert_checks(run, name: str, solutions: bool) -> None:
    """As handed out every check explains a blank; with the solutions every check passes."""
    found = verdicts(run)
    assert len(found) == EXERCISES[name], found
    expected = WORKS if solutions else BLANK
    assert all(v.startswith(expected) for v in found), found


def widget_bundles(run) -> list[dict]:
    return [
        o.data
        for o in run.outputs()
        if o.output_type in ("display_data", "execute_result")
        and DIAGRAM in o.data.get("text/html", "")
    ]


def assert_static_diagrams(run, at_least: int) -> None:
    bundles = widget_bundles(run)
    assert len(bundles) >= at_least
    for data in bundles:
        assert data["text/html"].strip() and "<script" not in data["text/html"].lower()
        assert data["text/plain"].startswith("Round diagram")


def test_the_course_runs_stay_on_one_worker(request):
    """With -n, xdist keeps a group on one worker by the group it writes into each test's id."""
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("checked by the README's command: pytest -n with --dist loadgroup")
    assert request.node.nodeid.endswith("@course-runs"), request.node.nodeid


@pytest.mark.parametrize("name", NAMES)
def test_notebook_is_committed_clean_and_one_sitting(name):
    nb = read(name)
    nbformat.validate(nb)
    assert "widgets" not in nb.metadata
    code = [c for c in nb.cells if c.cell_type == "code"]
    for cell in code:
        assert cell.outputs == [] and cell.execution_count is None, cell.source[:80]
        assert "raises-exception" not in cell.metadata.get("tags", [])  # expect_error instead
    assert code[0].metadata.get("tags") == ["parameters"]
    for parameter in ("BACKEND", "WORKSPACE", "EXTRA_TOOLS", "SCRIPT"):  # typed, for papermill
        assert re.search(rf"^{parameter}: [^=]+ = ", code[0].source, re.M)
    text = (NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8")
    assert not DATED_MODEL.search(text) and "sk-ant-" not in text
    assert nb.cells[0].source.startswith("# ")
    prose = sum(len(c.source.split()) for c in nb.cells if c.cell_type == "markdown")
    limit = MAX_LESSON_WORDS if name in LESSONS else MAX_PROSE_WORDS
    assert prose <= limit and len(code) <= MAX_CODE_CELLS, (prose, len(code))


@pytest.mark.parametrize("name", LESSONS)
def test_lesson_opens_with_a_picture_and_ends_with_a_quiz(name):
    nb = read(name)
    assert "```" in nb.cells[0].source  # the diagram, drawn before anything runs
    quiz = tagged(nb, "quiz")
    assert quiz and nb.cells[-1] is quiz[-1]
    questions = re.findall(r"^\*\*\d+\.\*\*", quiz[-1].source, re.M)
    answers = quiz[-1].source.count("<details><summary>Answer</summary>")
    assert 4 <= len(questions) == answers <= 6
    # markdown is not rendered inside <details>: a backtick would show as a backtick
    inside = re.findall(r"<details>.*?</details>", quiz[-1].source, re.S)
    assert not [answer for answer in inside if "`" in answer]


@pytest.mark.parametrize("name", list(EXERCISES))
def test_each_exercise_has_a_collapsed_solution_never_run_by_default(name):
    nb = read(name)
    exercises = tagged(nb, "exercise")
    assert len(exercises) == EXERCISES[name]
    solutions = tagged(nb, "solution")
    assert len(solutions) == len(exercises)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    for solution in solutions:
        assert solution.cell_type == "markdown" and solution.source.startswith("<details>")
        body = re.search(r"```python\n(.*?)```", solution.source, re.S).group(1)
        assert body.strip() not in code  # the answer is not shown in any code cell


def test_00_setup_runs_offline_and_draws_one_run(course_runs):
    run, workspace = execute("00_setup", course_runs)
    text = run.text()
    assert "using the offline model agentlib-offline" in text
    assert "I am agentlib's offline model, not Claude" in text
    assert "ANTHROPIC_API_KEY      (set)" in text  # named, never shown
    assert (workspace / "main.py").read_text() == 'print("main")\n'
    assert_static_diagrams(run, 1)
    assert "tool_use glob" in widget_bundles(run)[0]["text/plain"]


@pytest.mark.parametrize("solutions", [False, True], ids=["as-handed-out", "with-solutions"])
def test_01_loop_by_hand(course_runs, solutions):
    run, _ = execute("01_loop_by_hand", course_runs, solutions=solutions)
    text = run.text()
    assert_checks(run, "01_loop_by_hand", solutions)
    assert "\"echo s''udo\"            blocked by the seed's check: False" in text
    assert "'rm -fr /'               blocked by the seed's check: False" in text
    assert "Error: Timeout (0.5s)" in text and "(no output)" in text
    assert "50000 characters came back of 60000" in text
    shown = text.count("Error shown on purpose: anthropic.BadRequestError (HTTP 400")
    assert shown == 2 and "unexpected `tool_use_id` found in `tool_result` blocks" in text
    assert "`tool_use` ids were found without `tool_result` blocks" in text
    assert "roles must alternate" not in text
    assert "nosuchprogram" in text and "not found | exit status: 127" in text  # sh or bash wording
    assert "Error: [Errno 7] Argument list too long" in text  # OSError: the shell did not start
    if solutions:
        assert_static_diagrams(run, 1)  # the learner's own loop, drawn
        assert "tool_use bash" in widget_bundles(run)[0]["text/plain"]
    else:
        assert "This cell draws your loop once the check above says it works." in text
    if solutions:
        assert "the model read '(exit code 4)'" in flat(text)
        assert "the model answered 'Both ran.'" in flat(text)
        assert "3 model calls, 6 messages" in flat(text)


@pytest.mark.parametrize("solutions", [False, True], ids=["as-handed-out", "with-solutions"])
def test_02_agent_loop(course_runs, solutions):
    run, workspace = execute("02_agent_loop", course_runs, solutions=solutions)
    text = run.text()
    assert_checks(run, "02_agent_loop", solutions)
    hello = subprocess.run(
        [sys.executable, "hello.py"], cwd=workspace, capture_output=True, text=True
    )
    assert hello.stdout == "Hello, World!\n"
    assert sorted(p.name for p in (workspace / "test_output").iterdir()) == [
        "file1.txt", "file2.txt", "file3.txt"]  # fmt: skip
    assert "The current git branch is `main`." in text
    assert "当前目录有2个Python文件：hello.py、main.py" in text
    assert "the answer is nowhere in the history: True" in text and "accepted: end_turn" in text
    assert "1 round: max_rounds -> the round limit" in text
    assert "1 round: max_tokens -> the reply was cut off" in text
    assert "max_rounds rounds" not in text
    assert "[tool_use] bash {}" in text  # a tool call cut at max_tokens
    assert "ids were found without `tool_result` blocks immediately after" in text
    assert "agentlib.agent_loop on that history: accepted, stop_reason 'end_turn'" in text
    assert re.search(r"round 3: 5 messages sent, \d+ input tokens", text)
    assert "same transcript: 6 messages, stopped on 'end_turn'" in text
    assert_static_diagrams(run, 6)
    lesson = [b for b in widget_bundles(run) if "tool_use shout" not in b["text/plain"]]
    assert "Created notes.txt" in lesson[-1]["text/plain"]  # your own question
    assert (workspace / "notes.txt").read_text().strip() == "hello"
    if solutions:
        assert "pause_turn resumed the turn, and the cut-off tool call was never run" in flat(text)


@pytest.mark.parametrize("solutions", [False, True], ids=["as-handed-out", "with-solutions"])
def test_03_tool_use(course_runs, solutions):
    run, workspace = execute("03_tool_use", course_runs, solutions=solutions)
    text = run.text()
    assert_checks(run, "03_tool_use", solutions)
    assert "the model sees 5111 of 20000 lines; the last one reads 'line 51'," in text
    assert "but line 5111 of the file is 'line 5111'" in text
    assert "label = RAD" in text and "label = R&D" in text
    assert "Wrote 5 bytes to notes/café.txt | agentlib: Wrote 6 bytes to notes/café.txt" in text
    assert "Edited twice.txt -> ['x = 2', 'x = 1']" in text  # the seed edits the first silently
    assert "old_text occurs 2 times in twice.txt" in text and "['x = 1', 'x = 1']" in text
    assert "Unknown tool: delete_everything" in text
    assert "'delete_file' is in TOOLS but not in TOOL_HANDLERS" in text
    assert "5 changed lines of 19" in text
    greet = (workspace / "greet.py").read_text()
    assert "def greet(name):" in greet and '"""' in greet and "Hello, s02!" in text
    compare = [o.data for o in run.outputs("execute_result") if "s01 -> s02" in o.data.get("text/plain", "")]  # fmt: skip
    assert compare and "edit_file" in compare[0]["text/html"]
    assert_static_diagrams(run, 4)
    assert "s02 >> " in text and "> read_file {'path': 'greet.py'}" in text  # the REPL, piped
    assert (workspace / "repl" / "greet.py").exists()
    if solutions:
        assert "occurs 2 times in edit-check-" in flat(
            text
        )  # what the model read from the learner's edit
        assert "write_file, edit_file, read_file, glob, bash" in flat(text)
    assert not list(workspace.glob("edit-check-*")) and not list(workspace.glob("dispatch-check-*"))


@pytest.mark.parametrize("solutions", [False, True], ids=["as-handed-out", "with-solutions"])
def test_04_sandbox(course_runs, solutions):
    run, workspace = execute("04_sandbox", course_runs, solutions=solutions)
    text = run.text()
    assert_checks(run, "04_sandbox", solutions)
    assert "Error shown on purpose: ValueError\n  Path escapes workspace: ../../etc/passwd" in text
    assert "a secret from outside the workspace" in text
    for attack in ("symlink swap", "hard link (read)", "absolute glob", "glob with ..", "FIFO"):
        assert re.search(rf"^{re.escape(attack)}\s+refused: ", text, re.M), attack
    assert "read_file still blocked after 0.5 s: True" in text
    assert "released once a writer opened the pipe: True" in text
    escape = widget_bundles(run)[0]["text/plain"]  # the model's escape attempt, refused
    assert "tool_use read_file" in escape and "tool_use glob" in escape
    assert "ERROR" in escape and "is not allowed in glob patterns" in escape
    assert "the string check says inside: True; the glob finds ['stolen.txt']" in text
    assert "is_relative_to says inside: False" in text
    assert not (workspace.parent / f"{workspace.name}-evil").exists()
    _, normalised = text.split("_meta: Extra inputs are not permitted")  # then it goes
    assert "'_meta'" not in normalised
    assert "the outside file says: a secret from outside the workspace" in text
    assert "seed run_bash: wrote it" in text
    assert "seed run_bash: connected" in text
    for refusal in (
        "`tool_use` ids were found without `tool_result` blocks",  # the broken history
        "Did not find 1 `tool_result` block(s) at the beginning",  # the seed's (cancelled) placement
        "all messages must have non-empty content",  # the seed drops SDK blocks
    ):
        assert refusal in text, refusal
    assert "what the seed sends as messages[1]: {'role': 'assistant', 'content': []}" in text
    assert "interrupted: accepted" in text and "SDK blocks: accepted" in text
    if "isolation: bwrap" in text:
        assert "outside folder now holds: ['secret.txt']" in text
        assert "ws.bash:       ['ConnectionRefusedError: [Errno 111] Connection refused'" in text
    if solutions:
        assert "the model read 'Error: pattern must stay inside the workspace: /etc/*'" in flat(
            text
        )
    assert not (workspace / "glob-check").exists()


@pytest.mark.parametrize("solutions", [False, True], ids=["as-handed-out", "with-solutions"])
def test_05_your_own_tool(course_runs, solutions):
    run, _ = execute("05_your_own_tool", course_runs, solutions=solutions)
    text = run.text()
    assert_checks(run, "05_your_own_tool", solutions)
    assert "the good copy passes" in text
    assert (
        "'char_count' is in TOOL_HANDLERS but not in TOOLS: the model never learns it exists."
        in text
    )
    assert "the model will call it and get 'Unknown tool'" in text
    assert "prints its result instead of returning it" in text
    assert "the handler needs 'words', which the schema never asks for" in text
    assert "fails, so the model would read an error" in text
    if solutions:
        assert "word_count({'text': 'One loop and bash is all you need'}) -> '8'" in flat(text)
        assert_static_diagrams(run, 2)
    else:
        assert "This cell runs your tool in the loop once the check above says it works." in text
        assert_static_diagrams(run, 1)


def test_05_works_for_whatever_name_the_learner_picks(tmp_path):
    """The solution renamed (and given another body): every check and the run follow the name."""
    nb = read("05_your_own_tool")
    for cell in tagged(nb, "solution"):
        cell.source = (
            cell.source.replace('"word_count"', '"shout-it"')
            .replace("str(len(text.split()))", "text.upper()")
            .replace("Count the words in a text", "Shout a text back in capitals")
        )
    renamed = tmp_path / "05_renamed.ipynb"
    nbformat.write(nb, renamed)
    run, _ = execute("05_your_own_tool", None, solutions=True, notebook=renamed, tmp_path=tmp_path)
    text = run.text()
    assert_checks(run, "05_your_own_tool", True)
    assert "shout-it({'text': 'One loop and bash is all you need'}) -> 'ONE LOOP AND BASH IS ALL YOU NEED'" in flat(text)  # fmt: skip
    assert "word_count" not in text


def test_99_appendix_runs_the_reference_sections(course_runs):
    run, workspace = execute("99_appendix", course_runs)
    text = run.text()
    assert "(6 messages in the history now)" in text and "(10 messages in the history now)" in text
    assert "hello.py" in text and (workspace / "hello.py").exists()
    assert "override=False: from-the-shell" in text and "override=True:  from-the-file" in text
    assert "after the seed's line:      {'ANTHROPIC_BASE_URL': 'http://localhost:8080'}" in text
    assert "Error shown on purpose: KeyError" in text
    assert "no SCRIPT set" not in text  # the instructor's script ran (the book checks the default)
    assert "tool_use shout" in widget_bundles(run)[-1]["text/plain"]


@pytest.mark.parametrize("name", NAMES)
def test_the_instructor_tools_are_imported_and_called_in_every_notebook(course_runs, name):
    run, _, log = course_runs.get(name)
    assert run.ok, run.report()
    assert "instructor tools shout (EXTRA_TOOLS) are offered wherever" in run.text()
    events = [line.split(" ", 1)[1] for line in log.read_text(encoding="utf-8").splitlines()]
    assert events == ["imported", "called shout('hello from the instructor')"]
