"""The approval gate: may this tool call run?

Each tool has a rule: ``allow`` (run it), ``ask`` (ask the user first) or ``deny``.
Read-only tools are allowed; tools that change files or run commands ask. ``--yes``
answers every ask with yes. When nobody can be asked (stdin is not a terminal) and
``--yes`` was not given, an ask is a no: silence must not count as consent.

A "no" is not an exception. It comes back as a tool result, so the model reads that
the user refused and can choose another way (day 5).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Callable

RULES = ("allow", "ask", "deny")

AskUser = Callable[[str], bool]


@dataclass(frozen=True)
class Decision:
    """The gate's answer and, for a refusal, the reason to give the model."""

    allowed: bool
    reason: str = ""


class Approver:
    """Applies per-tool rules, asking the user (or assuming yes) where a rule says ask."""

    def __init__(self, rules: dict[str, str], *, yes: bool = False, ask: AskUser | None = None) -> None:
        for name, rule in rules.items():
            if rule not in RULES:
                raise ValueError(f"rule for {name} must be one of {', '.join(RULES)}, not {rule!r}")
        self.rules = dict(rules)
        self.yes = yes
        self.ask = ask  # None means nobody is there to answer

    @classmethod
    def for_tools(cls, registry, *, yes: bool = False, ask: AskUser | None = None) -> "Approver":
        """Default rules: read-only tools are allowed, every other tool asks."""
        rules = {name: "allow" if registry.is_read_only(name) else "ask" for name in registry.names()}
        return cls(rules, yes=yes, ask=ask)

    def decide(self, name: str, args: dict) -> Decision:
        rule = self.rules.get(name, "ask")  # a tool nobody wrote a rule for is not trusted
        if rule == "allow":
            return Decision(True)
        if rule == "deny":
            return Decision(False, f"denied: the rules do not allow {name}")
        if self.yes:
            return Decision(True)
        if self.ask is None:
            return Decision(False, f"denied: {name} needs approval and nobody could be asked "
                                   "(run with --yes to approve tool calls)")
        if self.ask(describe_call(name, args)):
            return Decision(True)
        return Decision(False, f"denied: the user did not approve {name}")


def describe_call(name: str, args: dict) -> str:
    """One line a person can judge: the command itself for run_command, else the arguments."""
    if name == "run_command" and "command" in args:
        return f"run_command: {args['command']}"
    text = json.dumps(args, ensure_ascii=False)
    return f"{name} {text[:200]}{'...' if len(text) > 200 else ''}"


def ask_on_terminal(description: str) -> bool:
    """Ask a yes/no question on the terminal; anything but y/yes is a no."""
    try:
        answer = input(f"  allow {description}? [y/N] ")
    except EOFError:
        return False
    return answer.strip().lower() in ("y", "yes")
