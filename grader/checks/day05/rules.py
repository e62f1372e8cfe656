"""Rule files and calls generated per run, and the grader's own answer for each call.

Every run writes a different `.mca/rules.toml`: random program names, random paths,
rules in shuffled order (keys in shuffled order too), some of them given as `--rule`
options instead. A matcher that remembers answers, or that lets the order of the
file decide, cannot pass: the grader computes what each call must get from the rules
themselves (`expected`), the way the contract says - every rule that matches counts,
the strictest wins, a part of a compound command no rule matches gets the default.

The cases are built to tell the usual wrong matchers apart:

* conflicts: two or three rules of different actions match one call, and for every
  pair of actions one case writes the weaker first and one the stronger first (first
  match wins and last match wins both fail);
* near misses: `deny run_command W *` must not catch `Wdir x` (a prefix matcher does),
  an exact pattern must not catch the same command with more words;
* paths: a deny on `D/*` holds for `./D/f`, `x/../D/f` and a symlink to `D` (the
  gate matches the file a path names, not its spelling);
* no rule: read-only tools are allowed, other tools ask.
"""

from __future__ import annotations

import fnmatch
import json
import random
from dataclasses import dataclass, field
from pathlib import Path

from grader.checkkit.messages import Messages

STRICTNESS = {"allow": 0, "ask": 1, "deny": 2}
BUILT_IN = (("deny", "run_command", "rm -rf *"), ("deny", "run_command", "rm -fr *"))
READ_ONLY = ("read_file", "list_dir", "grep")
PAIRS = (("allow", "deny"), ("allow", "ask"), ("ask", "deny"))
CONSONANTS, VOWELS = "bcdfgjklmnpqrstvwxz", "aeiou"


def _idea(key: str, **fields) -> str:
    """What a case tells apart, for messages: `key` of messages.toml ([idea]), in the run's language."""
    return Messages.for_day(Path(__file__).parent)(key, **fields)


@dataclass(frozen=True)
class Rule:
    action: str
    tool: str
    match: str = "*"

    def applies(self, tool: str, subject: str) -> bool:
        return fnmatch.fnmatchcase(tool, self.tool) and fnmatch.fnmatchcase(subject, self.match)

    def text(self) -> str:
        """The `--rule` form."""
        return f"{self.action} {self.tool} {self.match}"


@dataclass
class Case:
    """One call and what it is meant to show; `expected` is filled in from the whole rule set."""

    name: str
    args: dict
    subject: str                 # what the rules are matched against (a path as the file it names)
    idea: str                    # for messages: what this case tells apart
    parts: tuple[str, ...] = ()  # for a compound command: its simple commands
    expected: str = ""
    answer: str = "n"            # what the person at the terminal types if the call asks


@dataclass
class RuleSet:
    file_rules: list[Rule]       # .mca/rules.toml, in this order
    extra: list[Rule]            # --rule options, after the file
    cases: list[Case]
    links: dict[str, str] = field(default_factory=dict)   # symlink -> target dir, inside the workdir
    dirs: list[str] = field(default_factory=list)

    @property
    def all_rules(self) -> list[Rule]:
        """In the order the agent loads them: built in, the file, then --rule."""
        return [Rule(*r) for r in BUILT_IN] + self.file_rules + self.extra


# --------------------------------------------------------------------------- the reference

def strictest(rules: list[Rule], tool: str, subject: str) -> str | None:
    found = [r.action for r in rules if r.applies(tool, subject)]
    return max(found, key=STRICTNESS.__getitem__) if found else None


def expected(rules: list[Rule], tool: str, subjects: list[str]) -> str:
    default = "allow" if tool in READ_ONLY else "ask"
    return max((strictest(rules, tool, s) or default for s in subjects), key=STRICTNESS.__getitem__)


def first_match(rules: list[Rule], tool: str, subjects: list[str]) -> str:
    """What the scaffold's trap answers (for the tests: every run must catch it)."""
    default = "allow" if tool in READ_ONLY else "ask"
    for subject in subjects:
        for rule in rules:
            if rule.applies(tool, subject):
                return rule.action
    return default


