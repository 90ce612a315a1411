"""The bash tool on real processes: output, exit codes, caps, timeouts, process groups, env, deny-list."""

from __future__ import annotations

import os
import sys
import time
import tracemalloc

import pytest

from agentlib import seed
from agentlib.errors import ToolError
from agentlib.sandbox import shell
from agentlib.sandbox.workspace import Workspace

PY = sys.executable


@pytest.fixture
def ws(tmp_path):
    return Workspace(tmp_path / "ws", isolation="none")


def _gone(pid: int) -> bool:
    """True once ``pid`` no longer runs (a zombie waiting for its reaper counts as gone)."""
    for _ in range(50):
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except FileNotFoundError:
            return True
        time.sleep(0.1)
    return False


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("echo hello", "hello"),
        ("true", "(no output)"),
        ("echo out; echo err >&2", "out\nerr"),
        ("exit 2", "(no output)\n[exit code 2]"),
        ("echo partial; exit 7", "partial\n[exit code 7]"),
        ("cat", "(no output)"),  # stdin is /dev/null, so cat ends at once
        ("printf 'ok\\377\\376ok'", "ok\ufffd\ufffdok"),
        ("ls 2> /dev/null", "(no output)"),
        ("grep sudo notes.txt", "grep: notes.txt: No such file or directory\n[exit code 2]"),
        ("echo reboot", "reboot"),
    ],
)
def test_bash_output_and_exit_codes(ws, command, expected):
    assert ws.bash(command) == expected


def test_bash_runs_in_the_workspace(ws):
    assert ws.bash("pwd") == str(ws.root)


def test_bash_runs_in_its_own_session(ws):
    assert int(ws.bash(f"{PY} -c 'import os; print(os.getsid(0))'")) != os.getsid(0)


def test_bash_output_keeps_head_and_tail(ws):
    out = ws.bash("seq 1 200000")
    assert len(out) <= 50_000
    assert out.startswith("1\n2\n3\n")
    assert out.endswith("199999\n200000")
    assert "cut …]" in out


def test_bash_big_output_uses_bounded_memory(ws):
    tracemalloc.start()
    try:
        out = ws.bash("head -c 50000000 /dev/zero | tr '\\0' 'x'; echo; echo END")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert out.startswith("x" * 1000) and out.endswith("END")
    assert "[… the middle of 50000005 bytes of output cut …]" in out
    assert peak < 8 * 1024 * 1024


def test_bash_timeout_kills_the_whole_process_group(ws):
    with pytest.raises(ToolError, match=r"Timeout \(1s\)") as info:
        ws.bash("echo started; sleep 100 & echo $! > bg.pid; sleep 100", timeout=1)
    assert "started" in str(info.value)
    assert _gone(int((ws.root / "bg.pid").read_text()))


def test_background_child_does_not_stretch_the_call(ws):
    assert ws.bash("sleep 100 & echo $! > bg.pid; echo hi", timeout=5) == "hi"
    assert _gone(int((ws.root / "bg.pid").read_text()))


def test_bash_environment_has_no_secrets(ws, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-fake-in-env")
    monkeypatch.setenv("ANTHROPIC_AUTH_TOKEN", "fake-token")
    monkeypatch.setenv("MY_SERVICE_TOKEN", "fake-service")
    out = ws.bash("env")
    assert "fake" not in out
    assert "PATH=" in out


def test_bash_refuses_empty_command(ws):
    with pytest.raises(ToolError, match="empty"):
        ws.bash("   ")


# -- the deny-list -----------------------------------------------------------------------------
HARMLESS = [
    "ls 2> /dev/null",
    "grep sudo notes.txt",
    "echo reboot",
    "cat shutdown_notes.md",
    "rm -rf /tmp/build",
    "echo hi > /dev/stderr",
    "make 2>/dev/null >/dev/null",
]


@pytest.mark.parametrize("command", HARMLESS)
def test_parsed_deny_list_lets_harmless_commands_through(command):
    assert shell.is_dangerous(command) is None


@pytest.mark.parametrize("command", HARMLESS[:5])
def test_seed_deny_list_blocked_harmless_commands(command):
    assert seed.seed_is_dangerous(command)


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("sudo ls", "sudo"),
        ("ls && sudo rm x", "sudo"),
        ("FOO=1 /usr/bin/sudo id", "sudo"),
        ("s''udo ls", "sudo"),  # quotes are removed by parsing, as bash would
        ("shutdown -h now", "shutdown"),
        ("echo; reboot", "reboot"),
        ("rm -rf /", "rm -rf /"),
        ("rm -fr /", "rm -rf /"),
        ("rm -r -f /*", "rm -rf /"),
        ("echo x > /dev/sda", "> /dev/sda"),
        ("cat f >>/dev/sdb1", "> /dev/sdb1"),
    ],
)
def test_parsed_deny_list_blocks_the_listed_commands(command, rule):
    assert shell.is_dangerous(command) == rule


BYPASSES = [
    "s''udo ls",
    "$'\\x73udo' ls",
    "S=su; ${S}do ls",
    "echo c3VkbyBscwo= | base64 -d | sh",
    "rm -fr /",
    "python3 -c \"import os; os.system('su' + 'do ls')\"",
]


@pytest.mark.parametrize("command", BYPASSES)
def test_seed_deny_list_misses_the_documented_bypasses(command):
    assert not seed.seed_is_dangerous(command)


@pytest.mark.parametrize("command", BYPASSES[1:4] + BYPASSES[5:])
def test_parsed_deny_list_is_not_a_boundary_either(command):
    assert shell.is_dangerous(command) is None


def test_blocked_command_raises_with_the_seed_message(ws):
    with pytest.raises(ToolError, match="Dangerous command blocked") as info:
        ws.bash("sudo ls")
    assert "not a security boundary" in str(info.value)


def test_seed_run_bash_is_the_seed(tmp_path):
    assert seed.seed_run_bash("ls 2> /dev/null", tmp_path) == "Error: Dangerous command blocked"
    assert seed.seed_run_bash("echo hi", tmp_path) == "hi"


def test_a_command_that_deletes_the_workspace_gets_its_output(ws):
    assert ws.bash(f"rm -rf {ws.root}; echo gone") == "gone"
