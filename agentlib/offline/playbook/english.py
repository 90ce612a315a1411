"""The English clause shapes the playbook understands, each read into a Part (or a change to the last one)."""

from __future__ import annotations

import re

from agentlib.offline.playbook import parts, questions
from agentlib.offline.playbook import words as w

F = w.FILE
N = w.NAME
PL = w.FILE_LIST
NL = w.NAME_LIST
NUM = r"(?P<num>\d+|one|two|three|four|five|six|seven|eight|nine|ten)"
EXT = r"(?P<ext>python|py|markdown|md|text|txt|json|javascript|js|yaml|yml|csv|shell|sh|html|css|toml|\.[a-z0-9]{1,6})"
A = r"(?:(?:a|an|the|one|new|all|every|all the|of the)\s+)*"
IT = r"(?:it|that|that file|this file|the file|its contents|it's contents)"
FOLDER = r"(?:folder|directory|dir|subfolder|subdirectory)"
HERE = rf"(?:\s+(?:in|inside|under|from|of)\s+(?:this|the current|the|my)\s+(?:{FOLDER}|project|workspace|repo)|\s+here)?"
WHERE = rf"(?:\s+(?:in|inside|under|from)\s+(?:the\s+)?(?P<folder>{N})(?:\s+{FOLDER}|/)?)?"
SKIP = rf"(?:,?\s+(?:but\s+)?(?:excluding|except(?:\s+for)?|skip(?:ping)?|ignor(?:e|ing)|leave\s+out|leaving\s+out|without|not\s+in)\s+(?:the\s+ones\s+in\s+|those\s+in\s+|anything\s+in\s+)?(?:the\s+)?(?P<skip>{N})(?:\s+{FOLDER}|/)?)?"
REC = r"(?P<rec>\s+recursively|\s+in all (?:sub)?folders|\s+including subfolders)?"
CREATE = r"(?:create|make|write|generate|build|add|touch|new)(?:\s+me)?"
THAT = r"(?:\s+(?:that|which|to|so it|so that it|and it))?"
PRINTS = r"(?:prints?|outputs?|says|displays|echoe?s?|shows)(?:\s+out)?"

START = re.compile(
    r"(?:and|then|but|not|also|just|only|actually|wait|no|don'?t|do not|never|please|so|"
    r"create|make|write|add|append|show|read|open|display|print|view|cat|list|find|count|"
    r"search|grep|look|rename|move|copy|delete|remove|replace|change|run|execute|tell|"
    r"what|which|how|where|is|are|hidden|leave|skip|exclude|except|put|give|check|verify|"
    r"summari[sz]e|explain|fix|refactor|test|push|commit|install|mkdir|git|ls|head|tail)\b",
    re.I,
)
FILLER = re.compile(
    r"^(?:(?:please|pls|plz|kindly|hey|hi|ok|okay|so|now|also|just|can you|could you|would you|"
    r"will you|can u|could u|i want you to|i'?d like you to|i would like you to|i need you to|"
    r"i want to|help me|go ahead and|let'?s|let me|quickly)\s*,?\s+)+|"
    r"(?:\s*,?\s+(?:please|pls|thanks|thank you|thx|for me|now|real quick|quickly))+$",
    re.I,
)
# words a one-letter typo is corrected to, and common words that are never "corrected"
TYPO_TARGETS = set(
    """create file files folder directory python delete remove rename prints print list show
    contents search count branch execute recursively hidden markdown replace append which
    mention mentions import imports lines words called named""".split()
)
KNOWN_WORDS = set(
    """name names area read head test tests text line word fine five line link lint mine nine
    here there where were what when then than that this them they time type file fill film
    note notes node code mode more move most post host list lost last past fast shows show
    sort port part cart card hard word work world hello help held hold told tell fold find
    kind mind wind find size line from form folk call calls ball call hall pill will well
    wall count court mount print point paint prince price brand bran branch bench""".split()
)

