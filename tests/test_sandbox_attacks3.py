"""Attacks on the sweep after each call: a folder swapped for a link while it walks, a workspace
its command closed, and the disk a call leaves taken, counted as ``du`` counts it."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

import pytest
import test_sandbox_attacks as first
from test_sandbox_attacks import _bash, _privileged_or_devices, run_as

from agentlib.sandbox import tree

caller, home = first.caller, first.home  # the fixtures: root, and a normal user with its folder


# -- the sweep, with a command still running beside it ------------------------------------------
def _swap_for_link(folder: Path, target: Path) -> None:
    """What a command that outlived its call does to the folder the sweep is in: move it, and put
    a link to a file of yours outside the workspace in its place."""
    folder.rename(folder.with_name(folder.name + ".moved"))
    folder.symlink_to(target)


def _sweep_while_swapped(root: str, locked_mode: int) -> dict:
    ws, outside = Path(root, "ws"), Path(root, "outside.txt")
    ws.mkdir()
    outside.write_text("yours\n")
    outside.chmod(0o644)
    (ws / "folder").mkdir()
    (ws / "folder" / "prog").write_text("")
    (ws / "folder" / "prog").chmod(0o4755)  # the sweep clears it: the moment to swap
    (ws / "folder").chmod(locked_mode)
    real_stat, real_clear = os.stat, tree._clear_privilege_bits

    def stat_then_swap(path, *args, **kwargs):  # between the sweep's look and its chmod
        found = real_stat(path, *args, **kwargs)
        if path == "folder" and kwargs.get("dir_fd") is not None:
            os.stat = real_stat
            _swap_for_link(ws / "folder", outside)
        return found

    def clear_then_swap(*args):  # while it is inside the folder, before it puts the mode back
        real_clear(*args)
        _swap_for_link(ws / "folder", outside)

    if locked_mode & stat.S_IRUSR:
        tree._clear_privilege_bits = clear_then_swap
    else:
        os.stat = stat_then_swap
    try:
        tree.sweep(ws)
    except OSError:
        pass  # whatever it says of the change, it must not have touched outside.txt
    finally:
        os.stat, tree._clear_privilege_bits = real_stat, real_clear
    moved = ws / "folder.moved"
    return {
        "outside": stat.S_IMODE(outside.stat().st_mode),
        "moved": stat.S_IMODE(moved.stat().st_mode),
    }


@pytest.mark.parametrize("locked_mode", [0o500, 0o000], ids=["read-only", "closed"])
def test_a_folder_swapped_for_a_link_during_the_sweep_leads_it_nowhere(caller, home, locked_mode):
    if caller == "root":
        pytest.skip("root's sweep enters every folder without opening it up: nothing to swap")
    found = run_as(caller, _sweep_while_swapped, str(home), locked_mode)
    assert found["outside"] == 0o644, found  # never chmod-ed through the link
    if locked_mode:  # and the folder itself, wherever it went, has its mode back
        assert found["moved"] == locked_mode, found


# -- the disk a call leaves taken ------------------------------------------------------------------
FILL_WITHOUT_FILES = """
import os
for i in range(1500):
    os.mkdir(f"d{i}")  # a block each on most file systems
for i in range(1000):
    os.symlink("x" * 3000, f"l{i}")  # a long target takes a block too
with open("big", "wb") as f:
    f.write(b"x" * (1 << 20))
for i in range(50):
    os.link("big", f"big{i}")  # one file of many names: its room once
"""


def test_the_workspace_total_is_measured_as_du_measures_it(caller, home):
    (home / "fill.py").write_text(FILL_WITHOUT_FILES)
    out = run_as(caller, _bash, str(home), "none", "python3 fill.py", {"disk_bytes": 1 << 20})
    du = subprocess.run(["du", "-s", "--block-size=1", str(home)], capture_output=True, text=True)
    on_disk = int(du.stdout.split()[0])
    assert on_disk > 4 << 20  # folders and links alone: most of it
    said = out.split("its files take ")[1].split(" MB")[0]
    assert abs(float(said) * (1 << 20) - on_disk) < 0.05 * on_disk, (said, on_disk)


def _plant_then_close(root: str) -> str:
    Path(root, "prog").write_text("#!/bin/sh\n")
    Path(root, "prog").chmod(0o4755)  # as a traced process of yours could, during the call
    return _bash(root, "none", "chmod 000 .")


def test_a_workspace_its_command_closed_is_still_swept(caller, home):
    out = run_as(caller, _plant_then_close, str(home))
    mode = stat.S_IMODE(os.stat(home).st_mode)
    os.chmod(home, 0o755)
    assert "setuid/setgid bit removed from 1 file(s) (prog)" in out, out
    assert _privileged_or_devices(home) == []
    assert mode == 0  # opened to look, then put back
