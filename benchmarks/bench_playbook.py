"""The offline playbook over the learner-prompt corpus, and its time on long prompts.

Prints acted-right / declined-honestly / missed / wrong over tests/corpus/prompts.json and
heldout.json (a second set written after the rules; its first run is in the commit log) (each
prompt on a fresh project, s01's bash and s02's tools), the in-scope done rate, and the
worst time to read a prompt: adversarial shapes of 60 KB and 1 MB, and of the longest prompt
it reads (2,000 characters), next to a seed prompt's time, measured in the same run.

    python benchmarks/bench_playbook.py            # corpus and timings
    python benchmarks/bench_playbook.py --timing   # timings only
    python benchmarks/bench_playbook.py --dev-set ../../shared/corpus/learner_prompts.py

It also runs the development set of learner prompts written outside the project
(../shared/corpus/learner_prompts.py from the repository's root) when it is there, and says so
when it is not.
"""

from __future__ import annotations

import collections
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from playbook_corpus import CORPUS, HELD_OUT, judge, load, toolboxes_for

from agentlib.offline import offline_client
from agentlib.offline.playbook.reader import MAX_PROMPT_CHARS
from agentlib.offline.playbook.reader import read as parse

ROOT = Path(__file__).resolve().parents[1]
DEV_SET = ROOT.parent / "shared" / "corpus" / "learner_prompts.py"

SHAPES = {
    "letters": "a",
    "words": "create hello.py that prints x ",
    "quotes": "'a' ",
    "apostrophes": "a'",
    "paths": "a.b/",
    "and-clauses": "show a.txt and ",
    "Chinese clauses": "列出，",
    "digits": "1+",
}


def corpus(path: Path) -> None:
    tally: collections.Counter = collections.Counter()
    per_box: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    wrong = []
    with tempfile.TemporaryDirectory() as tmp:
        for number, entry in enumerate(load(path)):
            for box in toolboxes_for(entry):
                outcome = judge(entry, box, Path(tmp) / f"{number}-{box}")
                tally[outcome.verdict] += 1
                per_box[box][outcome.verdict] += 1
                per_box[box]["in scope"] += entry["expect"] == "done"
                if outcome.verdict == "wrong":
                    wrong.append(f"{box} {entry['p']!r}: {outcome.reason}")
    runs = sum(tally.values())
    print(f"{path.name}: {len(load(path))} prompts, {runs} runs (prompt x toolbox)")
    print(
        f"  acted right {tally['right']}, declined honestly {tally['declined']} (expected), "
        f"declined in scope {tally['miss']}, wrong {tally['wrong']}"
    )
    for box, counts in sorted(per_box.items()):
        done = counts["right"]
        print(
            f"  {box}: in-scope done right {done}/{counts['in scope']} ({done / counts['in scope']:.1%})"
        )
    for line in wrong:
        print("  WRONG", line)


def best_of(fn, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def timings() -> None:
    seed = "Create a directory called test_output and write 3 files in it"
    base = best_of(lambda: parse(seed), 20)
    print(f"read the seed prompt: {base * 1000:.3f} ms")
    for size in (MAX_PROMPT_CHARS, 60_000, 1_000_000):
        worst, which = 0.0, ""
        for name, unit in SHAPES.items():
            prompt = (unit * (size // len(unit) + 1))[:size]
            took = best_of(lambda prompt=prompt: parse(prompt))
            if took > worst:
                worst, which = took, name
        print(
            f"read a {size:,}-character prompt, worst shape ({which}): {worst * 1000:.3f} ms = {worst / base:.1f}x the seed prompt"
        )
    client, model = offline_client()
    for size in (60_000, 1_000_000):
        prompt = ("list the python files and " * (size // 26 + 1))[:size]

        def ask(prompt=prompt):
            client.messages.create(
                model=model, max_tokens=1000, messages=[{"role": "user", "content": prompt}]
            )

        print(
            f"whole request of {size:,} characters through the SDK (JSON, validation, decline): {best_of(ask) * 1000:.1f} ms"
        )


def dev_set(path: Path = DEV_SET) -> None:
    if not path.exists():
        print(f"development set not found at {path}: skipped (pass --dev-set PATH)")
        return
    import subprocess

    done = subprocess.run(
        [sys.executable, str(path)], cwd=ROOT, capture_output=True, text=True, timeout=1800
    )
    totals = done.stdout.partition("== totals ==")[2]
    print(f"development set ({path}):{totals.rstrip()}")


if __name__ == "__main__":
    sys.stdout.reconfigure(line_buffering=True)  # lines in order when written to a file
    if "--timing" not in sys.argv:
        given = sys.argv[sys.argv.index("--dev-set") + 1] if "--dev-set" in sys.argv else None
        dev_set(Path(given) if given else DEV_SET)
        corpus(CORPUS)
        corpus(HELD_OUT)
    timings()
