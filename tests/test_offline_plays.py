"""The plays' answers when a step fails or a condition does not hold, in English and Chinese.

Each case drives Playbook.answer with a request (its messages and tools), hands back the tool
results given (a real workspace cannot easily make a write fail), and checks the whole answer.
"""

from __future__ import annotations

import pytest

from agentlib.offline.playbook import Playbook

TOOLS = {
    "s02": ["bash", "read_file", "write_file", "edit_file", "glob"],
    "s01": ["bash"],
    "none": [],
}


def fail(text: str) -> tuple[str, bool]:
    """A tool result marked is_error."""
    return text, True


def answer(prompt: str, tools: str, results: list) -> str:
    """Play the prompt, handing back each given result in turn; the final text of the play."""
    messages: list[dict] = [{"role": "user", "content": prompt}]
    request = {"messages": messages, "tools": [{"name": n} for n in TOOLS[tools]]}
    given = [r if isinstance(r, tuple) else (r, False) for r in results]
    while True:
        reply = Playbook().answer(request)
        assert reply is not None, "the playbook did not take the request"
        calls = [block for block in reply.content if block["type"] == "tool_use"]
        if not calls:
            assert not given, f"results left over: {given}"
            return reply.content[0]["text"]
        for number, block in enumerate(calls):
            block["id"] = f"call_{len(messages)}_{number}"
        messages.append({"role": "assistant", "content": reply.content})
        returned = [given.pop(0) for _ in calls]
        messages.append(
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": b["id"], "content": t, "is_error": e}
                    for b, (t, e) in zip(calls, returned, strict=True)
                ],
            }
        )


CASES = [
    pytest.param(
        "show me notes.txt and count its lines",
        "s01",
        ["cat: notes.txt: No such file or directory\n[exit code 1]", "  3 notes.txt"],
        "I could not read notes.txt. The tool said:\n    cat: notes.txt: No such file or directory\n    [exit code 1]\n\nnotes.txt has 3 lines.\n      3 notes.txt",
        id="read-fails-then-count-still-runs",
    ),
    pytest.param(
        "显示 notes.txt 然后列出所有文件",
        "s02",
        [fail("Error: no such file"), "a.txt\nb.txt"],
        "没能读取 notes.txt。工具输出：\n    Error: no such file\n\n找到 2 个文件：a.txt、b.txt",
        id="zh-read-fails-then-list-still-runs",
    ),
    pytest.param(
        "create notes.txt with the text hi",
        "s02",
        [fail("Error: disk full")],
        "I could not create notes.txt. The tool said:\n    Error: disk full",
        id="write-fails",
    ),
    pytest.param(
        "创建 notes.txt，内容是 hi",
        "s02",
        [fail("Error: disk full")],
        "没能创建 notes.txt。工具输出：\n    Error: disk full",
        id="zh-write-fails",
    ),
    pytest.param(
        "list the files",
        "s02",
        ["fatal: no\n[exit code 1]"],
        "The listing failed. The tool said:\n    fatal: no\n    [exit code 1]",
        id="listing-fails",
    ),
    pytest.param(
        "ls一下",
        "s02",
        ["fatal: no\n[exit code 1]"],
        "列出文件失败。工具输出：\n    fatal: no\n    [exit code 1]",
        id="zh-listing-fails",
    ),
    pytest.param(
        "ls pls",
        "none",
        [],
        "I am the offline model. I know this task, but I need a bash tool for it, and this request offers no tools: send it with tools=[...] that include one.",
        id="no-tools-offered",
    ),
    pytest.param(
        "ls一下",
        "none",
        [],
        "我是离线模型。这个任务我会做，但需要 bash 工具，而这次请求没有提供任何工具：请在 tools=[...] 里加上一个。",
        id="zh-no-tools-offered",
    ),
    pytest.param(
        "what branch am I on?",
        "s01",
        [""],
        "`git branch --show-current` printed no branch name: HEAD is detached (no branch is checked out).",
        id="detached-head",
    ),
    pytest.param(
        "if there's a setup.py, run it; otherwise tell me",
        "s02",
        ["missing"],
        "setup.py does not exist, so I did nothing.",
        id="condition-file-missing",
    ),
    pytest.param(
        "create hello.py that prints hi if it does not exist",
        "s02",
        ["exists"],
        "hello.py already exists, so I left it as it is.",
        id="condition-file-there",
    ),
    pytest.param(
        "delete everything except keep.txt",
        "s02",
        ["./a.txt\n./b.txt"],
        "I can't do this offline: keep.txt is not there, so I deleted nothing.",
        id="keep-file-missing",
    ),
    pytest.param(
        "add a docstring to greet.py",
        "s02",
        [fail("Error: no such file")],
        "I could not read greet.py, so I cannot edit it. The tool said:\n    Error: no such file\nCreate it first, e.g. 'Create a file called greet.py with a greet(name) function'.",
        id="docstring-file-unreadable",
    ),
    pytest.param(
        "make a folder named out and put five files in it",
        "s02",
        ["ok", fail("Error: boom"), "ok", fail("Error: boom"), "ok"],
        "Some files could not be written. The tools said:\n    Error: boom\n    Error: boom",
        id="some-files-not-written",
    ),
    pytest.param(
        "list the files in stuff",
        "s02",
        ["", "missing"],
        "There is no folder called stuff here, so I listed nothing.",
        id="folder-that-is-not-one",
    ),
    pytest.param(
        "run the script with 10 as the argument",
        "s02",
        ["./a.py\n./b.sh"],
        "I can't do this offline: which script? I found 2 scripts: a.py, b.sh. Name the one to run.",
        id="which-script",
    ),
    pytest.param(
        "how many lines are in data.csv?",
        "s01",
        ["wc: data.csv: No such file or directory\n[exit code 1]"],
        "Counting failed. The tool said:\n    wc: data.csv: No such file or directory\n    [exit code 1]",
        id="wc-fails",
    ),
    pytest.param(
        "Which files mention sqlite?",
        "s01",
        ["grep: ./x: Permission denied\n[exit code 2]"],
        "The search failed. The tool said:\n    grep: ./x: Permission denied\n    [exit code 2]",
        id="grep-fails",
    ),
    pytest.param(
        "rename a.txt to b.txt",
        "s01",
        ["error: b.txt already exists, not overwriting it\n[exit code 1]"],
        "I could not move a.txt. The tool said:\n    error: b.txt already exists, not overwriting it\n    [exit code 1]",
        id="move-would-overwrite",
    ),
    pytest.param(
        "bump the version in version.txt",
        "s02",
        ['version = "1.2.3"\n', fail("Error: old_text not found")],
        "I could not change the version. The tool said:\n    Error: old_text not found",
        id="version-edit-fails",
    ),
    pytest.param(
        "how many lines in big.log contain err?",
        "s02",
        ["err 1\nerr 2\n... [cut: big.log is larger than the 100000-byte read limit]"],
        "big.log is too long to read whole here, so I can't say which lines match.",
        id="lines-of-a-file-read-cut-short",
    ),
    pytest.param(
        "big.log 里有几行包含 err",
        "s01",
        ["err 1\n[… 5000 of 9000 characters cut …]\nerr 9\n"],
        "big.log 太长，这里读不全，所以我没法说哪些行符合。",
        id="zh-lines-of-a-file-read-cut-short",
    ),
]


@pytest.mark.parametrize(("prompt", "tools", "results", "expected"), CASES)
def test_a_failed_step_ends_its_part_with_what_the_tool_said(prompt, tools, results, expected):
    assert answer(prompt, tools, results) == expected
