"""Notebook 01: exercise 1 (the exit code), 2 (tool results for every call), 3 (the loop)."""

from __future__ import annotations

import textwrap

from . import right, wrong

RUN = """r = subprocess.run(command, shell=True, cwd=WORKDIR, env=SAFE_ENV,
                       capture_output=True, text=True, timeout=120)"""


def bash_answer(body: str, run: str = RUN) -> str:
    """``run_bash_with_status`` that runs the command with ``run``, then ``body``."""
    return "def run_bash_with_status(command: str) -> str:\n" + textwrap.indent(
        f"{run}\n{body.strip()}", "    "
    )


EXIT_CODE = [
    wrong(
        "bytes_without_text_true",
        "text=True",
        bash_answer(
            """
out = (r.stdout + r.stderr).strip()
if r.returncode != 0:
    out += b"\\n(exit code %d)" % r.returncode
return out or "(no output)"
""",
            run=RUN.replace(" text=True,", ""),
        ),
    ),
    wrong(
        "command_line_without_a_shell",
        "shell=True",
        bash_answer(
            """
out = (r.stdout + r.stderr).strip()
if r.returncode != 0:
    out = f"{out}\\n(exit code {r.returncode})".strip()
return out or "(no output)"
""",
            run=RUN.replace("shell=True", "shell=False"),
        ),
    ),
    wrong(
        "seed_unchanged",
        "exit code 3",
        bash_answer("""
out = (r.stdout + r.stderr).strip()
return out[:50000] if out else "(no output)"
"""),
    ),
    # "(exit code 0)" on every success: the lesson asks for the code only on failure, but the
    # model reads that the command ran and succeeded, which is what "(no output)" is for.
    right(
        "code_even_on_success",
        bash_answer("""
out = (r.stdout + r.stderr).strip()
out = f"{out}\\n(exit code {r.returncode})".strip()
return out[:50000]
"""),
    ),
    wrong(
        "code_replaces_the_output",
        "'hi'",
        bash_answer("""
if r.returncode != 0:
    return f"(exit code {r.returncode})"
out = (r.stdout + r.stderr).strip()
return out[:50000] if out else "(no output)"
"""),
    ),
    wrong(
        "forgets_stderr",
        "stderr",
        bash_answer("""
out = r.stdout.strip()
if r.returncode != 0:
    out = f"{out}\\n(exit code {r.returncode})".strip()
return out[:50000] if out else "(no output)"
"""),
    ),
    wrong(
        "prints_instead_of_returning",
        "print",
        bash_answer("""
out = (r.stdout + r.stderr).strip()
if r.returncode != 0:
    out = f"{out}\\n(exit code {r.returncode})".strip()
print(out[:50000] if out else "(no output)")
"""),
    ),
    wrong(
        "condition_reversed",
        "exit code 3",
        bash_answer("""
out = (r.stdout + r.stderr).strip()
if r.returncode == 0:
    out = f"{out}\\n(exit code {r.returncode})".strip()
return out[:50000] if out else "(no output)"
"""),
    ),
    wrong(
        "check_true_raises",
        "CalledProcessError",
        bash_answer(
            """
out = (r.stdout + r.stderr).strip()
if r.returncode != 0:
    out = f"{out}\\n(exit code {r.returncode})".strip()
return out[:50000] if out else "(no output)"
""",
            run=RUN.replace("timeout=120)", "timeout=120, check=True)"),
        ),
    ),
    wrong(
        "stderr_taken_for_failure",
        "exit code 3",
        bash_answer("""
out = (r.stdout + r.stderr).strip()
if r.stderr:
    out = f"{out}\\n(exit code {r.returncode})".strip()
return out[:50000] if out else "(no output)"
"""),
    ),
    wrong(
        "runs_outside_the_workspace",
        "WORKDIR",
        bash_answer(
            """
out = (r.stdout + r.stderr).strip()
if r.returncode != 0:
    out = f"{out}\\n(exit code {r.returncode})".strip()
return out[:50000] if out else "(no output)"
""",
            run=RUN.replace(" cwd=WORKDIR,", ""),
        ),
    ),
    right(
        "streams_merged_at_the_source",
        """
def run_bash_with_status(command: str) -> str:
    done = subprocess.run(command, shell=True, cwd=WORKDIR, env=SAFE_ENV, text=True, timeout=120,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    lines = [done.stdout.strip()] if done.stdout.strip() else []
    if done.returncode:
        lines.append(f"[exit status {done.returncode}]")
    return "\\n".join(lines)[:50000] or "(no output)"
""",
    ),
    right(
        "seed_kept_whole_code_after_no_output",
        """
def run_bash_with_status(command: str) -> str:
    dangerous = ["rm -rf /", "sudo", "shutdown", "reboot", "> /dev/"]
    if any(d in command for d in dangerous):
        return "Error: Dangerous command blocked"
    try:
        r = subprocess.run(command, shell=True, cwd=WORKDIR, env=SAFE_ENV,
                           capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return "Error: Timeout (120s)"
    except (FileNotFoundError, OSError) as e:
        return f"Error: {e}"
    out = (r.stdout + r.stderr).strip()[:50000] or "(no output)"
    if r.returncode != 0:
        out += f"\\nexit code: {r.returncode}"
    return out
""",
    ),
]