# --------------------------------------------------------------------------- drawing

def words(rng: random.Random, n: int) -> list[str]:
    """`n` program-like names, none inside another (so `w*` or `*w*` never catches a neighbour)."""
    chosen: list[str] = []
    while len(chosen) < n:
        word = "".join(rng.choice(CONSONANTS) + rng.choice(VOWELS) for _ in range(rng.randint(2, 3)))
        word += rng.choice(CONSONANTS)
        if any(word in w or w in word for w in chosen):
            continue
        chosen.append(word)
    return chosen


def argument(rng: random.Random) -> str:
    return rng.choice(("-v", "--all", "build", "src", "-n 3", "x.txt", "--dry-run")) + f" {rng.randint(1, 999)}"


def patterns_for(rng: random.Random, word: str, arg: str) -> list[str]:
    """Different spellings of a pattern that matches `word arg`."""
    first = arg.split()[0]
    return [f"{word} *", f"{word}*", f"*{word}*", f"{word} {first}*", f"{word} {arg}", f"{word} ?*"]


def decision_rules(rng: random.Random) -> RuleSet:
    """The rule set and calls of deny-beats-allow (simple commands and paths, no compounds)."""
    names = words(rng, 14)
    rules_in_order: list[list[Rule]] = []  # per case, in the order they must appear
    cases: list[Case] = []
    links: dict[str, str] = {}
    dirs: list[str] = []

    # Conflicts on commands: every pair of actions, weaker first and stronger first.
    conflict_pairs = [(weak, strong, weak_first) for weak, strong in PAIRS for weak_first in (True, False)]
    for weak, strong, weak_first in conflict_pairs:
        word = names.pop()
        arg = argument(rng)
        command = f"{word} {arg}"
        spellings = rng.sample(patterns_for(rng, word, arg), 2)
        pair = [Rule(weak, "run_command", spellings[0]), Rule(strong, "run_command", spellings[1])]
        rules_in_order.append(pair if weak_first else pair[::-1])
        cases.append(Case("run_command", {"command": command}, command,
                          _idea("idea.both_first" if weak_first else "idea.both_after", weak=weak, strong=strong)))
    # All three at once, in a random order.
    word = names.pop()
    arg = argument(rng)
    three = [Rule(a, "run_command", p) for a, p in zip(("allow", "ask", "deny"),
                                                       rng.sample(patterns_for(rng, word, arg), 3))]
    rng.shuffle(three)
    rules_in_order.append(three)
    cases.append(Case("run_command", {"command": f"{word} {arg}"}, f"{word} {arg}",
                      _idea("idea.all_three")))

    # Near misses: a longer program name, a longer command; the rule that does match decides.
    word = names.pop()
    longer = word + rng.choice(("dir", "x", "2", "-all"))
    arg = argument(rng)
    rules_in_order.append([Rule("deny", "run_command", f"{word} *"), Rule("allow", "run_command", f"{longer} *")])
    cases.append(Case("run_command", {"command": f"{longer} {arg}"}, f"{longer} {arg}",
                      _idea("idea.longer_program", word=word, longer=longer)))
    word = names.pop()
    arg = argument(rng)
    rules_in_order.append([Rule("deny", "run_command", f"{word} {arg}")])
    cases.append(Case("run_command", {"command": f"{word} {arg} --more"}, f"{word} {arg} --more",
                      _idea("idea.longer_command")))

    # Paths: a denied directory, reached by several spellings; an allow for the same tool too.
    secret, other, link = names.pop(), names.pop(), names.pop()
    dirs += [secret, other]
    links[link] = secret
    tool = rng.choice(("write_file", "edit_file"))
    spelled_tool = rng.choice(("*_file", f"{tool[:5]}*", f"?{tool[1:]}"))  # the rule's tool is a pattern too
    path_rules = [Rule("deny", spelled_tool, f"{secret}/*"), Rule("allow", tool)]  # the broad allow has no match key
    rng.shuffle(path_rules)
    rules_in_order.append(path_rules)
    stems = [rng.choice(("notes", "key", "config", "token", "plan")) + str(rng.randint(10, 99)) for _ in range(5)]
    for spelled, idea in ((f"{secret}/{stems[0]}.txt", _idea("idea.denied_dir")),
                          (f"./{secret}/{stems[1]}.txt", _idea("idea.denied_dir_dot")),
                          (f"{other}/../{secret}/{stems[2]}.txt", _idea("idea.denied_dir_up")),
                          (f"{link}/{stems[3]}.txt", _idea("idea.denied_dir_link"))):
        resolved = spelled.removeprefix("./").replace(f"{other}/../", "").replace(f"{link}/", f"{secret}/")
        cases.append(Case(tool, {"path": spelled}, resolved,
                          _idea("idea.deny_against", tool=spelled_tool, secret=secret, what=idea)))
    cases.append(Case(tool, {"path": f"{other}/{stems[4]}.txt"}, f"{other}/{stems[4]}.txt",
                      _idea("idea.broad_allow", tool=tool)))

    # Read-only tools: allowed with no rule, asked when a rule says ask (and a broad allow is there too).
    ro = rng.choice(READ_ONLY)
    watched = names.pop()
    dirs.append(watched)
    ro_rules = [Rule("allow", ro, "*"), Rule("ask", ro, f"{watched}/*")]
    rng.shuffle(ro_rules)
    rules_in_order.append(ro_rules)
    cases.append(Case(ro, ro_args(ro, f"{watched}/{stems[0]}.md"), "", _idea("idea.ask_read", tool=ro, watched=watched)))
    other_ro = rng.choice([t for t in READ_ONLY if t != ro])
    cases.append(Case(other_ro, ro_args(other_ro, f"{other}/{stems[1]}.md"), "",
                      _idea("idea.read_no_rule", tool=other_ro)))
    for case in cases:
        if not case.subject:
            case.subject = case.args["path"]

    file_rules, extra = interleave(rng, rules_in_order)
    rule_set = RuleSet(file_rules, extra, cases, links, dirs)
    for case in cases:
        case.expected = expected(rule_set.all_rules, case.name, [case.subject])
    rng.shuffle(cases)
    return rule_set


