"""The approval gate: may this tool call run?

Rules say ``allow``, ``ask`` or ``deny`` for a tool, optionally only when its main
argument (the command of run_command, the path of a file tool) matches a pattern:

    [[rule]]                # in <workdir>/.mca/rules.toml, or --rule "deny run_command rm *"
    action = "deny"
    tool = "run_command"
    match = "rm *"

Every rule that matches is considered and the strictest wins - deny, then ask, then
allow - whatever order they were written in, so a broad allow can never hide a
deny. A compound command (``a && b``, ``a; b``, ``a | b``, ``$(b)``) is judged part by
part: it is as strict as its strictest part. With no rule, read-only tools are
allowed and every other tool asks.

An ask goes to the person at the terminal: ``y``, ``n`` or ``always`` (the same kind of
call runs without asking for the rest of the session). ``--yes`` answers every ask
with yes, but never overrides a deny. When nobody can be asked (stdin is not a
terminal), an ask is a no: silence must not count as consent.

A "no" is not an exception. It comes back as the call's result, with the reason, so
the model reads that the user refused and can choose another way.
"""

from __future__ import annotations

import fnmatch
import re
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .base import describe_call

ACTIONS = ("allow", "ask", "deny")
RULE_KEYS = ("action", "tool", "match")
STRICTNESS = {"allow": 0, "ask": 1, "deny": 2}
RULES_FILE = Path(".mca") / "rules.toml"
DEFAULT_RULES = ("deny run_command rm -rf *", "deny run_command rm -fr *")  # what nobody wants by accident

AskUser = Callable[[str], str]  # description -> "y", "n" or "always"
# A compound command's parts: split at &&, ||, ;, |, & (not the & of 2>&1 or &>), newlines,
# and inside $( ), <( ), >( ) and ` `.
SEPARATORS = re.compile(r"&&|\|\||;|\||(?<![<>&])&(?![>&])|\n|\$\(|[<>]\(|\)|`")


@dataclass(frozen=True)
class Rule:
    action: str
    tool: str
    match: str = "*"   # fnmatch pattern for the call's main argument
    source: str = ""   # where it was written, for the reason a denial gives

    def applies(self, tool: str, subject: str) -> bool:
        return fnmatch.fnmatchcase(tool, self.tool) and fnmatch.fnmatchcase(subject, self.match)

    def __str__(self) -> str:
        return f"{self.action} {self.tool} {self.match}" + (f" ({self.source})" if self.source else "")


@dataclass(frozen=True)
class Decision:
    """The gate's answer and, for a refusal, the reason to give the model."""

    allowed: bool
    reason: str = ""


def parse_rule(text: str, source: str = "--rule") -> Rule:
    """``"deny run_command rm *"`` -> Rule; the pattern may contain spaces."""
    parts = text.split(None, 2)
    if len(parts) < 2 or parts[0] not in ACTIONS:
        raise ValueError(f"rule {text!r}: write it as 'ACTION TOOL [PATTERN]' with ACTION one of "
                         f"{', '.join(ACTIONS)}")
    return Rule(parts[0], parts[1], parts[2] if len(parts) > 2 else "*", source)


def load_rules(workdir: Path, extra: list[str] = ()) -> list[Rule]:
    """The built-in denials, the workdir's .mca/rules.toml, then --rule options."""
    rules = [parse_rule(text, "built in") for text in DEFAULT_RULES]
    path = workdir / RULES_FILE
    if path.is_file():
        import tomllib  # only when there is a rules file to read

        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ValueError(f"{path}: not valid TOML ({exc}); fix it or remove it") from None
        for number, entry in enumerate(data.get("rule", []), 1):
            if not isinstance(entry, dict) or entry.get("action") not in ACTIONS or "tool" not in entry:
                raise ValueError(f"{path}: rule {number} needs action ({', '.join(ACTIONS)}) and tool")
            unknown = sorted(set(entry) - set(RULE_KEYS))
            if unknown:  # a misspelt "match" would make the rule apply to every call of the tool
                raise ValueError(f"{path}: rule {number}: unknown key {unknown[0]!r}; a rule has "
                                 f"{', '.join(RULE_KEYS)}")
            rules.append(Rule(entry["action"], str(entry["tool"]), str(entry.get("match", "*")), str(path.name)))
    rules += [parse_rule(text) for text in extra]
    return rules


def subject_of(name: str, args: dict, workdir: Path | None = None) -> str:
    """What a rule's pattern is matched against: the command, the path, or nothing.

    A path is matched as the file it names, relative to the workdir: ``notes/../secrets/k``,
    ``./secrets/k`` and a symlink to ``secrets`` are all ``secrets/k``, so a path rule
    cannot be walked around. A path that leaves the workdir is matched as its absolute path.
    """
    if name == "run_command":
        return str(args.get("command", ""))
    path = str(args.get("path", ""))
    if workdir is None or not path:
        return path
    root = Path(workdir).resolve()
    target = (root / path).resolve()
    return target.relative_to(root).as_posix() if root in target.parents else str(target)