RESULT = (
    '{"type": "tool_result", "tool_use_id": block.id, "content": run_bash(block.input["command"])}'
)


def results_answer(append: str = f"results.append({RESULT})", after: str = "return results") -> str:
    return f"""
def tool_results(content: list) -> list[dict]:
    results = []
    for block in content:
        if block.type == "tool_use":
            {append}
    {after}
"""


def appended(old: str, new: str) -> str:
    """The solution's append with one slip."""
    return f"results.append({RESULT.replace(old, new)})"


TOOL_RESULTS = [
    wrong(
        "every_result_marked_an_error",
        "is_error",
        results_answer(appended('"content": run_bash', '"is_error": True, "content": run_bash')),
    ),
    wrong(
        "the_list_kept_outside_the_function",
        "second time",
        """
results = []

def tool_results(content: list) -> list[dict]:
    for block in content:
        if block.type == "tool_use":
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": run_bash(block.input["command"])})
    return results
""",
    ),
    wrong(
        "blocks_read_as_dicts",
        "block.type, block.id and block.input",
        """
def tool_results(content: list) -> list[dict]:
    return [{"type": "tool_result", "tool_use_id": b["id"], "content": run_bash(b["input"]["command"])}
            for b in content if b["type"] == "tool_use"]
""",
    ),
    wrong(
        "input_read_as_an_attribute",
        "block.input['command']",
        results_answer(appended('block.input["command"]', "block.input.command")),
    ),
    wrong("forgets_return", "return", results_answer(after="")),
    wrong("name_for_id", "tool_use_id", results_answer(appended("block.id", "block.name"))),
    wrong(
        "a_result_for_every_block",
        "text block",
        """
def tool_results(content: list) -> list[dict]:
    results = []
    for block in content:
        results.append({"type": "tool_result", "tool_use_id": block.id,
                        "content": run_bash(block.input["command"])})
    return results
""",
    ),
    wrong(
        "returns_inside_the_loop",
        "2 tool_use blocks",
        results_answer(f"results.append({RESULT})\n            return results"),
    ),
    wrong("newest_first", "order", results_answer(f"results.insert(0, {RESULT})")),
    wrong(
        "returns_a_message",
        "list",
        results_answer(after='return {"role": "user", "content": results}'),
    ),
    wrong(
        "command_as_content",
        "run_bash",
        results_answer(appended('run_bash(block.input["command"])', 'block.input["command"]')),
    ),
    wrong(
        "input_dict_to_run_bash",
        "the whole input dict",
        results_answer(appended('block.input["command"]', "block.input")),
    ),
    wrong(
        "type_misspelled",
        "tool_result",
        results_answer(appended('"tool_result"', '"tool_results"')),
    ),
    wrong(
        "outputs_only", "dict", results_answer('results.append(run_bash(block.input["command"]))')
    ),
    right(
        "loop_with_continue_and_dict_call",
        """
def tool_results(content: list) -> list[dict]:
    answers = []
    for part in content:
        if part.type != "tool_use":
            continue
        answers.append(dict(type="tool_result", tool_use_id=part.id, content=run_bash(part.input["command"])))
    return answers
""",
    ),
    right(
        "comprehension_with_keyword_input",
        """
def tool_results(content: list) -> list[dict]:
    return [{"tool_use_id": b.id, "type": "tool_result", "content": run_bash(**b.input)}
            for b in content if b.type == "tool_use"]
""",
    ),
    right(
        "isinstance_and_is_error_false",
        """
from anthropic.types import ToolUseBlock

def tool_results(content: list) -> list[dict]:
    out = []
    for block in content:
        if isinstance(block, ToolUseBlock):
            text = run_bash(block.input["command"])
            out.append({"type": "tool_result", "tool_use_id": block.id, "content": text, "is_error": False})
    return out
""",
    ),
]

