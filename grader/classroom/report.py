"""The class report: one self-contained HTML file an instructor reads to see what to teach again.

Read from a gradebook (gradebook.py) and the course (titles, exercise points). It holds:
the class at a glance, the exercise point that blocks most students, each check's pass
rate with its most common failure message, the score distribution, and the heatmap of
submissions x checks. Inline CSS, no script, no network: it reads the same opened from
a mail attachment. Every text that comes from a submission (names, messages, notes,
paths) is escaped; so is everything else, for good measure.

The counting is summary.py's; this module only lays its numbers out.
"""

from __future__ import annotations

import html

from grader.classroom.batch import GRADED, OUTCOMES
from grader.classroom.gradebook import Gradebook
from grader.classroom.summary import ClassSummary, summarise
from grader.course import Course
from grader.i18n import language, word

MARKS = {"passed": "✓", "failed": "✗", "error": "!", "timeout": "T", "skipped": "–"}
MESSAGE_CHARS = 280


# --------------------------------------------------------------------------- HTML

def _e(text) -> str:
    return html.escape(str(text), quote=True)


def _short(text: str, limit: int = MESSAGE_CHARS) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _plural(key: str, count: int, **fields) -> str:
    return word(f"{key}_{'one' if count == 1 else 'many'}", count=count, **fields)


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "–"


CSS = """
:root { --ink:#1f2933; --muted:#61707f; --line:#d9dee4; --bg:#f6f7f9; --card:#fff;
  --pass:#2f855a; --pass-bg:#d8f0df; --fail:#b42318; --fail-bg:#fbd9d5; --error-bg:#fde7c2; --error:#93510a;
  --timeout-bg:#e8dcf7; --timeout:#5b2a86; --skip-bg:#eceff2; --skip:#61707f; --accent:#2457a6; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK SC",
  "PingFang SC", "Microsoft YaHei", sans-serif; color: var(--ink); background: var(--bg); }
main { max-width: 1320px; margin: 0 auto; padding: 24px 28px 40px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 28px 0 10px; }
p { margin: 4px 0; }
.muted { color: var(--muted); }
code { font: 12.5px/1.3 ui-monospace, "SFMono-Regular", Menlo, Consolas, "Noto Sans Mono CJK SC",
  "Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei", monospace; }  /* CJK in messages: never boxes */
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin: 18px 0 6px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 10px 16px;
  min-width: 150px; }
.card b { display: block; font-size: 24px; line-height: 1.2; }
.card span { color: var(--muted); }
.teach { background: var(--card); border: 1px solid var(--line); border-left: 5px solid var(--fail);
  border-radius: 8px; padding: 12px 18px; }
.teach .big { font-size: 16px; }
table { border-collapse: collapse; background: var(--card); }
.list { width: 100%; border: 1px solid var(--line); border-radius: 8px; }
.list th, .list td { text-align: left; vertical-align: top; padding: 6px 10px; border-bottom: 1px solid var(--line); }
.list th { white-space: nowrap; font-weight: 600; color: var(--muted); font-size: 12.5px; background: #fafbfc; }
.list td.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
.bar { position: relative; width: 120px; height: 10px; background: var(--fail-bg); border-radius: 5px;
  display: inline-block; vertical-align: middle; margin-right: 6px; overflow: hidden; }
.bar i { position: absolute; left: 0; top: 0; bottom: 0; background: var(--pass); }
.msg { color: var(--fail); word-break: break-word; }
.dist td { padding: 2px 8px; }
.dist .fill { display: inline-block; height: 12px; background: var(--accent); border-radius: 2px;
  vertical-align: middle; }
.heat { border: 1px solid var(--line); }
.heat th, .heat td { border: 1px solid #fff; padding: 0; text-align: center; }
.heat thead th { font-size: 11.5px; color: var(--muted); padding: 4px 2px; min-width: 26px; background: #fafbfc; }
.heat td.name { text-align: left; padding: 3px 10px; white-space: nowrap; max-width: 260px; overflow: hidden;
  text-overflow: ellipsis; background: #fafbfc; }
.heat td.score { padding: 3px 8px; white-space: nowrap; font-variant-numeric: tabular-nums; background: #fafbfc; }
.heat td.cell { width: 26px; height: 24px; font-weight: 700; font-size: 13px; }
.heat td.note { text-align: left; padding: 3px 10px; color: var(--muted); font-size: 12.5px; }
.heat td.problem { text-align: left; padding: 3px 10px; background: #fff6e5; color: #7a4b00; }
.passed { background: var(--pass-bg); color: var(--pass); }
.failed { background: var(--fail-bg); color: var(--fail); }
.error { background: var(--error-bg); color: var(--error); }
.timeout { background: var(--timeout-bg); color: var(--timeout); }
.skipped { background: var(--skip-bg); color: var(--skip); }
.none { background: #fff; }
.sep { border-left: 3px solid var(--line) !important; }
.legend { margin: 8px 0; display: flex; flex-wrap: wrap; gap: 14px; color: var(--muted); }
.legend span b { display: inline-block; width: 20px; text-align: center; border-radius: 3px; margin-right: 4px; }
footer { margin-top: 30px; color: var(--muted); font-size: 12px; }
"""