def ro_args(tool: str, path: str) -> dict:
    return {"pattern": "x", "path": path} if tool == "grep" else {"path": path}


def interleave(rng: random.Random, groups: list[list[Rule]]) -> tuple[list[Rule], list[Rule]]:
    """All rules in a random order that keeps each group's own order; some last rules go to --rule."""
    slots = [index for index, group in enumerate(groups) for _ in group]
    rng.shuffle(slots)
    cursors = [0] * len(groups)
    ordered = []
    for index in slots:
        ordered.append(groups[index][cursors[index]])
        cursors[index] += 1
    last = {id(group[-1]) for group in groups if len(group) > 1}
    moved = [rule for rule in ordered if id(rule) in last and rng.random() < 0.35][:3]
    # --rule options come after the whole file: only a group's last rule may move there,
    # and the moved ones keep their relative order.
    return [r for r in ordered if all(r is not m for m in moved)], moved


# --------------------------------------------------------------------------- compounds

SEPARATORS = ("&&", "||", ";", "|", "&", "\n")
WRAPS = ("$({})", "`{}`", "<({})", ">({})")


def compound_rules(rng: random.Random) -> RuleSet:
    """The rule set and calls of compound-each-part: every part matches rules of one action only."""
    names = words(rng, 16)
    allowed, denied, asked, unknown = names[:6], names[6:10], names[10:13], names[13:16]
    file_rules = []
    for group, action in ((allowed, "allow"), (denied, "deny"), (asked, "ask")):
        for word in group:
            file_rules.append(Rule(action, "run_command", rng.choice((f"{word} *", f"{word}*"))))
    rng.shuffle(file_rules)

    def part(group) -> str:
        return f"{rng.choice(group)} {argument(rng)}"

    def space(separator: str) -> str:
        if separator == "\n":
            return separator
        return rng.choice((f" {separator} ", separator, f" {separator}", f"{separator} "))

    cases: list[Case] = []
    stricter = [(denied, "deny"), (asked, "ask"), (unknown, "ask")]
    for index, separator in enumerate(SEPARATORS):
        group, _ = stricter[index % len(stricter)]
        first, last = part(allowed), part(group)  # the stricter part after the separator
        command = first + space(separator) + last
        cases.append(Case("run_command", {"command": command}, command, _idea("idea.then", separator=repr(separator)),
                          (first, last)))
    for index, wrap in enumerate(WRAPS):
        group, _ = stricter[(index + 1) % len(stricter)]
        first, inner = part(allowed), part(group)
        command = f"{first} {wrap.format(inner)}"
        cases.append(Case("run_command", {"command": command}, command, _idea("idea.inside", wrap=wrap.format("...")),
                          (first, inner)))
    # Three parts, the stricter one in the middle.
    a, b, c = part(allowed), part(denied), part(allowed)
    command = f"{a} && {b} ; {c}"
    cases.append(Case("run_command", {"command": command}, command, _idea("idea.denied_middle"), (a, b, c)))
    # The other side: compounds of allowed parts are allowed (2>&1 is a redirection, not a separator).
    for _ in range(2):
        separators = rng.sample(SEPARATORS[:5], 2)
        pieces = [part(allowed) for _ in range(3)]
        pieces[rng.randrange(3)] += " 2>&1"
        command = pieces[0] + space(separators[0]) + pieces[1] + space(separators[1]) + pieces[2]
        cases.append(Case("run_command", {"command": command}, command, _idea("idea.all_allowed"), tuple(pieces)))
    # &> is a redirection too: a part that sends its output to a file is still one part.
    first, second = part(allowed) + rng.choice((" &> ", " &>")) + f"out_{rng.randint(1, 999)}.log", part(allowed)
    command = first + space(rng.choice(SEPARATORS[:5])) + second
    cases.append(Case("run_command", {"command": command}, command, _idea("idea.all_allowed_redirect")))
    # Many parts (9 to 12 separators): every one is split, the denied part at the end too.
    pieces = [part(allowed) for _ in range(rng.randint(9, 12))] + [part(denied)]
    command = pieces[0] + "".join(space(rng.choice(SEPARATORS)) + piece for piece in pieces[1:])
    cases.append(Case("run_command", {"command": command}, command,
                      _idea("idea.denied_after_many", count=len(pieces) - 1)))
    wrapped = f"{part(allowed)} {rng.choice(WRAPS).format(part(allowed))}"
    cases.append(Case("run_command", {"command": wrapped}, wrapped, _idea("idea.all_allowed_nested")))
    rule_set = RuleSet(file_rules, [], cases)
    for case in cases:
        case.parts = tuple(case_parts(case))
        case.expected = expected(rule_set.all_rules, case.name, list(case.parts))
    rng.shuffle(cases)
    return rule_set


