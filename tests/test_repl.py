"""``python -m agentlib s01|s02``: the seeds' REPL and the one-shot prompt, offline."""

from __future__ import annotations

import io
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from agentlib import Workspace
from agentlib.errors import ConfigError
from agentlib.offline import Script, call, offline_client, reply, say
from agentlib.repl import Session, run, visible


def agentlib_cli(*args, cwd, stdin=""):
    """Run ``python -m agentlib`` offline, with no key and no .env in reach."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "AGENTLIB_"))}
    env.pop("MODEL_ID", None)
    return subprocess.run(
        [sys.executable, "-m", "agentlib", *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_one_shot_lists_python_files_and_exits_zero(tmp_path):
    work = tmp_path / "project"
    work.mkdir()
    (work / "app.py").write_text("print('app')\n")
    done = agentlib_cli(
        "s02", "-p", "List all Python files", "--workspace", str(work), cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("agentlib: using the offline model agentlib-offline (no ANTHROPIC")
    assert lines[1] == f"workspace: {work.resolve()}"
    assert "> glob {'pattern': '**/*.py'}" in lines
    assert "Found 1 Python file:\n  - app.py" in done.stdout


def test_repl_keeps_history_ignores_blank_lines_and_quits_on_q(tmp_path):
    work = tmp_path / "w"
    questions = [
        'Create a file called hello.py that prints "Hello, World!"',
        "",
        "List all Python files in this directory",
        "q",
        "this is never asked",
    ]
    done = agentlib_cli("s01", "--workspace", str(work), cwd=tmp_path, stdin="\n".join(questions))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "I'll create hello.py." in out  # text next to a tool call is printed too
    assert "$ cat > hello.py <<'AGENTLIB_EOF' [… 2 lines cut …]" in out  # the call, as it runs
    assert "$ python3 hello.py\nHello, World!" in out  # with a preview of its output
    assert "Found 1 Python file:\n  - hello.py" in out
    assert "never asked" not in out and out.count("rounds,") == 2
    assert "estimated" in out  # offline token counts are labelled as estimates
    assert (work / "hello.py").exists()


@pytest.mark.parametrize("ending", ["exit\n", ""], ids=["exit", "EOF"])
def test_repl_quits_on_exit_and_on_end_of_input(tmp_path, ending):
    done = agentlib_cli("s02", "--workspace", str(tmp_path / "w"), cwd=tmp_path, stdin=ending)
    assert done.returncode == 0
    assert done.stdout.rstrip().endswith("s02 >>")


def test_default_workspace_is_a_fresh_temporary_folder_not_the_cwd(tmp_path):
    done = agentlib_cli("s01", "-p", 'Create a file called hello.py that prints "hi"', cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "hello.py").exists()
    folder = Path(re.search(r"^workspace: (\S+) \(a fresh temporary folder", done.stdout, re.M)[1])
    try:
        assert (folder / "hello.py").read_text() == 'print("hi")\n'
    finally:
        for child in folder.iterdir():
            child.unlink()
        folder.rmdir()


def test_api_backend_without_a_key_is_a_clear_message(tmp_path):
    done = agentlib_cli("s01", "--backend", "anthropic", "-p", "hi", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith("agentlib: No API key: put a line ANTHROPIC_API_KEY=")
    assert "Traceback" not in done.stderr


def test_a_stray_env_with_a_key_but_no_model_names_the_file_and_the_way_back_offline(tmp_path):
    key = "sk-ant-test-not-a-real-key-123"
    (tmp_path / ".env").write_text(f"ANTHROPIC_API_KEY={key}\n")
    done = agentlib_cli("s02", "-p", "hi", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith("agentlib: MODEL_ID is not set.")
    assert f"found in {tmp_path.resolve() / '.env'}" in done.stderr
    assert "--backend offline" in done.stderr and "Traceback" not in done.stderr
    assert key not in done.stdout + done.stderr


def test_a_dead_endpoint_says_how_to_run_offline_in_the_repls_own_words(tmp_path):
    key = "sk-ant-test-not-a-real-key-123"
    with socket.socket() as closed:  # a port nothing listens on once this block ends
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    settings = f"ANTHROPIC_API_KEY={key}\nANTHROPIC_BASE_URL=http://127.0.0.1:{port}\nMODEL_ID=m\n"
    (tmp_path / ".env").write_text(settings)
    done = agentlib_cli("s02", "-p", "hi", cwd=tmp_path)
    assert done.returncode == 1
    assert f"Error: Cannot reach the API at http://127.0.0.1:{port}/" in done.stdout
    assert "--backend offline in the REPL" in done.stdout
    assert key not in done.stdout + done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("cause", ["a file in the way", "a read-only folder"])
def test_a_workspace_that_cannot_be_made_is_a_clear_message(tmp_path, cause):
    if cause == "a file in the way":
        (tmp_path / "notes.txt").write_text("mine\n")
        workspace = "notes.txt/work"
    else:
        if os.geteuid() == 0:
            pytest.skip("root may write into a read-only folder")
        tmp_path.chmod(0o555)
        workspace = "work"
    try:
        done = agentlib_cli("s02", "--workspace", workspace, "-p", "hi", cwd=tmp_path)
    finally:
        tmp_path.chmod(0o755)
    assert done.returncode == 2
    assert f"agentlib: Cannot make the workspace {tmp_path / workspace}: " in done.stderr
    assert "leave it out for a fresh temporary folder" in done.stderr
    assert "Traceback" not in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == (["notes.txt"] if "file" in cause else [])


def test_session_survives_a_failed_call_and_keeps_going(tmp_path):
    script = Script(reply("Checking.", call("bash", command="echo checked")), say("All good."))
    client, model = offline_client(script)
    out = io.StringIO()
    session = Session("s01", client, model, Workspace(tmp_path), out)
    state = session.ask("check it")
    assert state.stop_reason == "end_turn"
    assert "Checking.\n$ echo checked\nchecked\nAll good.\n" in out.getvalue()
    assert session.ask("again") is None  # the script has run out: shown, not raised
    assert "Error: The offline script ran out after 2 replies" in out.getvalue()


# -- terminal safety: what the model or a tool prints is shown, never obeyed --------------------
class Terminal(io.StringIO):
    """An output that says it is a terminal, so the REPL uses its colours."""

    def isatty(self) -> bool:
        return True


CLIPBOARD = "\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\x07"  # OSC 52: write the clipboard
TITLE = "\x1b]0;all good\x07"  # set the window title
REDRAW = "\r\x1b[2K$ ls"  # go back and overwrite the shown command line


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        (CLIPBOARD, "\\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\\x07"),
        (REDRAW, "\\r\\x1b[2K$ ls"),
        ("bell\x07 del\x7f csi\x9b", "bell\\x07 del\\x7f csi\\x9b"),
        ("abc\u202edcba", "abc\\u202edcba"),  # a right-to-left override reorders the display
        ("tabs\tand\nnewlines stay", "tabs\tand\nnewlines stay"),
        ("ünïcödé and emoji 🎉 stay", "ünïcödé and emoji 🎉 stay"),
        (
            "a family 👨\u200d👩\u200d👧 and ZWNJ \u200c stay",
            "a family 👨\u200d👩\u200d👧 and ZWNJ \u200c stay",
        ),
        # by Unicode category, beyond a hand-made table: zero-width space, BOM, tag characters
        ("zero\u200bwidth\ufeff tag\U000e0041", "zero\\u200bwidth\\ufeff tag\\U000e0041"),
        ("lone \ud800 surrogate", "lone \\ud800 surrogate"),  # could not even be printed
    ],
)
def test_visible_shows_control_characters_instead_of_obeying_them(raw, shown):
    assert visible(raw) == shown


def test_the_repl_prints_model_and_tool_text_inert_but_keeps_its_own_colours(tmp_path):
    hostile = f"{TITLE}Done.{CLIPBOARD}"
    command = "printf 'rm -rf ~\\r\\033[2K$ ls\\n'"
    script = Script(reply(hostile, call("bash", command=command + " # \x1b[8mhidden")), say("Ok."))
    client, model = offline_client(script)
    out = Terminal()
    Session("s01", client, model, Workspace(tmp_path), out).ask("go")
    shown = out.getvalue()
    ours = re.sub(r"\x1b\[[0-9;]*m", "", shown)  # take away the REPL's own colour codes
    assert not any(ch in ours for ch in "\x1b\x07\r\x9b")  # nothing left for the terminal to obey
    assert "\x1b[33m$ printf" in shown  # the call line keeps its colour
    assert "\\x1b]0;all good\\x07Done.\\x1b]52;c;" in ours
    assert "rm -rf ~\\r\\x1b[2K$ ls" in ours  # the redraw shows what really ran
    assert "# \\x1b[8mhidden" in ours


def test_every_control_and_bidi_character_is_shown_as_an_escape():
    hidden = [*range(0x20), 0x7F, *range(0x80, 0xA0), 0x61C, 0x200E, 0x200F]
    hidden += [*range(0x2028, 0x202F), *range(0x2066, 0x206A)]
    for code in hidden:
        if chr(code) not in "\t\n":
            assert visible(chr(code)) == ascii(chr(code))[1:-1], hex(code)


# -- the next start: a model must not change what it reads (.env) or imports (dotenv.py) ----------
def test_the_folder_the_repl_starts_in_is_refused_as_its_workspace(tmp_path):
    done = agentlib_cli("s02", "--workspace", ".", "-p", "write .env", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith(f"agentlib: Not a safe workspace, {tmp_path.resolve()}: ")
    assert "write one there (ANTHROPIC_BASE_URL" in done.stderr  # the .env connect() reads
    assert "(dotenv.py) would be imported by the next start" in done.stderr  # python -m: cwd
    assert "--workspace work" in done.stderr and "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []  # refused before anything ran or was made


def test_a_folder_above_the_cwd_is_refused_for_the_env_it_could_write(tmp_path, monkeypatch):
    below = tmp_path / "project" / "src"
    below.mkdir(parents=True)
    monkeypatch.chdir(below)
    with pytest.raises(ConfigError, match=r"connect\(\) reads \.env from .*project"):
        run("s02", prompt="hi", workspace=str(tmp_path / "project"), out=io.StringIO())


def test_a_folder_on_the_import_path_is_refused_for_the_modules_it_could_shadow(
    tmp_path, monkeypatch
):
    imported = tmp_path / "lib"
    imported.mkdir()
    monkeypatch.syspath_prepend(str(imported))
    monkeypatch.chdir(tmp_path)
    for workspace in (imported, tmp_path / "lib" / "..", tmp_path):
        with pytest.raises(ConfigError, match="is on Python's import path"):
            run("s02", prompt="hi", workspace=str(workspace), out=io.StringIO())


def test_a_workspace_named_like_a_module_next_to_the_import_path_is_refused(tmp_path):
    done = agentlib_cli("s02", "--workspace", "dotenv", "-p", "hi", cwd=tmp_path)
    assert done.returncode == 2
    assert "'dotenv' is a module Python imports" in done.stderr
    assert not (tmp_path / "dotenv").exists()


def test_a_folder_of_its_own_under_the_cwd_is_a_fine_workspace(tmp_path):
    done = agentlib_cli("s02", "--workspace", "work", "-p", "List all Python files", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "work").is_dir()


def test_a_chinese_prompt_gets_the_repls_own_lines_in_chinese_unless_lang_says_otherwise(tmp_path):
    work = tmp_path / "project"
    work.mkdir()
    (work / "app.py").write_text("print('app')\n")
    chinese = agentlib_cli("s02", "-p", "列出所有文件", "--workspace", str(work), cwd=tmp_path)
    assert chinese.returncode == 0, chinese.stderr
    assert f"工作区： {work.resolve()}" in chinese.stdout
    assert chinese.stdout.rstrip().endswith("模型完成了回答）"), chinese.stdout
    english = agentlib_cli(
        "s02", "-p", "列出所有文件", "--lang", "en", "--workspace", str(work), cwd=tmp_path
    )
    assert f"workspace: {work.resolve()}" in english.stdout
    assert english.stdout.rstrip().endswith("the model finished its answer)"), english.stdout