CALL = "client.messages.create(model=MODEL, system=SYSTEM, messages=messages, tools=TOOLS, max_tokens=8000)"
APPEND = 'messages.append({"role": "assistant", "content": response.content})'
RESULTS = """results = []
        for block in response.content:
            if block.type == "tool_use":
                results.append({"type": "tool_result", "tool_use_id": block.id,
                                "content": run_bash(block.input["command"])})
        messages.append({"role": "user", "content": results})"""


def loop_answer(
    call=CALL, append=APPEND, stop="return", results=RESULTS, loop="while True:"
) -> str:
    return f"""
def agent_loop(messages: list):
    {loop}
        response = {call}
        {append}
        if response.stop_reason != "tool_use":
            {stop}
        {results}
"""


AGENT_LOOP = [
    wrong(
        "returns_on_end_turn_only",
        "not only on 'end_turn'",
        loop_answer().replace(
            'if response.stop_reason != "tool_use":', 'if response.stop_reason == "end_turn":'
        ),
    ),
    wrong(
        "argument_name_guessed",
        "'command', not 'cmd'",
        loop_answer(results=RESULTS.replace('block.input["command"]', 'block.input["cmd"]')),
    ),
    wrong("reply_not_appended", "append", loop_answer(append="pass")),
    wrong(
        "reply_appended_after_the_stop_check",
        "answer",
        loop_answer(append="pass", stop=f"return\n        {APPEND}"),
    ),
    wrong(
        "a_user_message_per_result",
        "one user message",
        loop_answer(
            results="""for block in response.content:
            if block.type == "tool_use":
                messages.append({"role": "user", "content": [{"type": "tool_result", "tool_use_id": block.id,
                                                             "content": run_bash(block.input["command"])}]})"""
        ),
    ),
    wrong("two_rounds_only", "still asking for tools", loop_answer(loop="for _ in range(2):")),
    wrong(
        "results_reversed",
        "order",
        loop_answer(results=RESULTS.replace("results.append(", "results.insert(0, ")),
    ),
    wrong(
        "ids_made_up",
        "tool_use_id",
        loop_answer(results=RESULTS.replace("block.id", 'f"call_{len(results)}"')),
    ),
    wrong(
        "not_in_place",
        "makes a new list",
        loop_answer(
            append='messages = messages + [{"role": "assistant", "content": response.content}]',
            results=RESULTS.replace(
                'messages.append({"role": "user", "content": results})',
                'messages = messages + [{"role": "user", "content": results}]',
            ),
        ),
    ),
    wrong("tools_not_sent", "tools", loop_answer(call=CALL.replace(" tools=TOOLS,", ""))),
    wrong("system_not_sent", "SYSTEM", loop_answer(call=CALL.replace(" system=SYSTEM,", ""))),
    wrong(
        "results_with_role_tool",
        "user",
        loop_answer(results=RESULTS.replace('"role": "user"', '"role": "tool"')),
    ),
    wrong(
        "the_message_object_appended",
        "response.content",
        loop_answer(append=APPEND.replace("response.content", "response")),
    ),
    right(
        "call_first_then_while_tool_use",
        """
def agent_loop(messages: list):
    def ask():
        return client.messages.create(model=MODEL, system=SYSTEM, messages=messages,
                                      tools=TOOLS, max_tokens=8000)
    reply = ask()
    messages.append({"role": "assistant", "content": reply.content})
    while reply.stop_reason == "tool_use":
        outputs = [{"type": "tool_result", "tool_use_id": c.id, "content": run_bash(c.input["command"])}
                   for c in reply.content if c.type == "tool_use"]
        messages.append({"role": "user", "content": outputs})
        reply = ask()
        messages.append({"role": "assistant", "content": reply.content})
""",
    ),
    right(
        "recursion",
        """
def agent_loop(messages: list):
    response = client.messages.create(model=MODEL, system=SYSTEM, messages=messages,
                                      tools=TOOLS, max_tokens=8000)
    messages.append({"role": "assistant", "content": response.content})
    if response.stop_reason != "tool_use":
        return response
    messages.append({"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": b.id, "content": run_bash(b.input["command"])}
        for b in response.content if b.type == "tool_use"]})
    return agent_loop(messages)
""",
    ),
    right(
        "reply_kept_as_dicts",
        loop_answer(
            append=APPEND.replace(
                "response.content",
                "[block.model_dump(exclude_none=True) for block in response.content]",
            )
        ),
    ),
]

ANSWERS = {
    "ex1_exit_code": EXIT_CODE,
    "ex2_tool_results": TOOL_RESULTS,
    "ex3_agent_loop": AGENT_LOOP,
}
