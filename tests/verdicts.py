"""What the check tests share: a learner's cell run in its own namespace, a blank, and how a verdict reads."""

from __future__ import annotations

import os
import subprocess
import textwrap
from pathlib import Path

import pytest

from agentlib.course.checks import MODE_VARIABLE, WORKS, Verdict


def define(source: str, **names):
    """Run ``source`` in a namespace of its own holding ``names`` (as a notebook's globals would)."""
    namespace = {"subprocess": subprocess, "os": os, "Path": Path, **names}
    exec(textwrap.dedent(source), namespace)
    return namespace


def blank(*_args, **_kwargs):
    raise NotImplementedError("the learner has not written this yet")


def assert_verdict(verdict: Verdict, head: str, *phrases: str) -> None:
    text = " ".join(str(verdict).split())
    assert text.startswith(head), text
    assert verdict.ok == (head == WORKS)
    for phrase in phrases:
        assert phrase in text, (phrase, text)


def bash_in(workdir: Path):
    def run_bash(command: str) -> str:
        r = subprocess.run(
            command, shell=True, cwd=workdir, capture_output=True, text=True, timeout=30
        )
        out = (r.stdout + r.stderr).strip()
        return out[:50000] if out else "(no output)"

    return run_bash


@pytest.fixture(autouse=True)
def friendly_checks(monkeypatch):
    """Checks return their verdict, whatever AGENTLIB_CHECKS the shell running the tests has."""
    monkeypatch.delenv(MODE_VARIABLE, raising=False)
