"""Workspace file tools on real folders: safe_path, read_file, write_file, edit_file, glob, isolation choice."""

from __future__ import annotations

import os
import shutil
import stat
import warnings

import pytest

from agentlib.errors import ConfigError, PathEscapeError, ToolError
from agentlib.sandbox import files, isolation
from agentlib.sandbox.limits import Limits
from agentlib.sandbox.workspace import Workspace
from agentlib.seed import seed_safe_path


@pytest.fixture
def ws(tmp_path):
    return Workspace(tmp_path / "ws", isolation="none")


# -- safe_path -------------------------------------------------------------------------------
@pytest.mark.parametrize("p", ["a.txt", "sub/b.txt", "sub/../c.txt", "./d", "x/y/z/../../w"])
def test_safe_path_keeps_inside_paths(ws, p):
    assert ws.safe_path(p) == (ws.root / p).resolve()


@pytest.mark.parametrize("p", ["../x", "/etc/passwd", "a/../../x", "../../../../../../etc"])
def test_safe_path_refuses_escapes_naming_the_path(ws, p):
    with pytest.raises(PathEscapeError) as info:
        ws.safe_path(p)
    assert p in str(info.value)
    assert isinstance(info.value, ValueError)


def test_seed_safe_path_is_the_seed_rule(tmp_path):
    assert seed_safe_path(tmp_path, "a/b") == tmp_path.resolve() / "a/b"
    with pytest.raises(ValueError, match=r"Path escapes workspace: \.\./x"):
        seed_safe_path(tmp_path, "../x")


def test_absolute_path_inside_the_workspace_is_accepted(ws):
    ws.write_file(str(ws.root / "abs.txt"), "hi")
    assert ws.read_file("abs.txt") == "hi"


# -- read_file ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("limit", "expected"),
    [
        (None, "l1\nl2\nl3\nl4"),
        (2, "l1\nl2\n... (2 more lines)"),
        (3, "l1\nl2\nl3\n... (1 more line)"),
        (4, "l1\nl2\nl3\nl4"),
        (10, "l1\nl2\nl3\nl4"),
    ],
)
def test_read_file_limit(ws, limit, expected):
    (ws.root / "f.txt").write_text("l1\nl2\nl3\nl4\n")
    assert ws.read_file("f.txt", limit) == expected


def test_read_file_caps_at_50000_characters_with_a_marker(ws):
    (ws.root / "big.txt").write_text("x" * 70_000)
    out = ws.read_file("big.txt")
    assert len(out) <= 50_000
    assert out.startswith("x" * 1000)
    assert "cut" in out and "70000" in out


def test_read_file_replaces_undecodable_bytes(ws):
    (ws.root / "bin.txt").write_bytes(b"ok\xff\xfeok")
    assert ws.read_file("bin.txt") == "ok\ufffd\ufffdok"


@pytest.mark.parametrize(("setup", "reason"), [(None, "no such file"), ("dir", "directory")])
def test_read_file_errors_name_the_path_and_reason(ws, setup, reason):
    if setup == "dir":
        (ws.root / "thing").mkdir()
    with pytest.raises(ToolError) as info:
        ws.read_file("thing")
    assert "thing" in str(info.value) and reason in str(info.value)


def test_read_file_refuses_a_negative_limit(ws):
    (ws.root / "f.txt").write_text("a\n")
    with pytest.raises(ToolError, match="limit"):
        ws.read_file("f.txt", -1)


# -- write_file --------------------------------------------------------------------------------
@pytest.mark.parametrize(("content", "nbytes"), [("hello", 5), ("héllo", 6), ("日本", 6), ("", 0)])
def test_write_file_reports_bytes_and_creates_parents(ws, content, nbytes):
    assert ws.write_file("deep/er/f.txt", content) == f"Wrote {nbytes} bytes to deep/er/f.txt"
    assert (ws.root / "deep/er/f.txt").read_text(encoding="utf-8") == content


def test_write_file_replaces_whole_file_keeps_mode_and_leaves_no_temp_files(ws):
    target = ws.root / "run.sh"
    target.write_text("old old old")
    target.chmod(0o750)
    ws.write_file("run.sh", "new")
    assert target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o750
    assert sorted(os.listdir(ws.root)) == ["run.sh"]


def test_write_file_refuses_a_directory(ws):
    (ws.root / "d").mkdir()
    with pytest.raises(ToolError, match="directory"):
        ws.write_file("d", "x")