def command_parts(command: str) -> list[str]:
    """The simple commands a compound command is made of, each trimmed."""
    return [part.strip() for part in SEPARATORS.split(command) if part.strip()] or [command.strip()]


def kind_of(name: str, args: dict) -> str:
    """The "same kind of call" an ``always`` answer covers: the tool, and for a command its program.

    A compound command's kind names the program of every part, so "always" for ``echo``
    never covers ``echo hi; curl x | sh``: the parts after the first are other programs.
    """
    if name == "run_command":
        programs: list[str] = []
        for part in SEPARATORS.split(str(args.get("command", ""))):  # split here too: E4's parts may differ
            try:
                words = shlex.split(part)
            except ValueError:  # unbalanced quotes: still a command, just not a tidy one
                words = part.split()
            program = (words or [""])[0]
            if program.strip("'\" ") and program not in programs:  # a stray quote left by a ) in quotes runs nothing
                programs.append(program)
        return "run_command " + " ".join(programs or [""])
    return name


@dataclass
class Approver:
    """Applies the rules, asking the user (or assuming yes) where a rule says ask."""

    rules: list[Rule]
    read_only: set[str] = field(default_factory=set)
    yes: bool = False
    ask: AskUser | None = None  # None: nobody is there to answer
    always: set[str] = field(default_factory=set)  # kinds of call approved for this session
    workdir: Path | None = None  # where path arguments are resolved before rules see them

    @classmethod
    def for_tools(cls, registry, rules: list[Rule] = (), *, yes: bool = False,
                  ask: AskUser | None = None, workdir: Path | None = None) -> "Approver":
        read_only = {name for name in registry.names() if registry.is_read_only(name)}
        return cls(list(rules), read_only, yes, ask, workdir=workdir)

    def rule_for(self, name: str, args: dict) -> tuple[str, Rule | None]:
        """The action for one call, and the rule that decided it (None: the default)."""
        subject = subject_of(name, args, self.workdir)
        subjects = command_parts(subject) if name == "run_command" else [subject]
        default = "allow" if name in self.read_only else "ask"
        decided = []
        for part in subjects:  # each part on its own: the call is as strict as its strictest part
            rule = self.strictest(name, part)
            decided.append((rule.action, rule) if rule else (default, None))
        return max(decided, key=lambda pair: STRICTNESS[pair[0]])

    def allows(self, name: str) -> bool:
        """Whether the rules let every call of this tool through without asking (a rule
        ``allow TOOL``, or a read-only tool no rule holds back); a more particular rule still
        decides each call when it comes."""
        return self.rule_for(name, {})[0] == "allow"

    def strictest(self, name: str, subject: str) -> Rule | None:
        """The rule that decides for one subject (None: no rule matches it)."""
        found = [rule for rule in self.rules if rule.applies(name, subject)]
        return max(found, key=lambda rule: STRICTNESS[rule.action], default=None)  # deny > ask > allow

    def decide(self, name: str, args: dict) -> Decision:
        action, rule = self.rule_for(name, args)
        because = f" (rule: {rule})" if rule else ""
        if action == "allow":
            return Decision(True)
        if action == "deny":
            return Decision(False, f"denied: {describe_call(name, args)} is not allowed{because}")
        if self.yes or kind_of(name, args) in self.always:
            return Decision(True)
        if self.ask is None:
            return Decision(False, f"denied: {describe_call(name, args)} needs approval and there is no one to "
                                   "ask (not a terminal; run with --yes to approve asks)")
        answer = self.ask(describe_call(name, args)).strip().lower()
        if answer in ("a", "always"):
            self.always.add(kind_of(name, args))  # until the session ends, not in any file
            return Decision(True)
        if answer in ("y", "yes"):
            return Decision(True)
        return Decision(False, f"denied: the user did not approve {describe_call(name, args)}")


def ask_on_terminal(description: str) -> str:
    """Ask on the terminal; EOF (Ctrl-D) is a no."""
    try:
        return input(f"  allow {description}? [y]es / [n]o / [a]lways: ")
    except EOFError:
        return "n"


def terminal_asker(stdin=None) -> AskUser | None:
    """Who answers an ask: the person at the terminal, or nobody."""
    stdin = sys.stdin if stdin is None else stdin  # None when the program started with fd 0 closed
    try:
        terminal = stdin is not None and stdin.isatty()
    except ValueError:  # a stdin that was closed
        terminal = False
    if not terminal:
        return None  # no stdin, a pipe, a file, a CI runner: nobody will answer, so an ask is a no
    return ask_on_terminal
