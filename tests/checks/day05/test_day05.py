"""Day 05's checks, the parts of them no other day has: every check is there in manifest
order, every sentence they say is in the catalogue, and the generated rule sets hold
the cases the checks claim for every seed (so a mutant's result does not depend on the
seed). The corpus proof, common to every day, is tests/checks/test_corpus.py."""

from __future__ import annotations

import random
import re
import tomllib
from pathlib import Path

import pytest

from tests.checks import corpus

DAY = corpus.COURSE.find_day("day-05")
SEEDS = range(60)


def checks_module(name: str = "checks"):
    """A module of the day's checks folder, imported as the engine does (a package)."""
    return corpus.checks_module(DAY, name)


def test_every_message_the_checks_use_is_in_the_catalogue():
    used = set()
    for path in DAY.checks_dir.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r'say\("([a-z0-9_]+\.[a-z0-9_]+)"', text))
        used |= set(re.findall(r'"((?:what|brief|idea)\.[a-z0-9_]+)"', text))  # keys chosen in an expression
        used |= set(re.findall(r'finish\(ctx, child, "([a-z0-9_]+\.[a-z0-9_]+)"\)', text))
        used |= set(re.findall(r'rule_set, rng\), "([a-z0-9_]+\.[a-z0-9_]+)"\)', text))
    catalogue = tomllib.loads((DAY.checks_dir / "messages.toml").read_text(encoding="utf-8"))
    kit = tomllib.loads((corpus.KIT / "grader" / "checkkit" / "messages.toml").read_text(encoding="utf-8"))
    known = {f"{section}.{name}" for table in (catalogue, kit) for section, entries in table.items()
             for name in entries}
    assert len(used) > 30 and used <= known, sorted(used - known)
    ours = {f"{section}.{name}" for section, entries in catalogue.items() for name in entries}
    assert ours <= used, f"sentences no check says: {sorted(ours - used)}"


# --------------------------------------------------------------------------- the generated rules

@pytest.mark.parametrize("seed", SEEDS)
def test_every_decision_set_catches_first_match_and_last_match(seed):
    R = checks_module("rules")
    rule_set = R.decision_rules(random.Random(seed))
    rules = rule_set.all_rules
    right = [c.expected for c in rule_set.cases]
    assert [R.first_match(rules, c.name, [c.subject]) for c in rule_set.cases] != right
    assert [R.first_match(rules[::-1], c.name, [c.subject]) for c in rule_set.cases] != right
    # every pair of actions is a conflict somewhere, both ways round
    ideas = {c.idea for c in rule_set.cases}
    for weak, strong in R.PAIRS:
        assert any(f"{weak} and {strong} both match, the {weak} written first" == i for i in ideas)
        assert any(f"{weak} and {strong} both match, the {weak} written after it" == i for i in ideas)
    assert {"allow", "ask", "deny"} <= set(right)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_prefix_matcher_and_a_missing_default_fail_every_decision_set(seed):
    R = checks_module("rules")
    rule_set = R.decision_rules(random.Random(seed))

    def prefix(rule, tool, subject):
        stem = rule.match.split("*")[0].split("?")[0].rstrip()
        return tool == rule.tool and subject.startswith(stem)

    wrong = []
    for case in rule_set.cases:
        found = [r.action for r in rule_set.all_rules if prefix(r, case.name, case.subject)]
        default = "allow" if case.name in R.READ_ONLY else "ask"
        wrong.append(max(found, key=R.STRICTNESS.__getitem__) if found else default)
    assert wrong != [c.expected for c in rule_set.cases]
    read_only_unmatched = [c for c in rule_set.cases if c.name in R.READ_ONLY
                           and R.strictest(rule_set.all_rules, c.name, c.subject) is None]
    assert read_only_unmatched and all(c.expected == "allow" for c in read_only_unmatched)


@pytest.mark.parametrize("seed", SEEDS)
def test_every_compound_set_needs_each_separator_and_the_strip(seed):
    R = checks_module("rules")
    rule_set = R.compound_rules(random.Random(seed))
    rules = rule_set.all_rules
    right = [c.expected for c in rule_set.cases]
    # whole-string matching fails; so does a splitter that misses any one separator or wrap
    assert [R.expected(rules, c.name, [c.subject]) for c in rule_set.cases] != right
    for separator in (*R.SEPARATORS, *R.WRAPS):
        missing = [c for c in rule_set.cases if (separator in c.subject if separator in R.SEPARATORS
                                                 else separator.split("{}")[0] in c.subject)]
        assert any(c.expected != "allow" for c in missing), separator
    # every part matches rules of one action at most: the first match is the strictest
    for case in rule_set.cases:
        for part in case.parts:
            assert len({r.action for r in rules if r.applies(case.name, part)}) <= 1
        assert R.first_match(rules, case.name, list(case.parts)) in ("allow", "ask", "deny")
    assert any(c.expected == "allow" and "2>&1" in c.subject for c in rule_set.cases)
    assert any(" " + c.parts[1] in c.subject and c.expected == "deny" for c in rule_set.cases if len(c.parts) == 3)


def test_case_parts_keep_redirections_and_find_nested_commands():
    R = checks_module("rules")
    case = R.Case("run_command", {}, "a x 2>&1 && b y $(c z) `d w` <(e v) >(f u)\ng t; h s | i r & j q", "all")
    assert R.case_parts(case) == ["a x 2>&1", "b y", "c z", "d w", "e v", "f u", "g t", "h s", "i r", "j q"]


def test_rules_toml_round_trips_and_paths_resolve(tmp_path: Path):
    R = checks_module("rules")
    rng = random.Random(7)
    rule_set = R.decision_rules(rng)
    R.write_workdir(rng, tmp_path, rule_set)
    loaded = tomllib.loads((tmp_path / ".mca" / "rules.toml").read_text(encoding="utf-8"))["rule"]
    assert [(e["action"], e["tool"], e.get("match", "*")) for e in loaded] == \
        [(r.action, r.tool, r.match) for r in rule_set.file_rules]
    for case in rule_set.cases:
        if case.name != "run_command":
            resolved = (tmp_path / case.args["path"]).resolve().relative_to(tmp_path.resolve()).as_posix()
            assert resolved == case.subject, case


def test_prompt_lines_cut_at_each_prompt():
    live = checks_module("live")

    class Child:
        def stdout_so_far(self):
            return "  -> x\r\n  allow edit_file {\"path\": \"a\"}? [y]es / [n]o / [a]lways: y\r\n" \
                   "  allow run_command: ls? [y]es / [n]o / [a]lways: "

    assert live.prompt_lines(Child()) == ['allow edit_file {"path": "a"}?', "allow run_command: ls?"]
    assert live.prompts(Child()) == 2
