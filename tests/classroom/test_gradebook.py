"""The gradebook's files, merging shards, and the class report, on gradebooks made up here
(no grading runs): the numbers are known, so the report's counting can be checked exactly."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest

from grader import i18n
from grader.classroom import gradebook as books
from grader.classroom.batch import Row
from grader.classroom.report import render_html
from grader.classroom.summary import summarise
from grader.course import load_course
from tests.classroom.conftest import KIT, csv_rows, invoke, jsonl_rows

COURSE = load_course(KIT / "course.toml")
DAY = COURSE.find_day("day-01")
ALL = [c.id for c in DAY.all_checks]
EVIL = '<img src=x onerror="alert(1)"> & </td></table><script>alert(2)</script>'


def result(failing: dict[str, str] = {}, blocked: str | None = None, seed: int = 1, only=None) -> dict:
    """A DayResult.to_dict() of day-01: `failing` maps check ids to their failure message."""
    def one(check):
        if blocked:
            return {"id": check.id, "status": "skipped", "message": "not run: the lab could not start",
                    "exercises": list(check.exercises), "bonus": check.bonus}
        status = "failed" if check.id in failing else "passed"
        return {"id": check.id, "status": status, "message": failing.get(check.id, ""),
                "exercises": list(check.exercises), "bonus": check.bonus}
    wanted = [c for c in DAY.all_checks if only is None or c.id in only]
    core = [one(c) for c in wanted if not c.bonus]
    bonus = [one(c) for c in wanted if c.bonus]
    return {"day_id": "day-01", "title": DAY.title, "lab": "/x", "checks": core, "bonus": bonus,
            "environment": {}, "duration": 1.0, "run_root": None, "seed": seed, "blocked": blocked,
            "passed": sum(c["status"] == "passed" for c in core), "total": len(core),
            "bonus_passed": sum(c["status"] == "passed" for c in bonus), "bonus_total": len(bonus)}


def graded(name: str, failing: dict[str, str] = {}, blocked: str | None = None) -> Row:
    """A graded row, or with `blocked` a lab that could not start, as batch.py writes it."""
    outcome = "cannot-start" if blocked else "graded"
    return Row(name, f"/class/{name}", 7, outcome, blocked or "", 1.5, 100.0, result(failing, blocked))


def book(rows: list[Row], *, day: str = "day-01", checks=None, shards=("1/1",), seed=5) -> books.Gradebook:
    meta = books.new_meta(course="agent-lab", day=day, checks=checks or ALL, only=None, batch_seed=seed,
                          shards=list(shards))
    return books.Gradebook(meta, rows)


def a_class() -> list[Row]:
    """Four labs that start, one that cannot, three rows that were not graded."""
    return [
        graded("ann"),
        graded("bo", {"history-carried": "expected 3 messages, got 1", "remembers-a-name": "forgot",
                      "history-grows-linearly": "grew"}),
        graded("cy", {"history-carried": "expected 5 messages, got 2", "request-shape": "stub"}),
        graded(EVIL, {"request-shape": EVIL}),
        graded("dee", blocked="the lab could not start: importing mca failed"),
        Row("eve", "/class/eve", 8, "not-a-lab", "not a lab: the directory is empty"),
        Row("fay", "/class/fay", 9, "timed-out", "timed out: the grading took more than 600 s", 600.0, 50.0),
        Row("gus", "/class/gus", 10, "crashed", "crashed: the grading process was killed by SIGKILL", 3.0, 60.0),
    ]


# --------------------------------------------------------------------------- files

def test_the_csv_has_the_documented_columns_and_a_row_each(tmp_path):
    books.write(tmp_path, book(a_class()))
    header = (tmp_path / "gradebook.csv").read_text(encoding="utf-8").splitlines()[0].split(",")
    assert header == [*books.LEAD_COLUMNS, *ALL, *books.TAIL_COLUMNS]
    rows = csv_rows(tmp_path)
    assert list(rows) == sorted(r.name for r in a_class())  # sorted by name
    assert (rows["bo"]["core_passed"], rows["bo"]["core_total"], rows["bo"]["bonus_passed"]) == ("8", "10", "1")
    assert rows["bo"]["history-carried"] == "failed" and rows["bo"]["one-shot"] == "passed"
    # a lab that could not start: its outcome and its cause, no score and no check column
    assert rows["dee"]["outcome"] == "cannot-start" and rows["dee"]["note"] == "the lab could not start: importing mca failed"
    assert rows["dee"]["core_passed"] == "" and rows["dee"]["one-shot"] == ""
    assert rows["fay"]["outcome"] == "timed-out" and rows["fay"]["core_passed"] == "" and rows["fay"]["one-shot"] == ""
    assert rows["fay"]["wall_seconds"] == "600.000" and rows["fay"]["seed"] == "9"
    assert rows["gus"]["note"].startswith("crashed: ")


def test_a_cell_never_starts_a_formula_nor_breaks_a_line(tmp_path):
    rows = [Row("=HYPERLINK(\"http://x\")", "/c/a", 1, "not-a-lab", "line one\nline two"),
            Row("-2+3", "/c/b", 2, "not-a-lab", "@SUM(A1)")]
    books.write(tmp_path, book(rows))
    table = csv_rows(tmp_path)
    assert "'=HYPERLINK(\"http://x\")" in table and "'-2+3" in table
    assert table["'-2+3"]["note"] == "'@SUM(A1)"
    assert table["'=HYPERLINK(\"http://x\")"]["note"] == "line one line two"
    assert jsonl_rows(tmp_path)["-2+3"]["note"] == "@SUM(A1)"  # the record keeps the text as it was


def test_a_lab_that_could_not_start_reads_back_as_one_whatever_wrote_it(tmp_path):
    """A gradebook written before `cannot-start` existed ("graded", every check skipped, the
    cause in `blocked` on several lines) reads back under the same rule: its own outcome, one line."""
    old = graded("dee", blocked="the lab could not start:\n  SyntaxError at mca/chat.py line 37")
    old.outcome = "graded"
    books.write(tmp_path, book([graded("ann"), old]))
    again = {r.name: r for r in books.read(tmp_path).rows}
    assert again["dee"].outcome == "cannot-start"
    assert again["dee"].note == "the lab could not start: SyntaxError at mca/chat.py line 37"
    s = summarise(books.read(tmp_path), DAY)
    assert (s.graded, s.cannot_start, s.mean) == (1, 1, 10)


def test_what_is_written_reads_back_the_same(tmp_path):
    written = book(a_class())
    books.write(tmp_path, written)
    again = books.read(tmp_path)
    assert [r.to_dict() for r in again.rows] == [r.to_dict() for r in sorted(written.rows, key=lambda r: r.name)]
    assert again.meta["day"] == "day-01" and again.meta["submissions"] == 8 and again.checks == ALL


@pytest.mark.parametrize("damage, says", [
    (lambda d: (d / "batch.json").unlink(), "batch.json is missing"),
    (lambda d: (d / "results.jsonl").unlink(), "results.jsonl is missing"),
    (lambda d: (d / "batch.json").write_text("{not json"), "is not a gradebook"),
    (lambda d: (d / "batch.json").write_text('{"schema": "other"}'), "schema agent-lab/gradebook"),
    (lambda d: (d / "results.jsonl").write_text('{"name": "x"}\n'), "results.jsonl line 1"),
])
def test_a_damaged_gradebook_is_refused_in_one_line(tmp_path, damage, says):
    books.write(tmp_path / "gb", book(a_class()))
    damage(tmp_path / "gb")
    done = invoke("--course", KIT, "gradebook", "report", tmp_path / "gb")
    assert done.exit_code == 2
    assert says in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stderr


# --------------------------------------------------------------------------- merging

def _shards(tmp_path: Path) -> tuple[Path, Path]:
    rows = sorted(a_class(), key=lambda r: r.name)
    one, two = tmp_path / "s1", tmp_path / "s2"
    books.write(one, book(rows[0::2], shards=("1/2",)))
    books.write(two, book(rows[1::2], shards=("2/2",)))
    return one, two


def test_merged_shards_are_the_whole_gradebook(tmp_path):
    one, two = _shards(tmp_path)
    books.write(tmp_path / "whole", book(a_class()))
    done = invoke("--course", KIT, "gradebook", "merge", tmp_path / "merged", one, two)
    assert done.exit_code == 0, done.stderr
    assert "merged 2 gradebooks, 8 submissions" in done.stdout and done.stderr == ""
    merged, whole = tmp_path / "merged", tmp_path / "whole"
    assert (merged / "gradebook.csv").read_bytes() == (whole / "gradebook.csv").read_bytes()
    assert (merged / "results.jsonl").read_bytes() == (whole / "results.jsonl").read_bytes()
    meta = json.loads((merged / "batch.json").read_text())
    assert meta["shards"] == ["1/2", "2/2"] and meta["batch_seed"] == 5 and meta["merged_from"] == [str(one), str(two)]
    assert (merged / "report.html").is_file()


def test_a_missing_shard_is_warned_about(tmp_path):
    one, _ = _shards(tmp_path)
    done = invoke("--course", KIT, "gradebook", "merge", tmp_path / "merged", one)
    assert done.exit_code == 0
    assert "shard(s) 2/2 of 2 are not in this merge" in done.stderr


def _refused(done, says: str) -> None:
    assert done.exit_code == 2, done.stdout + done.stderr
    assert says in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_merge_refuses_shards_that_do_not_belong_together(tmp_path):
    one, two = _shards(tmp_path)
    other_day = tmp_path / "day2"
    day2 = [c.id for c in COURSE.find_day("day-02").all_checks]
    books.write(other_day, book([graded("zed")], day="day-02", checks=day2))
    _refused(invoke("--course", KIT, "gradebook", "merge", tmp_path / "m1", one, other_day),
             "grades day-01 and")
    fewer = tmp_path / "fewer"
    books.write(fewer, book([graded("zed")], checks=ALL[:3]))
    _refused(invoke("--course", KIT, "gradebook", "merge", tmp_path / "m2", one, fewer), "ran different checks")
    _refused(invoke("--course", KIT, "gradebook", "merge", tmp_path / "m3", one, two, one),
             "appear in more than one input")
    _refused(invoke("--course", KIT, "gradebook", "merge", one, one, two), "is one of the inputs")
    _refused(invoke("--course", KIT, "gradebook", "merge", tmp_path / "m4", one, tmp_path / "nowhere"),
             "is not a gradebook")
    assert not any((tmp_path / name).exists() for name in ("m1", "m2", "m3", "m4"))


def test_merge_replaces_a_gradebook_only_when_told(tmp_path):
    one, two = _shards(tmp_path)
    books.write(tmp_path / "out", book([graded("old")]))
    _refused(invoke("--course", KIT, "gradebook", "merge", tmp_path / "out", one, two), "--force")
    assert list(jsonl_rows(tmp_path / "out")) == ["old"]
    assert invoke("--course", KIT, "gradebook", "merge", "--force", tmp_path / "out", one, two).exit_code == 0
    assert len(jsonl_rows(tmp_path / "out")) == 8
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("an instructor's file")
    _refused(invoke("--course", KIT, "gradebook", "merge", "--force", tmp_path / "mine", one, two),
             "holds no gradebook")
    assert (tmp_path / "mine" / "notes.txt").read_text() == "an instructor's file"


# --------------------------------------------------------------------------- the report: counting

def test_the_report_counts_the_class():
    s = summarise(book(a_class()), DAY)
    assert (s.graded, s.cannot_start, s.all_passed) == (4, 1, 1)
    assert s.outcomes == {"graded": 4, "cannot-start": 1, "not-a-lab": 1, "timed-out": 1, "crashed": 1}
    # one rule: the lab that could not start is in no number about checks or points
    assert s.mean == pytest.approx((10 + 8 + 8 + 9) / 4)
    assert s.distribution[10] == 1 and s.distribution[9] == 1 and s.distribution[8] == 2 and s.distribution[0] == 0
    checks = {c.id: c for c in s.checks}
    carried = checks["history-carried"]
    assert (carried.passed, carried.ran, carried.failing, carried.skipped) == (2, 4, 2, 0)
    # "expected 3 ..., got 1" and "expected 5 ..., got 2" are one message: numbers aside
    assert carried.common == "expected 3 messages, got 1" and carried.common_count == 2
    assert checks["request-shape"].failing == 2 and checks["request-shape"].common_count == 1
    assert checks["one-shot"].common is None and checks["one-shot"].passed == 4
    assert [c.label for c in s.checks][-2:] == ["*1", "*2"] and checks["one-shot"].label == "1"
    points = {p.id: p for p in s.points}
    assert (points["E1"].blocked, points["E3"].blocked, points["E2"].blocked) == (2, 2, 0)
    # cy fails one check of E1 and one of E3: her report names the first in the manifest, E1
    assert points["E1"].next_for == 2 and points["E3"].next_for == 1
    assert points["E1"].checks == ("history-carried", "remembers-a-name")
    assert s.top_point.id == "E1"  # E1 and E3 block two students each; E1 is named next more often


def test_the_point_that_blocks_most_wins():
    rows = [graded(n, {"request-shape": "stub"}) for n in ("a", "b", "c")] + [graded("d", {"repl-edges": "x"})]
    assert summarise(book(rows), DAY).top_point.id == "E3"
    assert summarise(book([graded("a")]), DAY).top_point is None


def test_a_gradebook_of_some_checks_counts_only_those():
    only = ["one-shot", "request-shape"]
    rows = [Row("a", "/a", 1, "graded", "", 1.0, 1.0, result({"request-shape": "stub"}, only=only))]
    s = summarise(book(rows, checks=only), DAY)
    assert [c.id for c in s.checks] == only
    assert {p.id: p.checks for p in s.points}["E3"] == ("request-shape",)


# --------------------------------------------------------------------------- the report: the page

class Page(HTMLParser):
    """What a structural test needs of the report: tags, the heatmap's rows and cells, text."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attrs: list[dict] = []
        self.heat_rows: list[list[tuple[str, str]]] = []  # per row: (class, text) of each td
        self._in_heat = self._in_body = False
        self._cell: list | None = None
        self.text: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append(tag)
        self.attrs.append(attrs)
        if tag == "table" and "heat" in (attrs.get("class") or ""):
            self._in_heat = True
        if self._in_heat and tag == "tbody":
            self._in_body = True
        if self._in_body and tag == "tr":
            self.heat_rows.append([])
        if self._in_body and tag == "td":
            self._cell = [attrs.get("class") or "", ""]

    def handle_endtag(self, tag):
        if tag == "td" and self._cell is not None:
            self.heat_rows[-1].append(tuple(self._cell))
            self._cell = None
        if tag == "table":
            self._in_heat = self._in_body = False

    def handle_data(self, data):
        self.text.append(data)
        if self._cell is not None:
            self._cell[1] += data