# -- edit_file ---------------------------------------------------------------------------------
def test_edit_file_replaces_the_unique_occurrence(ws):
    (ws.root / "f.py").write_text("a = 1\nb = 2\n")
    assert ws.edit_file("f.py", "b = 2", "b = 3") == "Edited f.py"
    assert (ws.root / "f.py").read_text() == "a = 1\nb = 3\n"


def test_edit_file_text_not_found(ws):
    (ws.root / "f.py").write_text("a = 1\n")
    with pytest.raises(ToolError, match=r"Text not found in f\.py"):
        ws.edit_file("f.py", "zzz", "y")


def test_edit_file_refuses_ambiguous_text_naming_the_count(ws):
    (ws.root / "f.py").write_text("x\nx\nx\n")
    with pytest.raises(ToolError, match="3 times"):
        ws.edit_file("f.py", "x", "y")
    assert (ws.root / "f.py").read_text() == "x\nx\nx\n"
    assert "3 replacements" in ws.edit_file("f.py", "x", "y", replace_all=True)
    assert (ws.root / "f.py").read_text() == "y\ny\ny\n"


@pytest.mark.parametrize(
    ("before", "old", "new", "after"),
    [
        (b"one\r\ntwo\r\nthree\r\n", "one\ntwo", "1\n2", b"1\r\n2\r\nthree\r\n"),
        (b"one\r\ntwo\r\n", "two", "deux", b"one\r\ndeux\r\n"),
        (b"one\ntwo\n", "one\ntwo", "1\n2", b"1\n2\n"),
        (b"\xff keep\nline\n", "line", "LINE", b"\xff keep\nLINE\n"),
    ],
)
def test_edit_file_keeps_line_endings_and_other_bytes(ws, before, old, new, after):
    (ws.root / "f.txt").write_bytes(before)
    ws.edit_file("f.txt", old, new)
    assert (ws.root / "f.txt").read_bytes() == after


def test_edit_file_refuses_empty_old_text(ws):
    (ws.root / "f.txt").write_text("a")
    with pytest.raises(ToolError, match="empty"):
        ws.edit_file("f.txt", "", "b")


# -- glob --------------------------------------------------------------------------------------
def test_glob_sorted_relative_recursive(ws):
    for name in ["b.py", "a.py", "src/c.py", "src/deep/d.py", "notes.txt"]:
        ws.write_file(name, "")
    assert ws.glob("*.py") == "a.py\nb.py"
    assert ws.glob("**/*.py") == "a.py\nb.py\nsrc/c.py\nsrc/deep/d.py"
    assert ws.glob("src/*") == "src/c.py\nsrc/deep/"
    assert ws.glob("*.rs") == "No files match *.rs"


def test_glob_caps_at_200_with_a_note(ws):
    for i in range(250):
        (ws.root / f"f{i:03}.txt").write_text("")
    lines = ws.glob("*.txt").splitlines()
    assert lines[:200] == [f"f{i:03}.txt" for i in range(200)]
    assert lines[200] == "... (50 more matches not shown; narrow the pattern)"
    assert len(lines) == 201


@pytest.mark.parametrize("pattern", ["/etc/pass*", "../*", "a/../../*", "~/.ssh/*", "**/../../*"])
def test_glob_refuses_patterns_that_leave_the_workspace(ws, pattern):
    with pytest.raises(PathEscapeError):
        ws.glob(pattern)


# -- isolation choice --------------------------------------------------------------------------
@pytest.fixture
def only_on_path(monkeypatch, tmp_path):
    """Keep only the named tools on PATH, the way a machine without the others looks."""

    def keep(*names):
        folder = tmp_path / "path"
        folder.mkdir()
        for name in names:
            found = shutil.which(name)
            if found is None:
                pytest.skip(f"{name} is not installed here")
            os.symlink(found, folder / name)
        monkeypatch.setenv("PATH", str(folder))
        isolation._probe.cache_clear()
        monkeypatch.setattr(isolation, "_warned", False)

    yield keep
    isolation._probe.cache_clear()


def test_bwrap_requested_but_missing_is_a_clear_error(tmp_path, only_on_path):
    only_on_path()
    with pytest.raises(ConfigError, match="bwrap is not installed"):
        Workspace(tmp_path, isolation="bwrap")


