"""The seeds' try-it prompts, and two natural Chinese phrasings of each, through the REPL and over HTTP.

Over HTTP the client is a loop of the tutorial's shape written here: its own system prompt,
hand-written tool schemas (s02 without glob), handlers that run in a folder, one history kept
across the prompts, talking to ``python -m agentlib.offline serve`` as a learner's script would.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import anthropic
import pytest

from agentlib.offline import OFFLINE_MODEL

S01 = {
    "en": [
        'Create a file called hello.py that prints "Hello, World!"',
        "List all Python files in this directory",
        "What is the current git branch?",
        "Create a directory called test_output and write 3 files in it",
    ],
    "zh": [
        '创建一个名为 hello.py 的文件，打印 "Hello, World!"',
        "列出这个目录下所有的 Python 文件",
        "当前的 git 分支是什么？",
        "创建一个名为 test_output 的目录，并在里面写 3 个文件",
    ],
    "zh2": [
        '创建一个文件 hello.py，让它打印 "Hello, World!"',
        "列出当前目录下的所有 Python 文件",
        "现在是哪个 git 分支？",
        "新建一个叫 test_output 的文件夹，在里面写 3 个文件",
    ],
}
S02 = {
    "en": [
        "Read the file requirements.txt",
        "Create a file called greet.py with a greet(name) function",
        "Edit greet.py to add a docstring to the function",
        "Read greet.py to verify the edit worked",
    ],
    "zh": [
        "读取 requirements.txt 文件",
        "创建一个名为 greet.py 的文件，里面有一个 greet(name) 函数",
        "编辑 greet.py，给函数加上文档字符串",
        "读取 greet.py，确认修改成功",
    ],
    "zh2": [
        "读一下 requirements.txt",
        "新建 greet.py，里面写一个 greet(name) 函数",
        "给 greet.py 里的函数加上文档字符串",
        "看看 greet.py，确认修改成功了",
    ],
}
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def project(root: Path) -> Path:
    """A folder with requirements.txt, committed in a git repository on branch main."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "requirements.txt").write_text("anthropic>=2\npython-dotenv\n")
    git = ["git", "-c", "user.name=L", "-c", "user.email=l@example.com"]
    subprocess.run([*git, "init", "-q", "-b", "main"], cwd=root, check=True)
    subprocess.run([*git, "add", "-A"], cwd=root, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "start"], cwd=root, check=True)
    return root


def offline_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "AGENTLIB_"))}
    env.pop("MODEL_ID", None)
    return env


def check_s01(work: Path, out: str, lang: str) -> None:
    printed = subprocess.run([sys.executable, "hello.py"], cwd=work, capture_output=True, text=True)
    assert printed.stdout == "Hello, World!\n"
    assert "hello.py" in out and "main" in out
    assert sorted(p.name for p in (work / "test_output").iterdir()) == [
        "file1.txt",
        "file2.txt",
        "file3.txt",
    ]
    if lang.startswith("zh"):
        assert "当前 git 分支是 `main`" in out and "个Python文件" in out
    else:
        assert "The current git branch is `main`." in out and "Found 1 Python file" in out


def check_s02(work: Path, out: str, lang: str) -> None:
    assert "python-dotenv" in out
    namespace: dict = {}
    exec(compile((work / "greet.py").read_text(), "greet.py", "exec"), namespace)
    assert namespace["greet"]("Ada") == "Hello, Ada!"
    assert namespace["greet"].__doc__ == "Return a friendly greeting for name."
    assert ("修改成功：函数有文档字符串了。" if lang.startswith("zh") else "The edit worked") in out


