"""Frames that read one value out of a file: a version number, or a setting in a config file.

They are tried only on a clause nothing else could read ('what port is in config.json?',
'bump the version in version.txt', '把 version.txt 的版本号改成 2.0.0'); the plays find the
value in the real file and answer from it, or change only that value.
"""

from __future__ import annotations

import re

from agentlib.offline.playbook.clause import IT, Clause
from agentlib.offline.playbook.lexicon import CONFIG_FILES, KEY_WORDS
from agentlib.offline.playbook.reader import Part

VERSION = re.compile(r"\d+(?:\.\d+){1,3}")
ASKING = ("show", "tell", "find", "list")  # verbs that only ask what the value is


def version(c: Clause, parts: list[Part]) -> Part | None:
    """Show, bump ('bump', '加一') or set ('to 2.0.0') the version number a file holds."""
    again = (c.find("verb", "bump") or c.find("mark", "to")) and c.find("mark", "it")
    again = again and parts and parts[-1].kind == "version"  # '... then bump it', '再把它改成 2.0'
    if not (c.find("noun", "version") or again):
        return None
    path = c.take_path_or_it()
    if path is None:
        return None
    c.drop("noun.version", "noun.file", "mark.in", "here")
    level = c.take("level")
    bump = c.take_all("verb", "bump")
    one = c.find("num", "1")
    if c.find("verb", "add") and one:  # '把版本号加一'
        c.drop("verb.add")
        one.used, bump = True, [one]
    marker = c.take("mark", "to")
    new = c.find("word")
    if marker and new and VERSION.fullmatch(new.value) and not bump:
        new.used = True
        c.drop("verb.replace", "verb.rename")
        return Part("version", {"path": path, "to": new.value, "bump": None})
    if bump:
        bump_level = level.value if level else "patch"
        return Part("version", {"path": path, "to": None, "bump": bump_level})
    if level or marker or c.find("verb", "replace"):
        return None
    c.drop(*(f"verb.{v}" for v in ASKING))
    return Part("version", {"path": path, "to": None, "bump": None})


def setting(c: Clause, parts: list[Part]) -> Part | None:
    """'what port is in config.json?', 'config.json 里的 port 是多少': the value of one key."""
    named = c.paths(ext_only=True)
    if len(named) > 1 or c.find("verb", *{"create", "delete", "replace", "run", "move", "copy"}):
        return None
    it = not named and (c.take("mark", "in_it") or c.take("mark", "it"))  # 'the port in it'
    path = IT if it else c.take_path()
    if path is None or (not it and path.rpartition(".")[2].lower() not in (*CONFIG_FILES, "py")):
        return None
    c.drop("mark.value", "mark.in", "noun.content", "verb.count", *(f"verb.{v}" for v in ASKING))
    keys = c.left()
    if len(keys) != 1 or keys[0].role != "word" or not re.fullmatch(r"[\w-]+", keys[0].value):
        return None
    known = keys[0].value.isupper() or keys[0].value.lower() in KEY_WORDS.values()
    if (it or path.endswith(".py")) and not known:
        return None  # in Python a setting is a CONSTANT ('explain what utils.py does' is not one)
    keys[0].used = True
    return Part("setting", {"path": path, "key": keys[0].value})


FRAMES = (version, setting)