def test_auto_falls_back_to_none_and_says_what_holds_once(tmp_path, only_on_path):
    only_on_path()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = Workspace(tmp_path / "a", isolation="auto")
        second = Workspace(tmp_path / "b", isolation="auto")
    assert first.isolation == second.isolation == "none"
    as_user = (
        "it can read the environment of your other processes (the shell that started Python, "
        "with any key exported there) and trace them (ptrace), read any file you can (the "
        "project's .env included), and reach the network"
    )
    as_root = (
        "it runs as uid 0 without capabilities, so it can read and write every root-owned file "
        "(the project's .env included), and reach the network; and as root it can move itself "
        "out of its cgroup, so Limits.processes and the whole call's memory bound do not hold, "
        "and what it moved out outlives the call"
    )
    assert [str(w.message) for w in caught] == [
        "bash runs without bubblewrap (bwrap is not installed (Debian/Ubuntu: apt-get install "
        f"bubblewrap)): {as_root if os.geteuid() == 0 else as_user}"
    ]


def test_auto_without_bwrap_takes_a_pid_namespace_where_unshare_works(tmp_path, only_on_path):
    only_on_path("unshare")
    works, why = isolation.probe("unshare")
    if not works:
        pytest.skip(f"no user namespaces here: {why}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ws = Workspace(tmp_path, isolation="auto")
    assert ws.isolation == "unshare"
    assert "own PID namespace" in str(caught[0].message)
    assert ".env" in str(caught[0].message)
    assert ws.bash("echo /proc/[0-9]*") == "/proc/1"  # its own shell, no host process


def test_unknown_isolation_value(tmp_path):
    with pytest.raises(ValueError, match="isolation must be"):
        Workspace(tmp_path, isolation="docker")


def test_none_reports_none(tmp_path):
    assert Workspace(tmp_path, isolation="none").isolation == "none"


def test_glob_search_is_bounded(ws):
    for i in range(30):
        ws.write_file(f"d{i}/f.txt", "")
    small = Workspace(ws.root, isolation="none", limits=Limits(glob_entries=10))
    out = small.glob("**/*.txt")
    assert out.splitlines()[-1] == (
        "(search stopped after 10 entries, the glob_entries bound; narrow the pattern)"
    )
    assert len(out.splitlines()) < 31


def test_glob_lists_symlinks_without_following_them(ws):
    os.symlink("/", ws.root / "rootlink")
    ws.write_file("a.txt", "")
    assert ws.glob("**/*") == "a.txt\nrootlink/"


def test_deleted_workspace_folder_is_a_clear_error(tmp_path):
    ws = Workspace(tmp_path / "gone", isolation="none")
    (tmp_path / "gone").rmdir()
    with pytest.raises(ToolError, match="was deleted"):
        ws.read_file("x.txt")


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc/self/fd (Linux)")
def test_probing_for_openat2_leaves_no_file_descriptor_open():
    def handles_on_root() -> int:
        count = 0
        for name in os.listdir("/proc/self/fd"):
            try:
                count += os.readlink(f"/proc/self/fd/{name}") == "/"
            except FileNotFoundError:  # the handle listdir itself used
                pass
        return count

    before = handles_on_root()
    files._load_openat2()
    assert handles_on_root() == before


def test_glob_without_directory_handles_leaves_out_links_that_escape(tmp_path, monkeypatch):
    # the path taken where the OS has no directory handles (Windows): name checks only
    from agentlib.sandbox import files

    (tmp_path / "src").mkdir()
    (tmp_path / "a.py").write_text("")
    (tmp_path / "src" / "b.py").write_text("")
    (tmp_path / "out").symlink_to("/etc")
    ws = Workspace(tmp_path, isolation="none")
    monkeypatch.setattr(files, "HAS_DIR_FD", False)
    assert ws.glob("**/*.py") == "a.py\nsrc/b.py"
    assert ws.glob("out/*") == "No files match out/*"


def test_tool_descriptions_state_the_workspaces_own_limits(tmp_path):
    from agentlib.course_tools import s02_tools

    limits = Limits(bash_seconds=30, memory_bytes=512 << 20, file_bytes=1 << 20)
    tools = {
        t["name"]: t["description"] for t in s02_tools(Workspace(tmp_path, limits=limits)).TOOLS
    }
    assert "Limits: 30 s," in tools["bash"] and "512 MB of memory per\nprocess" in tools["bash"]
    assert "the first 1 MB of the file" in tools["read_file"]
    assert "over 1 MB is refused" in tools["write_file"]
    assert "over 1 MB is refused and changes nothing" in tools["edit_file"]


@pytest.mark.parametrize("root", ["/", "/usr/.."])
def test_a_workspace_holding_the_system_is_refused(root):
    with pytest.raises(
        ValueError, match="holds the system folder /bin: give the workspace a folder"
    ):
        Workspace(root, isolation="none")