def case_parts(case: Case) -> list[str]:
    """The simple commands of a generated compound, as the grader built them."""
    command = case.subject.replace("2>&1", "\0").replace("&>", "\1")  # redirections, not separators
    for wrap in WRAPS:
        opening = wrap.format("\0").split("\0")[0]
        closing = wrap.format("\0").split("\0")[1]
        command = command.replace(opening, "\n").replace(closing, "\n")
    for separator in SEPARATORS:
        command = command.replace(separator, "\n")
    return [piece.strip().replace("\0", "2>&1").replace("\1", "&>") for piece in command.split("\n") if piece.strip()]


# --------------------------------------------------------------------------- always, in one session

def always_session(rng: random.Random) -> RuleSet:
    """Calls decided by one Approver in turn, with the answers typed; `expected` is what each must get.

    "always" for a program, then: the same program (allow), the same program where a deny
    rule matches (deny: the memory never beats a rule), the same program followed by
    another one in a compound (ask: the other program was never approved). A plain "y" for another program, then that program again (ask: "y" is for
    one call). "always" for a file tool, then that tool into a denied directory (deny)
    and elsewhere (allow). The three groups come in a random order.
    """
    program, once, other, secret_word = words(rng, 4)
    secret, tool = f"{words(rng, 1)[0]}_{rng.randint(10, 99)}", rng.choice(("write_file", "edit_file"))
    token = f"{secret_word}{rng.randint(10, 99)}"
    file_rules = [Rule("deny", "run_command", f"{program} *{token}*"), Rule("deny", tool, f"{secret}/*")]
    rng.shuffle(file_rules)
    always, yes = rng.choice(("always", "a", "Always")), rng.choice(("y", "yes", "Y"))
    separator = rng.choice(("; ", " && ", " | ", " || ", "\n"))

    def call(command: str, expected: str, idea: str, answer: str = "n") -> Case:
        return Case("run_command", {"command": command}, command, idea, expected=expected, answer=answer)

    def file(path: str, expected: str, idea: str, answer: str = "n") -> Case:
        args = {"path": path, "content": "x\n"} if tool == "write_file" else {"path": path, "old": "a", "new": "b"}
        return Case(tool, args, path, idea, expected=expected, answer=answer)

    after = [call(f"{program} {argument(rng)}", "allow", _idea("idea.always_same", program=program)),
             call(f"{program} --{token}", "deny", _idea("idea.always_denied", program=program)),
             call(f"{program} {argument(rng)}{separator}{other} {argument(rng)}", "ask",
                  _idea("idea.always_compound", program=program, other=other, separator=repr(separator.strip() or separator))),
]
    rng.shuffle(after)
    commands = [call(f"{program} {argument(rng)}", "ask", _idea("idea.always_first", program=program, answer=always),
                     always), *after]
    plain = [call(f"{once} {argument(rng)}", "ask", _idea("idea.y_first", program=once, answer=yes), yes),
             call(f"{once} {argument(rng)}", "ask", _idea("idea.y_again", program=once, answer=yes))]
    later = [file(f"{secret}/k{rng.randint(10, 99)}.txt", "deny", _idea("idea.always_file_denied", tool=tool, secret=secret)),
             file(f"notes_{rng.randint(10, 99)}.txt", "allow", _idea("idea.always_file_other", tool=tool))]
    rng.shuffle(later)
    files = [file(f"plan_{rng.randint(10, 99)}.txt", "ask", _idea("idea.always_file", tool=tool, answer=always), always),
             *later]
    groups = [commands, plain, files]
    rng.shuffle(groups)
    return RuleSet(file_rules, [], [case for group in groups for case in group], dirs=[secret])


# --------------------------------------------------------------------------- writing

def toml_text(rng: random.Random, rules: list[Rule]) -> str:
    """A rules.toml of `rules`, keys in random order, `match` left out when it is `*` (sometimes)."""
    lines = []
    for rule in rules:
        keys = [("action", rule.action), ("tool", rule.tool)]
        if rule.match != "*" or rng.random() < 0.5:
            keys.append(("match", rule.match))
        rng.shuffle(keys)
        lines += ["[[rule]]", *(f"{key} = {json.dumps(value)}" for key, value in keys), ""]
    return "\n".join(lines)


def write_workdir(rng: random.Random, workdir: Path, rule_set: RuleSet) -> None:
    """The rules file, the directories the paths name and the symlinks (files need not exist)."""
    (workdir / ".mca").mkdir(parents=True, exist_ok=True)
    (workdir / ".mca" / "rules.toml").write_text(toml_text(rng, rule_set.file_rules), encoding="utf-8")
    for name in rule_set.dirs:
        (workdir / name).mkdir(exist_ok=True)
    for link, target in rule_set.links.items():
        (workdir / link).symlink_to(target, target_is_directory=True)