def _cards(s: ClassSummary) -> str:
    total = len(s.book.rows)
    not_graded = total - s.graded - s.cannot_start
    mean = f"{s.mean:.1f} / {s.core_total}" if s.mean is not None else "–"
    cards = [(total, word("classreport.card_submissions")), (s.graded, word("classreport.card_graded")),
             (mean, word("classreport.card_mean")), (s.all_passed, word("classreport.card_all_passed")),
             (s.cannot_start, word("classreport.card_cannot_start")), (not_graded, word("classreport.card_not_graded"))]
    apart = f'<p class="muted">{_e(_plural("classreport.cannot_start", s.cannot_start))}</p>' if s.cannot_start else ""
    return '<div class="cards">' + "".join(f'<div class="card"><b>{_e(v)}</b><span>{_e(k)}</span></div>'
                                           for v, k in cards) + "</div>" + apart


def _teach(s: ClassSummary) -> str:
    top = s.top_point
    parts = [f'<h2 id="teach">{_e(word("classreport.teach_heading"))}</h2>']
    if top is None:
        parts.append(f'<div class="teach"><p>{_e(word("classreport.teach_none"))}</p></div>')
    else:
        lead = _plural("classreport.teach_lead", s.graded, point=top.id, file=top.file, blocked=top.blocked)
        checks = ", ".join(top.checks)
        parts.append(f'<div class="teach"><p class="big"><b>{_e(lead)}</b></p>'
                     f'<p>{_e(top.summary)}</p>'
                     f'<p class="muted">{_e(word("classreport.teach_checks", checks=checks, next=top.next_for))}</p>'
                     "</div>")
    head = "".join(f"<th>{_e(word(k))}</th>" for k in ("classreport.col_point", "classreport.col_file",
                                                        "classreport.col_blocked", "classreport.col_next",
                                                        "classreport.col_checks", "classreport.col_summary"))
    body = []
    for point in sorted(s.points, key=lambda p: (-p.blocked, -p.next_for)):
        body.append(f'<tr><td><b>{_e(point.id)}</b></td><td><code>{_e(point.file)}</code></td>'
                    f'<td class="num">{point.blocked} ({_percent(point.blocked, s.graded)})</td>'
                    f'<td class="num">{point.next_for}</td><td><code>{_e(", ".join(point.checks) or "–")}</code></td>'
                    f"<td>{_e(point.summary)}</td></tr>")
    parts.append(f'<table class="list"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>')
    return "".join(parts)


def _checks(s: ClassSummary) -> str:
    head = "".join(f"<th>{_e(word(k))}</th>" for k in ("classreport.col_number", "classreport.col_check",
                                                        "classreport.col_points", "classreport.col_rate",
                                                        "classreport.col_common"))
    body = []
    for check in s.checks:
        rate = check.rate
        width = f"{100 * rate:.0f}%" if rate is not None else "0%"
        bar = f'<span class="bar"><i style="width:{width}"></i></span>'
        counted = word("classreport.rate", passed=check.passed, ran=check.ran)
        if check.common:
            count = _plural("classreport.common_count", check.common_count)
            common = (f'<span class="msg" title="{_e(_short(check.common, 2000))}">{_e(_short(check.common))}</span>'
                      f' <span class="muted">{_e(count)}</span>')
        elif check.ran:
            common = f'<span class="muted">{_e(word("classreport.no_failures"))}</span>'
        else:
            common = '<span class="muted">–</span>'
        if check.skipped:
            common += f' <span class="muted">· {_e(word("classreport.skipped", count=check.skipped))}</span>'
        bonus = f' <span class="muted">{_e(word("classreport.bonus"))}</span>' if check.bonus else ""
        body.append(f'<tr><td class="num">{_e(check.label)}</td>'
                    f'<td><code>{_e(check.id)}</code>{bonus}<br><span class="muted">{_e(check.title)}</span></td>'
                    f'<td><code>{_e(", ".join(check.exercises) or "–")}</code></td>'
                    f'<td class="num">{bar}{_e(_percent(check.passed, check.ran))}<br>'
                    f'<span class="muted">{_e(counted)}</span></td><td>{common}</td></tr>')
    return (f'<h2 id="checks">{_e(word("classreport.checks_heading"))}</h2>'
            f'<table class="list"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>')


