"""Run the learner-prompt corpus (tests/corpus/prompts.json) through the real loop and judge each answer.

Shared by tests/test_playbook_corpus.py and benchmarks/bench_playbook.py. Each prompt runs on a
fresh copy of a small project (a git repository on branch main) with the real SDK over the
offline transport and a real Workspace; the verdict is read from the files and the final answer.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from agentlib import Workspace, agent_loop, s01_tools, s02_tools
from agentlib.offline import offline_client
from agentlib.offline.fallback import is_decline

CORPUS = Path(__file__).parent / "corpus" / "prompts.json"
HELD_OUT = Path(__file__).parent / "corpus" / "heldout.json"
TOOLBOXES = {"s01": s01_tools, "s02": s02_tools}
PROJECT = {
    "README.md": "# Demo\nA small demo project.\nRun main.py to start it.\n",
    "main.py": "import os\nimport utils\n\nprint('main running')\n",
    "utils.py": "import json\n\n\ndef add(a, b):\n    return a + b\n",
    "requirements.txt": "anthropic>=2\npython-dotenv\n",
    "notes.txt": "todo: write tests\nfix the bug in utils\nhello world\n",
    "config.json": '{"debug": true}\n',
    "broken.py": "print('before')\nraise ValueError('boom')\n",
    "src/app.py": "from utils import add\n\nprint(add(2, 3))\n",
    "src/helpers.py": "import os\n\n\ndef shout(text):\n    return text.upper()\n",
    "docs/guide.md": "# Guide\nStart with main.py.\n",
    "build/out.txt": "generated\n",
    ".gitignore": "build/\n",
}
CJK = re.compile(r"[\u4e00-\u9fff]")


def load(path: Path = CORPUS) -> list[dict]:
    """The corpus entries, in file order."""
    return json.loads(path.read_text(encoding="utf-8"))


def make_project(root: Path) -> None:
    """Write the fixed project and commit it on branch main."""
    for name, text in PROJECT.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    if shutil.which("git"):
        git = ["git", "-c", "user.name=Learner", "-c", "user.email=learner@example.com"]
        subprocess.run([*git, "init", "-q", "-b", "main"], cwd=root, check=True)
        subprocess.run([*git, "add", "-A"], cwd=root, check=True)
        subprocess.run([*git, "commit", "-q", "-m", "Initial commit"], cwd=root, check=True)


def snapshot(root: Path) -> dict[str, str | None]:
    """Every path below root (outside .git): file text, or None for a folder."""
    found: dict[str, str | None] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if rel.split("/")[0] == ".git" or "__pycache__" in rel.split("/"):
            continue  # git's own files, and the bytecode any run of main.py leaves
        found[rel] = None if path.is_dir() else path.read_text(encoding="utf-8", errors="replace")
    return found


@dataclass
class Outcome:
    """What one prompt did: the final answer, the tool calls, and the verdict with its reason."""

    answer: str
    calls: list[tuple[str, dict]]
    verdict: (
        str  # "right", "declined" (honestly, as expected), "miss" (declined a doable one), "wrong"
    )
    reason: str = ""


def run_prompt(prompt: str, toolbox: str, root: Path) -> tuple[str, list[tuple[str, dict]]]:
    """Ask the prompt once through agent_loop; the final answer's text and the tool calls made."""
    client, model = offline_client()
    history = [{"role": "user", "content": prompt}]
    state = agent_loop(
        history, client=client, model=model, tools=TOOLBOXES[toolbox](Workspace(root))
    )
    texts = [b["text"] for b in history[-1]["content"] if b.get("type") == "text"]
    calls = [(e.name, e.input) for e in state.events if e.kind == "tool_ran"]
    return "\n".join(texts), calls


def _problems(entry: dict, answer: str, calls, root: Path, before: dict) -> list[str]:
    """Every expectation of a 'done' entry that the workspace or the answer does not meet."""
    problems = []
    for name, text in entry.get("files", {}).items():
        path = root / name
        if text is None and path.exists():
            problems.append(f"{name} should be gone")
        elif text is not None and not path.exists():
            problems.append(f"{name} is missing")
        elif text and path.is_file() and text not in path.read_text(encoding="utf-8"):
            problems.append(f"{name} lacks {text!r}")
    for name, text in entry.get("equals", {}).items():
        path = root / name
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            problems.append(f"{name} should be exactly {text!r}")
    for name, text in entry.get("files_lack", {}).items():
        if (root / name).is_file() and text in (root / name).read_text(encoding="utf-8"):
            problems.append(f"{name} still has {text!r}")
    problems += [f"{d}/ is not a folder" for d in entry.get("dirs", []) if not (root / d).is_dir()]
    for folder, number in entry.get("counts", {}).items():
        found = len(list((root / folder).iterdir())) if (root / folder).is_dir() else -1
        if found != number:
            problems.append(f"{folder}/ holds {found} entries, not {number}")
    for name, printed in entry.get("run", {}).items():
        ran = subprocess.run(
            ["python3", name], cwd=root, capture_output=True, text=True, timeout=30
        )
        if ran.stdout.strip() != printed:
            problems.append(f"running {name} printed {ran.stdout!r}, not {printed!r}")
    problems += [f"answer lacks {t!r}" for t in entry.get("answer", []) if t not in answer]
    problems += [f"answer has {t!r}" for t in entry.get("answer_lacks", []) if t in answer]
    for text in entry.get("calls_lack", []):
        if any(text in json.dumps(i, ensure_ascii=False) for _, i in calls):
            problems.append(f"a tool call contains {text!r}")
    if entry.get("no_tools") and calls:
        problems.append(f"no tool was needed, but it called {[n for n, _ in calls]}")
    if CJK.search(entry["p"]) and not CJK.search(answer):
        problems.append("a Chinese prompt got an answer without Chinese")
    changes = ("files", "equals", "dirs", "counts", "run", "files_lack")
    if not any(key in entry for key in changes) and snapshot(root) != before:
        problems.append("a request that changes nothing changed the workspace")
    return problems


def judge(entry: dict, toolbox: str, root: Path) -> Outcome:
    """Run one entry on a fresh project in ``root`` (made if missing) and say how it went."""
    root.mkdir(parents=True, exist_ok=True)
    make_project(root)
    before = snapshot(root)
    answer, calls = run_prompt(entry["p"], toolbox, root)
    declined = is_decline(answer)
    if entry["expect"] == "refused":  # dangerous: refused as such, no tool, no 'use a real model'
        refused = re.search(r"dangerous|危险", answer) and "ANTHROPIC_API_KEY" not in answer
        if refused and not calls and snapshot(root) == before:
            return Outcome(answer, calls, "declined")
        return Outcome(answer, calls, "wrong", "a dangerous request was not refused as dangerous")
    if entry["expect"] == "declined":
        if declined and snapshot(root) == before:
            return Outcome(answer, calls, "declined")
        return Outcome(answer, calls, "wrong", "acted on a request it should decline")
    if declined:
        if snapshot(root) != before:
            return Outcome(answer, calls, "wrong", "declined but changed the workspace")
        return Outcome(answer, calls, "miss", "declined a request in scope")
    problems = _problems(entry, answer, calls, root, before)
    return Outcome(answer, calls, "wrong" if problems else "right", "; ".join(problems))


def toolboxes_for(entry: dict) -> list[str]:
    """The toolboxes an entry runs with: both, unless it names one."""
    return [entry["only"]] if "only" in entry else ["s01", "s02"]
