"""The seed's own safe_path, deny-list, run_bash and normalize_messages, as written: the notebooks compare against them."""

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


def seed_normalize_messages(messages: list) -> list:
    """The seed's ``normalize_messages`` as written: the notebooks run it against the API to show where it fails."""
    cleaned = []
    for msg in messages:
        clean = {"role": msg["role"]}
        if isinstance(msg.get("content"), str):
            clean["content"] = msg["content"]
        elif isinstance(msg.get("content"), list):
            clean["content"] = [
                {k: v for k, v in block.items() if not k.startswith("_")}
                for block in msg["content"]
                if isinstance(block, dict)
            ]
        else:
            clean["content"] = msg.get("content", "")
        cleaned.append(clean)

    # Collect existing tool_result IDs
    existing_results = set()
    for msg in cleaned:
        if isinstance(msg.get("content"), list):
            for block in msg["content"]:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    existing_results.add(block.get("tool_use_id"))

    # Find orphaned tool_use blocks and insert placeholder results
    for msg in cleaned:
        if msg["role"] != "assistant" or not isinstance(msg.get("content"), list):
            continue
        for block in msg["content"]:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_use" and block.get("id") not in existing_results:
                cleaned.append(
                    {
                        "role": "user",
                        "content": [
                            {
                                "type": "tool_result",
                                "tool_use_id": block["id"],
                                "content": "(cancelled)",
                            }
                        ],
                    }
                )

    # Merge consecutive same-role messages
    if not cleaned:
        return cleaned
    merged = [cleaned[0]]
    for msg in cleaned[1:]:
        if msg["role"] == merged[-1]["role"]:
            prev = merged[-1]
            prev_c = (
                prev["content"]
                if isinstance(prev["content"], list)
                else [{"type": "text", "text": str(prev["content"])}]
            )
            curr_c = (
                msg["content"]
                if isinstance(msg["content"], list)
                else [{"type": "text", "text": str(msg["content"])}]
            )
            prev["content"] = prev_c + curr_c
        else:
            merged.append(msg)
    return merged