def _distribution(s: ClassSummary) -> str:
    if not s.graded:
        return ""
    most = max(s.distribution) or 1
    rows = "".join(f'<tr><td class="num">{k}/{s.core_total}</td><td><span class="fill" '
                   f'style="width:{max(2, round(300 * n / most)) if n else 0}px"></span> {n}</td></tr>'
                   for k, n in enumerate(s.distribution))
    return (f'<h2 id="scores">{_e(word("classreport.scores_heading"))}</h2>'
            f'<table class="dist">{rows}</table>')


def _heatmap(s: ClassSummary) -> str:
    checks = s.checks
    first_bonus = next((i for i, c in enumerate(checks) if c.bonus), None)

    def sep(index: int) -> str:
        return " sep" if index == first_bonus else ""

    head = (f'<th>{_e(word("classreport.col_submission"))}</th><th>{_e(word("classreport.col_score"))}</th>'
            + "".join(f'<th class="{sep(i).strip()}" title="{_e(c.id)}">{_e(c.label)}</th>'
                      for i, c in enumerate(checks))
            + f'<th>{_e(word("classreport.col_note"))}</th>')
    body = []
    for row in sorted(s.book.rows, key=lambda r: r.name):
        name = f'<td class="name" title="{_e(row.submission)}">{_e(row.name)}</td>'
        if row.outcome != GRADED or not row.result:
            # the note starts with what happened ("timed out: ..."); the outcome's name stands in for none
            text = row.note or (word(f"classreport.outcome_{row.outcome.replace('-', '_')}")
                                if row.outcome in OUTCOMES else row.outcome)
            body.append(f'<tr>{name}<td class="score">–</td><td class="problem" colspan="{len(checks) + 1}">'
                        f'{_e(_short(text))}</td></tr>')
            continue
        result = row.result
        found = {c["id"]: c for c in [*result.get("checks", []), *result.get("bonus", [])]}
        cells = []
        for i, check in enumerate(checks):
            one = found.get(check.id)
            if one is None:
                cells.append(f'<td class="cell none{sep(i)}"></td>')
                continue
            status = one["status"] if one["status"] in MARKS else "error"
            message = one.get("message") or ""
            tip = f"{check.id}: {status}" + (f" — {_short(message, 600)}" if message else "")
            cells.append(f'<td class="cell {status}{sep(i)}" title="{_e(tip)}">{MARKS[status]}</td>')
        score = f"{result.get('passed', 0)}/{result.get('total', 0)}"
        if result.get("bonus_total"):
            score += f" +{result.get('bonus_passed', 0)}"
        note = f'<td class="note">{_e(_short(row.note, 120))}</td>'
        body.append(f'<tr>{name}<td class="score">{_e(score)}</td>{"".join(cells)}{note}</tr>')
    legend = "".join(f'<span><b class="{status}">{mark}</b>{_e(status)}</span>' for status, mark in MARKS.items())
    keys = " · ".join(f"{c.label} {c.id}" for c in checks)
    return (f'<h2 id="heatmap">{_e(word("classreport.heatmap_heading"))}</h2>'
            f'<div class="legend">{legend}<span>{_e(word("classreport.score_key"))}</span></div>'
            f'<table class="heat"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'
            f'<p class="muted"><code>{_e(keys)}</code></p>')


def render_html(book: Gradebook, course: Course) -> str:
    day = course.find_day(book.day)
    s = summarise(book, day)
    meta = book.meta
    title = word("classreport.title", day=day.id)
    shards = ", ".join(meta.get("shards") or []) or "–"
    seed = meta.get("batch_seed")
    facts = word("classreport.facts", count=len(book.rows), created=meta.get("created", "?"),
                 seed=seed if seed is not None else "–", shards=shards)
    only = meta.get("only")
    only_line = f'<p class="muted">{_e(word("classreport.only", checks=", ".join(only)))}</p>' if only else ""
    return "".join([
        f'<!DOCTYPE html>\n<html lang="{_e("zh-CN" if language() == "zh" else "en")}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title><style>{CSS}</style></head><body><main>",
        f"<h1>{_e(title)}</h1><p>{_e(day.title)}</p><p class=\"muted\">{_e(course.title)} · {_e(facts)}</p>",
        only_line, _cards(s), _teach(s), _checks(s), _distribution(s), _heatmap(s),
        f'<footer>{_e(word("classreport.footer", version=meta.get("grader", "?")))}</footer>',
        "</main></body></html>\n",
    ])
