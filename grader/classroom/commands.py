"""`grader grade` and `grader gradebook merge|report`: grading a class (docs/grading-a-class.md).

Exit codes: 0 the batch ran and its gradebook was written, whatever the scores (a
submission that could not be graded is a row that says why); 2 bad arguments (an
unknown day or check, a path that does not exist, a bad --shard, an output directory
that is not a gradebook, gradebooks that do not belong together), with a message that
names the fix; 3 `--ci` and the grader's files differ from the shipped ones (before the
batch, or after it: then nothing is written); 130 interrupted (every grading process
stopped, nothing written).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from grader.classroom import gradebook as books
from grader.classroom.batch import CANNOT_START, DEFAULT_TIMEOUT, GRADED, Interrupted, Row, Settings, default_jobs, run_batch
from grader.classroom.report import render_html
from grader.classroom.submissions import SubmissionError, find_submissions, parse_shard, shard
from grader.commands import common
from grader.engine import EngineError, check_selection, new_seed
from grader.i18n import display_width, help_word, word

gradebook_app = typer.Typer(
    no_args_is_help=True, add_completion=False,
    help=help_word("help.gradebook_group"))


def _plural(key: str, count: int, **fields) -> str:
    return word(f"{key}_{'one' if count == 1 else 'many'}", count=count, **fields)


class Progress:
    """A counter line rewritten in place on a terminal (rows that were not graded stay above
    it); one plain line per submission otherwise (CI logs, pipes)."""

    def __init__(self, total: int):
        self.total = total
        self.terminal = common.is_terminal()
        self.width = max(shutil.get_terminal_size().columns, 20)
        self.counter_shown = False

    def line(self, row: Row, done: int) -> str:
        head = f"[{done:>{len(str(self.total))}}/{self.total}] {row.name}: "
        if row.outcome == GRADED and row.result:
            result = row.result
            text = word("grade.row_graded", passed=result["passed"], total=result["total"],
                        bonus_passed=result["bonus_passed"], bonus_total=result["bonus_total"],
                        seconds=f"{row.wall:.1f}")
            return head + text + (f" - {row.note}" if row.note else "")
        return head + row.note

    def __call__(self, row: Row, done: int) -> None:
        text = self.line(row, done)
        if not self.terminal:
            typer.echo(text)
            return
        out = sys.stdout
        if row.outcome != GRADED or row.note:
            out.write("\r\033[K" + text + "\n")
        counter = text
        while display_width(counter) > self.width - 1:
            counter = counter[:-1]
        out.write("\r\033[K" + counter)
        out.flush()
        self.counter_shown = True

    def finish(self) -> None:
        if self.terminal and self.counter_shown:
            sys.stdout.write("\n")
            sys.stdout.flush()


def grade(
    day: Annotated[str, typer.Argument(metavar="DAY", help=common.DAY_HELP)],
    submissions: Annotated[list[Path], typer.Argument(
        metavar="SUBMISSION", help=help_word("help.grade_submission"))],
    output: Annotated[Optional[Path], typer.Option(
        "--output", "-o", metavar="DIR", help=help_word("help.grade_output"))] = None,
    jobs: Annotated[Optional[int], typer.Option(
        "--jobs", "-j", metavar="N", help=help_word("help.grade_jobs"))] = None,
    timeout: Annotated[float, typer.Option(
        metavar="SECONDS", help=help_word("help.grade_timeout"))] = DEFAULT_TIMEOUT,
    seed: Annotated[Optional[int], typer.Option(
        metavar="N", help=help_word("help.grade_seed"))] = None,
    shard_spec: Annotated[Optional[str], typer.Option(
        "--shard", metavar="K/N", help=help_word("help.grade_shard"))] = None,
    only: Annotated[Optional[list[str]], typer.Option(
        metavar="CHECK", help=help_word("help.grade_only"))] = None,
    ci: Annotated[bool, typer.Option("--ci", help=help_word("help.grade_ci"))] = False,
    force: Annotated[bool, typer.Option("--force", help=help_word("help.grade_force"))] = False,
    sandbox: Annotated[bool, typer.Option("--sandbox", help=help_word("help.grade_sandbox"))] = False,
) -> None:
    """Grade many submissions of one day, in parallel, into a gradebook (CSV, JSONL and an HTML class report).

    Each submission is graded in a process of its own, as `grader check DAY --lab SUB` grades it. Exit 0 when the batch ran, whatever the scores.
    """  # noqa: E501
    course = common.load()
    the_day = common.find_day(course, day)
    if not the_day.checks_module.is_file():
        raise common.fail(word("grade.no_checks", day=the_day.id, module=the_day.checks_module))
    if jobs is not None and jobs < 1:
        raise common.fail(word("grade.bad_jobs", jobs=jobs))
    if not 0 < timeout < 10**9:  # nan and inf too
        raise common.fail(word("grade.bad_timeout", timeout=timeout))
    try:
        selected = check_selection(the_day, only)
        which = parse_shard(shard_spec)
        found = find_submissions(submissions, course.agent.package, _in_clone(course, the_day))
    except (EngineError, SubmissionError) as exc:
        raise common.fail(str(exc)) from None
    mine = shard(found, which)
    out = output if output is not None else Path(f"gradebook-{the_day.id}")
    try:
        out = books.prepare_output(out, force=force)
    except books.GradebookError as exc:
        raise common.fail(str(exc)) from None
    if any(out.resolve() == s.path for s in found):
        raise common.fail(word("gradebook.is_submission", path=out))
    if ci:
        common.refuse_if_tampered(course)
    if sandbox:
        from grader.spawn import sandbox as sandboxing
        way = sandboxing.find()
        if not way.available:
            raise common.fail(word("sandbox.unavailable", why=way.reason))
    from grader import integrity
    guarded = integrity.current(course.root)

    batch_seed = seed if seed is not None else new_seed()
    settings = Settings(course=course, day=the_day, batch_seed=batch_seed, jobs=jobs or default_jobs(),
                        timeout=timeout, only=tuple(c.id for c in the_day.all_checks if selected and c.id in selected),
                        env=dict(os.environ), sandbox=sandbox)
    if which is not None:
        typer.echo(word("grade.shard", shard=f"{which[0]}/{which[1]}", here=len(mine), all=len(found)))
    typer.echo(_plural("grade.start", len(mine), day=the_day.id, jobs=settings.jobs, timeout=f"{timeout:g}",
                       seed=batch_seed))
    progress = Progress(len(mine))
    started = time.perf_counter()
    try:
        with _terminate_as_interrupt():
            rows = run_batch(settings, mine, on_row=progress)
    except Interrupted as exc:
        progress.finish()
        raise common.fail(word("grade.interrupted", done=len(exc.rows), total=len(mine), out=out),
                            common.EXIT_INTERRUPTED) from None
    progress.finish()
    common.report_changes_during_run(course, guarded, ci)

    checks = [c.id for c in the_day.all_checks if not selected or c.id in selected]
    meta = books.new_meta(course=course.name, day=the_day.id, checks=checks, only=list(settings.only) or None,
                          batch_seed=batch_seed, shards=[f"{which[0]}/{which[1]}" if which else "1/1"],
                          jobs=settings.jobs, timeout=timeout, sandbox=sandbox)
    book = books.Gradebook(meta, rows)
    try:
        written = books.write(out, book)
        report = _write_report(out, book, course)
    except OSError as exc:
        raise common.fail(word("cli.os_error", file=exc.filename or out, why=exc.strerror)) from None
    graded = sum(1 for r in rows if r.outcome == GRADED)
    cannot = sum(1 for r in rows if r.outcome == CANNOT_START)
    typer.echo(_plural("grade.done", len(rows), day=the_day.id, seconds=f"{time.perf_counter() - started:.1f}",
                       graded=graded, cannot_start=cannot, others=len(rows) - graded - cannot))
    typer.echo(word("grade.written", csv=written[books.CSV_NAME], results=written[books.RESULTS], report=report))
    raise typer.Exit(common.EXIT_OK)


@contextlib.contextmanager
def _terminate_as_interrupt():
    """SIGTERM (a CI job cancelled, `kill`) stops the batch as Ctrl-C does: every grading process
    is stopped with what it started, rather than left running without its batch."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(number, frame):
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def _in_clone(course, day) -> Path | None:
    """Where the day's lab sits in a clone of the kit (labs/<slug>), if it sits in the kit."""
    try:
        return Path(day.lab).resolve().relative_to(Path(course.root).resolve())
    except ValueError:
        return None