@needs_git
@pytest.mark.parametrize("lang", ["en", "zh", "zh2"])
@pytest.mark.parametrize("chapter", ["s01", "s02"])
def test_seed_prompts_through_the_repl(tmp_path, chapter, lang):
    work = project(tmp_path / "work")
    prompts = (S01 if chapter == "s01" else S02)[lang]
    done = subprocess.run(
        [sys.executable, "-m", "agentlib", chapter, "--workspace", str(work)],
        input="\n".join([*prompts, "q"]),
        capture_output=True,
        text=True,
        env=offline_env(),
        cwd=tmp_path,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    (check_s01 if chapter == "s01" else check_s02)(work, done.stdout, lang)


def test_a_decline_in_the_repl_says_how_to_go_live_there(tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "agentlib",
            "s01",
            "-p",
            "tell me a joke",
            "--workspace",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        env=offline_env(),
        timeout=120,
    )
    assert "I can't do this offline." in done.stdout
    assert "python -m agentlib s01" in done.stdout and ".env" in done.stdout


# -- a client of the tutorial's shape, over HTTP ---------------------------------------------------


def schema(**fields: str) -> dict:
    required = [name for name, kind in fields.items() if not kind.endswith("?")]
    props = {name: {"type": kind.rstrip("?")} for name, kind in fields.items()}
    return {"type": "object", "properties": props, "required": required}


def tutorial_tools(chapter: str, work: Path):
    """Hand-written schemas and handlers, as a learner's script has them."""

    def bash(command: str) -> str:
        ran = subprocess.run(
            command, shell=True, cwd=work, capture_output=True, text=True, timeout=60
        )
        return (ran.stdout + ran.stderr).strip() or "(no output)"

    def read_file(path: str, limit: int | None = None) -> str:
        try:
            lines = (work / path).read_text().splitlines()
        except OSError as error:
            return f"Error: {error}"
        return "\n".join(lines[:limit] if limit else lines)

    def write_file(path: str, content: str) -> str:
        (work / path).parent.mkdir(parents=True, exist_ok=True)
        (work / path).write_text(content)
        return f"Wrote {len(content)} bytes to {path}"

    def edit_file(path: str, old_text: str, new_text: str) -> str:
        text = (work / path).read_text()
        if old_text not in text:
            return f"Error: text not found in {path}"
        (work / path).write_text(text.replace(old_text, new_text, 1))
        return f"Edited {path}"

    tools = [
        {
            "name": "bash",
            "description": "Run a shell command.",
            "input_schema": schema(command="string"),
        }
    ]
    handlers = {"bash": bash}
    if chapter == "s02":
        tools += [
            {
                "name": "read_file",
                "description": "Read file contents.",
                "input_schema": schema(path="string", limit="integer?"),
            },
            {
                "name": "write_file",
                "description": "Write content to file.",
                "input_schema": schema(path="string", content="string"),
            },
            {
                "name": "edit_file",
                "description": "Replace exact text in file.",
                "input_schema": schema(path="string", old_text="string", new_text="string"),
            },
        ]
        handlers |= {"read_file": read_file, "write_file": write_file, "edit_file": edit_file}
    return tools, handlers


def ask_in_a_loop(client, system, tools, handlers, history) -> str:
    """The s01/s02 loop: call, append, stop unless tool_use, run the tools, append the results."""
    while True:
        response = client.messages.create(
            model=OFFLINE_MODEL, system=system, messages=history, tools=tools, max_tokens=8000
        )
        history.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return "\n".join(b.text for b in response.content if b.type == "text")
        results = [
            {"type": "tool_result", "tool_use_id": b.id, "content": handlers[b.name](**b.input)}
            for b in response.content
            if b.type == "tool_use"
        ]
        history.append({"role": "user", "content": results})


@pytest.fixture(scope="module")
def served():
    server = subprocess.Popen(
        [sys.executable, "-m", "agentlib.offline", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
        env=offline_env(),
    )
    try:
        url = re.search(r"http://127\.0\.0\.1:\d+", server.stdout.readline())[0]
        yield anthropic.Anthropic(base_url=url, api_key="not-needed", max_retries=0)
    finally:
        server.terminate()
        server.wait(timeout=10)


@needs_git
@pytest.mark.parametrize("lang", ["en", "zh", "zh2"])
@pytest.mark.parametrize("chapter", ["s01", "s02"])
def test_seed_prompts_through_a_tutorial_shaped_client_over_http(served, tmp_path, chapter, lang):
    work = project(tmp_path / "work")
    verb = "bash" if chapter == "s01" else "tools"
    system = f"You are a coding agent at {work}. Use {verb} to solve tasks. Act, don't explain."
    tools, handlers = tutorial_tools(chapter, work)
    history: list = []
    answers = []
    for prompt in (S01 if chapter == "s01" else S02)[lang]:
        history.append({"role": "user", "content": prompt})
        answers.append(ask_in_a_loop(served, system, tools, handlers, history))
    out = "\n".join(answers)
    (check_s01 if chapter == "s01" else check_s02)(work, out, lang)


def test_a_decline_over_http_says_to_point_the_base_url_at_a_real_endpoint(served, tmp_path):
    tools, handlers = tutorial_tools("s01", tmp_path)
    history = [{"role": "user", "content": "讲个笑话"}]
    answer = ask_in_a_loop(served, "You are a coding agent.", tools, handlers, history)
    assert answer.startswith("这个请求离线模型做不了。") and "ANTHROPIC_BASE_URL" in answer