def test_the_page_is_self_contained_and_escapes_everything():
    page_text = render_html(book(a_class()), COURSE)
    page = Page(page_text)
    assert page.tags[0] == "html" and "style" in page.tags
    assert not {"script", "link", "img", "iframe", "object"} & set(page.tags)
    assert not any(key.startswith("on") or key == "src" for attrs in page.attrs for key in attrs)
    assert "http://" not in page_text and "https://" not in page_text
    assert EVIL in "".join(page.text)  # shown as text, whole


def test_the_heatmap_has_a_row_per_submission_and_a_cell_per_check():
    page = Page(render_html(book(a_class()), COURSE))
    assert [row[0][1] for row in page.heat_rows] == sorted(r.name for r in a_class())
    by_name = {row[0][1]: row for row in page.heat_rows}
    cells = by_name["bo"][2:-1]
    assert len(cells) == len(ALL)
    assert [c[0].split()[1] for c in cells] == ["failed" if cid in ("history-carried", "remembers-a-name",
                                                                     "history-grows-linearly") else "passed"
                                                 for cid in ALL]
    assert by_name["bo"][1][1] == "8/10 +1"
    assert by_name["dee"][1:] == [("score", "–"), ("problem", "the lab could not start: importing mca failed")]
    assert by_name["fay"][2] == ("problem", "timed out: the grading took more than 600 s")
    assert by_name["eve"][2][1] == "not a lab: the directory is empty"


def test_the_page_says_what_to_teach_again():
    text = " ".join(Page(render_html(book(a_class()), COURSE)).text)
    assert "E1 in mca/chat.py blocks 2 of 4 students" in text
    assert "expected 3 messages, got 1" in text and "(2 students)" in text
    assert "1 lab could not start: no check ran, so it is left out of every number on this page" in text


def test_the_page_speaks_chinese_too():
    i18n.set_language("zh")
    try:
        page = render_html(book(a_class()), COURSE)
    finally:
        i18n.set_language(None)
    assert '<html lang="zh-CN">' in page and "需要再讲一遍的内容" in page
    assert "卡住了 4 名学生中的 2 名" in page


def test_the_report_command_writes_the_page(tmp_path):
    books.write(tmp_path / "gb", book(a_class()))
    done = invoke("--course", KIT, "gradebook", "report", tmp_path / "gb", "-o", tmp_path / "class.html")
    assert done.exit_code == 0, done.stderr
    assert "Submissions × checks" in (tmp_path / "class.html").read_text(encoding="utf-8")
    assert done.stdout.strip() == f"report: {tmp_path / 'class.html'}"