def _write_report(directory: Path, book: books.Gradebook, course) -> Path:
    path = Path(directory) / books.REPORT
    books.replace_text(path, render_html(book, course))
    return path


@gradebook_app.command("merge", help=help_word("help.merge"))
def merge(
    out: Annotated[Path, typer.Argument(metavar="OUT", help=help_word("help.merge_out"))],
    inputs: Annotated[list[Path], typer.Argument(metavar="IN", help=help_word("help.merge_in"))],
    force: Annotated[bool, typer.Option("--force", help=help_word("help.merge_force"))] = False,
) -> None:
    """Join the gradebooks of a batch's shards into one (refuses different days, checks or overlapping names)."""
    course = common.load()
    try:
        loaded = [(path, books.read(path)) for path in inputs]
        if any(Path(out).expanduser().resolve() == Path(path).expanduser().resolve() for path in inputs):
            raise books.GradebookError(word("gradebook.merge_into_input", path=out))
        merged, warnings = books.merge(loaded)
        target = books.prepare_output(out, force=force)
    except books.GradebookError as exc:
        raise common.fail(str(exc)) from None
    for warning in warnings:
        typer.echo(word("cli.prefix", message=warning), err=True)
    try:
        books.write(target, merged)
        report = _write_report(target, merged, course) if _known_day(course, merged.day) else None
    except OSError as exc:
        raise common.fail(word("cli.os_error", file=exc.filename or target, why=exc.strerror)) from None
    typer.echo(word("gradebook.merged", inputs=len(loaded), rows=len(merged.rows), out=target))
    if report is not None:
        typer.echo(word("gradebook.report_written", path=report))


def _known_day(course, day_id: str) -> bool:
    return any(d.id == day_id for d in course.days)


@gradebook_app.command("report", help=help_word("help.report"))
def report(
    directory: Annotated[Path, typer.Argument(metavar="DIR", help=help_word("help.report_dir"))],
    output: Annotated[Optional[Path], typer.Option(
        "--output", "-o", metavar="FILE", help=help_word("help.report_output"))] = None,
) -> None:
    """Write the class report of a gradebook: one self-contained HTML file (heatmap, pass rates, what to teach
    again)."""
    course = common.load()
    try:
        book = books.read(directory)
    except books.GradebookError as exc:
        raise common.fail(str(exc)) from None
    if not _known_day(course, book.day):
        raise common.fail(word("gradebook.unknown_day", day=book.day, path=directory))
    target = output if output is not None else Path(directory) / books.REPORT
    try:
        books.replace_text(Path(target), render_html(book, course))
    except OSError as exc:
        raise common.fail(word("cli.os_error", file=exc.filename or target, why=exc.strerror)) from None
    typer.echo(word("gradebook.report_written", path=target))


def register(app: typer.Typer) -> None:
    """Add the class commands to the grader's CLI."""
    app.command("grade", help=help_word("help.grade"))(grade)
    app.add_typer(gradebook_app, name="gradebook")
