"""The learner-prompt corpus through the real loop: never a confident wrong answer, most requests done.

Each entry of tests/corpus/prompts.json (and of heldout.json, a second set written after the
rules, to see how far they carry) runs on a fresh project (tests/playbook_corpus.py) with
the real SDK over the offline transport and a real Workspace, once with s01's bash and once
with s02's tools. A request in scope that is declined is a miss (counted); one wrong action or
wrong answer fails the test.
"""

from __future__ import annotations

import re

import pytest
from playbook_corpus import CJK, CORPUS, HELD_OUT, judge, load, toolboxes_for

ENTRIES = load()


def test_the_corpus_is_big_and_about_half_chinese():
    chinese = sum(1 for entry in ENTRIES if CJK.search(entry["p"]))
    assert len(ENTRIES) >= 200
    assert 0.4 <= chinese / len(ENTRIES) <= 0.6
    assert {entry["expect"] for entry in ENTRIES} == {"done", "declined", "refused"}
    assert len({entry["p"] for entry in ENTRIES}) == len(ENTRIES)


@pytest.mark.parametrize("corpus", [CORPUS, HELD_OUT], ids=["corpus", "held-out"])
@pytest.mark.parametrize("toolbox", ["s01", "s02"])
def test_every_prompt_is_done_right_or_declined_honestly(corpus, toolbox, tmp_path):
    wrong, missed, in_scope = [], [], 0
    for number, entry in enumerate(load(corpus)):
        if toolbox not in toolboxes_for(entry):
            continue
        outcome = judge(entry, toolbox, tmp_path / str(number))
        in_scope += entry["expect"] == "done"
        if outcome.verdict == "wrong":
            wrong.append(f"{entry['p']!r}: {outcome.reason}\n    answer: {outcome.answer[:300]!r}")
        elif outcome.verdict == "miss":
            missed.append(entry["p"])
        elif outcome.verdict == "declined" and entry["expect"] == "declined":
            # an honest decline names the model and says how to go further
            assert re.search(r"offline model|离线模型", outcome.answer)
            assert "ANTHROPIC_API_KEY" in outcome.answer
    done = in_scope - len(missed)
    print(f"\n{toolbox}: {done}/{in_scope} in-scope requests done right; declined: {missed}")
    assert wrong == [], "\n".join(wrong)
    assert done / in_scope >= 0.7