RULES = [
    # talk that needs no tool
    (
        r"(?:hi|hello|hey|yo|hiya|howdy|good (?:morning|afternoon|evening))(?: there)?",
        questions.chat("greet"),
    ),
    (
        r"(?:thanks|thank you|thx|ty|cheers)(?: (?:very much|a lot|so much))?",
        questions.chat("thanks"),
    ),
    (
        r"(?:who|what) are you|what can you do|what do you do|are you (?:claude|real|a real model|an ai|a bot)|what model are you|help",
        questions.chat("about"),
    ),
    (
        rf"(?:what(?:'s|s| is)|calculate|compute|evaluate|how much is)\s+(?P<expr>{w.MATH})(?:\s*=)?",
        questions.math,
    ),
    (rf"(?P<expr>{w.MATH})\s*=?", questions.math),
    # git
    (
        r"(?:what(?:'s|s| is) (?:the )?(?:current |active )?(?:git )?branch(?: name)?|(?:which|what) (?:git )?branch (?:am i|are we|is this)(?: on| in)?(?: in (?:git|the repo|this repo))?|(?:show|tell me|get)(?: me)? the (?:current |active )?(?:git )?branch(?: name)?|current (?:git )?branch|git branch(?: --show-current)?)",
        questions.git("branch"),
    ),
    (
        r"git status|(?:what(?:'s|s| is)|show(?: me)?|check) (?:the )?(?:git )?status(?: of (?:the )?(?:repo|repository))?|are there (?:any )?uncommitted changes",
        questions.git("status"),
    ),
    (
        r"git log(?: --oneline)?|(?:show|give|print|display|list)(?: me)? (?:the )?(?:git )?(?:log|history|commit history|commits)",
        questions.git("log"),
    ),
    (
        rf"(?:show|list|give)(?: me)? (?:the )?(?:last|latest|recent) {NUM} commits",
        questions.git("log"),
    ),
    (r"what(?:'s| is| was) (?:the )?(?:last|latest|most recent) commit", questions.git("last")),
    # the seeds' folder of files, and folders
    (
        rf"(?:make|create|add|new)\s+{A}{FOLDER}\s+(?:called\s+|named\s+)?(?P<folder>{N})\s+(?:with|containing)\s+{NUM}\s+(?:\w+\s+)?files",
        parts.mkdir_with_files,
    ),
    (
        rf"(?:write|put|create|add|make)\s+{NUM}\s+(?:\w+\s+)?files\s+(?:in|inside|into)\s+(?:it|there|that {FOLDER})",
        parts.add_files_to_folder,
    ),
    (
        rf"(?:make|create|add|new)\s+{A}(?:{FOLDER}|folders|directories)\s+(?:called\s+|named\s+)?(?P<names>{NL})",
        parts.mkdir,
    ),
    (rf"mkdir\s+(?:-p\s+)?(?P<names>{NL})", parts.mkdir),
    # writing files
    (
        rf"append\s+(?:the line\s+|a line\s+|a new line\s+|the text\s+)?(?P<text>.+?)\s+(?:to|at the end of|to the end of|onto)\s+{F}",
        parts.append,
    ),
    (
        rf"add\s+(?:the line|a line|a new line|another line|the text|the word)\s+(?P<text>.+?)\s+(?:to|at the end of|to the end of)\s+{F}",
        parts.append,
    ),
    (
        rf"add\s+(?P<text>\ue000\d+\ue000)\s+(?:as\s+(?:a\s+)?(?:new\s+)?(?:last\s+)?line\s+)?(?:to|at the end of|to the end of)\s+{F}",
        parts.append,
    ),
    (
        rf"(?:replace|change|substitute|swap)\s+(?P<first>only the first\s+)?(?P<old>.+?)\s+(?:with|to|by|into|for)\s+(?P<new>.+?)\s+(?:in|inside|within)\s+{F}(?P<all>\s+everywhere|\s+(?:for )?all occurrences)?",
        parts.replace,
    ),
    (
        rf"in\s+{F},?\s+(?:replace|change)\s+(?P<first>only the first\s+)?(?P<old>.+?)\s+(?:with|to|into|by)\s+(?P<new>.+)",
        parts.replace,
    ),
    (
        rf"{CREATE}\s+{A}(?:(?:python|js|javascript|node|shell|bash)\s+)?(?:file|script|program|module)?\s*(?:called\s+|named\s+)?{F}(?:\s+file)?{THAT}\s+{PRINTS}\s+(?P<text>.+?)(?P<run>,?\s+(?:and\s+)?(?:then\s+)?(?:run|execute|test) it)?",
        parts.create_printing,
    ),
    (
        rf"{CREATE}\s+{A}(?:python\s+)?(?:file|script|module)?\s*(?:called\s+|named\s+)?{F}(?:\s+file)?\s+(?:with|containing|that has|having|defining)\s+{A}(?:function|method)?\s*(?P<func>[A-Za-z_]\w*)\s*\((?P<args>[\w\s,]*)\)(?:\s+(?:function|method))?(?:\s+(?:that|which)\s+returns?\s+(?P<returns>.+))?",
        parts.create_function,
    ),
    (
        rf"{CREATE}\s+{A}(?:text\s+|csv\s+)?(?:file\s+)?(?:called\s+|named\s+)?{F}(?:\s+file)?\s+(?:containing|that (?:contains|says)|with\s+(?:the\s+)?(?:content|contents|text|line|header|words?)(?=[\s:])|with(?=\s+\ue000))\s*:?\s*(?P<text>.+)",
        parts.create_with_text,
    ),
    (
        rf"(?:write|put|save)\s+(?P<text>.+?)\s+(?:in|into|to)\s+(?:a\s+|the\s+)?(?:file\s+)?(?:called\s+|named\s+)?{F}",
        parts.write_into,
    ),
    (
        rf"{CREATE}\s+{A}(?:{NUM}\s+)?(?:empty\s+|blank\s+|new\s+)?(?:text\s+)?(?:files?,?\s+)?(?:called\s+|named\s+)?(?P<paths>{PL})",
        parts.create_empty,
    ),
    (
        r"(?:but\s+)?(?:don'?t|do not)\s+(?:put|write|add)\s+anything\s+in\s+it|(?:but\s+)?leave\s+it\s+empty",
        parts.keep_empty,
    ),
    (
        r"(?:but\s+)?(?:don'?t|do not|without)\s+(?:run|running|execute|executing)\s+it(?:\s+yet)?",
        parts.dont_run,
    ),
    (
        r"(?:and\s+|including\s+|with\s+|also\s+)?(?:the\s+)?hidden(?:\s+ones|\s+files)?(?:\s+too|\s+as well|\s+included)?",
        questions.hidden_change,
    ),
    (
        r"(?:but\s+)?(?:not counting|excluding|without|skipping)\s+(?:the\s+)?hidden(?:\s+ones|\s+files)?",
        questions.not_hidden_change,
    ),
    # moving things around
    (
        rf"rename\s+(?:the\s+)?(?:file\s+|{FOLDER}\s+)?(?P<src>{N})(?:\s+{FOLDER})?\s+(?:to|as|into)\s+(?P<dest>{N})",
        parts.move(False),
    ),
    (
        rf"(?:move|mv)\s+(?:the\s+)?(?:file\s+|{FOLDER}\s+)?(?P<src>{N})\s+(?P<into>into|to|in)\s+(?:the\s+)?(?P<dest>{N})(?P<kind>\s+{FOLDER}|/)?",
        parts.move(True),
    ),
    (
        rf"(?:copy|cp|duplicate)\s+(?:the\s+)?(?:file\s+|{FOLDER}\s+)?(?P<src>{N})(?:\s+{FOLDER})?\s+(?P<into>into|to|as|in)\s+(?:the\s+)?(?P<dest>{N})(?P<kind>\s+{FOLDER}|/)?",
        parts.copy,
    ),
    (rf"make\s+a\s+copy\s+of\s+(?P<src>{N})\s+(?:called|named|as)\s+(?P<dest>{N})", parts.copy),
    (
        rf"(?:delete|remove|erase|rm)\s+(?:every|all(?: the)?|the)\s+{EXT}\s+files?\s+(?:in|inside|from|under)\s+(?:the\s+)?(?P<folder>{N})(?:\s+{FOLDER}|/)?",
        parts.delete_by_ext,
    ),
    (
        rf"(?:delete|remove|erase|rm)\s+(?:the\s+)?(?:file\s+|files\s+|(?P<dir>{FOLDER})\s+)?(?P<names>{NL})(?:\s+(?P<dir2>{FOLDER})|\s+file)?",
        parts.delete,
    ),
    (
        r"(?:don'?t|do not|never)\s+(?:delete|remove|change|modify|touch|edit)\s+anything",
        questions.guard("mutate"),
    ),
    # reading files
    (
        rf"(?:show|read|print|display|give|get|output|view|see|look at)(?:\s+me)?\s+the\s+(?P<which>first|top|last|bottom)\s+(?:{NUM}\s+)?(?P<lines>lines?)\s+(?:of|in|from)\s+{F}",
        questions.show_part,
    ),
    (
        rf"(?:show|read|cat|open|display|print|view|check|look at|see)(?:\s+me)?\s+{F}\s+(?:but\s+)?(?:only\s+)?the\s+(?P<which>first|top|last|bottom)\s+(?:{NUM}\s+)?(?P<lines>lines?)(?:\s+only)?",
        questions.show_part,
    ),
    (
        rf"(?:show|read|cat|open|display|print|view|check|look at|see)(?:\s+me)?\s+(?:the\s+)?(?:file\s+|contents?\s+of\s+|content\s+of\s+)?(?:the\s+file\s+)?{F}(?:\s+file)?(?:\s+for me)?",
        questions.show,
    ),
    (
        rf"(?:read|show|open|check|cat)\s+{F}\s+(?:to\s+|and\s+)?(?:verify|check|confirm)\s+(?:that\s+)?(?:the|my)\s+edit\s+(?:worked|was applied|is there)",
        questions.show_verify,
    ),
    (
        rf"(?:edit|update|change|modify)\s+{F}\s+(?:to\s+)?add\s+(?:a\s+)?docstrings?(?:\s+to\s+(?:the|its|each|every)\s+functions?)?",
        parts.docstring,
    ),
    (
        rf"add\s+(?:a\s+)?docstrings?\s+to\s+(?:the\s+functions?\s+in\s+|the\s+function\s+of\s+)?{F}",
        parts.docstring,
    ),
    (
        r"(?:which|what)\s+files?\s+defines?\s+(?:the\s+)?(?:function\s+)?(?P<text>[A-Za-z_]\w*)(?:\s+function)?",
        questions.search_definition,
    ),
    (
        rf"(?:show|read|cat|open|display|print|view)(?:\s+me)?\s+(?:its|the)\s+contents?|(?:show|read|cat|open|display|view)(?:\s+me)?\s+{IT}",
        questions.show_it,
    ),
    (rf"(?:(?:show|tell)\s+me\s+)?what(?:'s|s| is)\s+(?:in|inside)\s+{F}", questions.show),
    (rf"what does\s+{F}\s+(?:say|contain)", questions.show),
    (rf"not\s+(?P<names>{PL})", questions.guard("not")),
    (
        rf"(?:but\s+)?(?:not\s+(?:in|inside|from)|excluding|except(?:\s+for)?|skip(?:ping)?|leave\s+out|leaving\s+out|ignoring|ignore|without)\s+(?:the\s+)?(?P<skip>{N})(?:\s+{FOLDER}|/)",
        questions.skip_folder,
    ),
    # finding files
    (
        rf"(?:list|show|find|get|display|give|locate|what are|which are)(?:\s+me)?\s+{A}{EXT}\s+(?:files?|scripts?)(?:\s+(?:are\s+)?there)?{HERE}{WHERE}{REC}{SKIP}",
        questions.list_files,
    ),
    (
        rf"(?:list|show|find|get|display|give|what are)(?:\s+me)?\s+{A}(?P<hidden>hidden\s+|dot\s*)?files(?:\s+and\s+folders)?{HERE}{WHERE}{REC}{SKIP}(?P<also>,?\s+(?:including|with|and)\s+(?:the\s+)?hidden(?:\s+ones)?(?:\s+too)?|,?\s+hidden ones too)?",
        questions.list_files,
    ),
    (
        rf"list\s+{A}files\s+except\s+(?:for\s+)?(?:the\s+)?{EXT}(?:\s+ones|\s+files)",
        questions.list_except_ext,
    ),
    (
        rf"(?:what|which)\s+files\s+are\s+(?:there\s+)?(?:in|inside|under)\s+(?:the\s+)?(?P<folder>{N})(?:\s+{FOLDER}|/)?|what(?:'s|s| is)\s+in\s+(?:the\s+)?(?P<folder2>{N})\s+{FOLDER}",
        questions.list_folder,
    ),
    (
        rf"(?:list|show)(?:\s+me)?\s+(?:everything|all|the contents|what's)\s+(?:in|inside|of)\s+(?:the\s+)?(?P<folder>{N})(?:\s+{FOLDER}|/)?",
        questions.list_folder,
    ),
    (
        rf"(?:find|locate|where is|where's)\s+(?:the\s+)?(?:files?\s+)?(?:named\s+|called\s+)?{F}",
        questions.find_name,
    ),
    (
        rf"(?:how many|count(?: the)?|number of)\s+(?P<unit>lines|words)\s+(?:are\s+)?(?:there\s+)?(?:in|of)\s+(?P<paths>{PL})",
        questions.count_in_files,
    ),
    (
        rf"how many\s+(?P<unit>lines|words)\s+(?:does|do|is|are|in)\s+(?P<paths>{PL})(?:\s+(?:have|contain))?",
        questions.count_in_files,
    ),
    (
        rf"(?:how many|count(?: the)?|number of)\s+{A}(?:{EXT}\s+)?files(?:\s+(?:are|is))?(?:\s+there)?{HERE}{WHERE}(?:,?\s+not counting hidden ones)?",
        questions.count_files,
    ),
    # searching text
    (
        rf"(?:which|what)\s+(?:{EXT}\s+)?files?\s+(?P<verb>imports?|contains?|mentions?|uses?|references?|includes?|has|have)\s+(?:the word\s+)?(?P<text>.+?){WHERE}{SKIP}",
        questions.search,
    ),
    (
        rf"(?:is|are)\s+there\s+(?:any\s+)?files?\s+(?:that|which)\s+(?P<verb>imports?|contains?|mentions?|uses?)\s+(?P<text>.+?){WHERE}",
        questions.search,
    ),
    (
        rf"find\s+(?:the\s+|all\s+)?files?\s+(?:that|which)\s+(?P<verb>imports?|contains?|mentions?|uses?)\s+(?:the word\s+)?(?P<text>.+?){WHERE}{SKIP}",
        questions.search,
    ),
    (
        rf"(?:search|grep|look)(?:\s+(?:the|this|my)\s+(?:project|code|repo|files|workspace|folder))?(?:\s+for)?\s+(?P<text>.+?)(?:\s+in\s+(?:all\s+)?(?:the\s+)?{EXT}\s+files|{WHERE}){SKIP}",
        questions.search,
    ),
    # running things
    (
        rf"(?:run|execute|exec|launch|start|try)\s+(?:the\s+)?(?:python\s+)?(?:script\s+|file\s+|program\s+)?{F}(?:\s+(?:and|to)\s+(?:tell|show)\s+me\s+(?:what happens|what it prints|the output|its output))?",
        questions.run_file,
    ),
    (rf"(?:run|execute|test)\s+{IT}(?:\s+again)?", questions.run_it),
    (
        r"(?:run|execute)\s+(?:the\s+)?(?:command\s+)?(?P<command>\ue000\d+\ue000)(?:\s+and\s+(?:tell|show)\s+me\s+(?:what happens|the output))?",
        questions.run_command,
    ),
    (
        r"what does\s+(?P<command>\ue000\d+\ue000)\s+(?:print|output|say|show)",
        questions.run_command,
    ),
    (
        r"(?:run|execute)\s+(?:the\s+)?(?:command\s+)?(?P<command>(?:ls|pwd|echo|cat|head|tail|wc|python3?|node|git|date|whoami|uname|tree|du|df|find|grep)\b[^\ue000]*)",
        questions.run_command,
    ),
    (
        r"(?P<command>(?:ls|pwd|echo|cat|head|tail|wc|date|whoami|uname|tree|du|python3?|node)\b[^\ue000]*)",
        questions.run_command,
    ),
    (r"and tell me what happens|tell me what (?:happens|it prints)", questions.guard("report")),
]
RULES = [(re.compile(pattern, re.I), build) for pattern, build in RULES]
