"""The seed's first safe_path, deny-list and run_bash, as written: the notebooks compare against them."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

DANGEROUS = ["rm -rf /", "sudo", "shutdown", "reboot", "> /dev/"]  # the seed's list, as written


def seed_safe_path(root: str | os.PathLike, p: str) -> Path:
    """The course's first ``safe_path``: resolve, then check the prefix (open to a rename race)."""
    workdir = Path(root).resolve()
    path = (workdir / p).resolve()
    if not path.is_relative_to(workdir):
        raise ValueError(f"Path escapes workspace: {p}")
    return path


def seed_is_dangerous(command: str) -> bool:
    """The seed's check: a substring match, easy to bypass and quick to block harmless commands."""
    return any(d in command for d in DANGEROUS)


def seed_run_bash(command: str, cwd: str | os.PathLike, timeout: float = 120) -> str:
    """The seed's ``run_bash``: substring deny-list, no hardening, output cut at 50,000 characters."""
    if seed_is_dangerous(command):
        return "Error: Dangerous command blocked"
    try:
        r = subprocess.run(
            command, shell=True, cwd=cwd, capture_output=True, text=True, timeout=timeout
        )
        out = (r.stdout + r.stderr).strip()
        return out[:50000] if out else "(no output)"
    except subprocess.TimeoutExpired:
        return f"Error: Timeout ({timeout:g}s)"
