"""What `grader verify` found: one row per fact (`VerifyReport`), printed as a table whose
frame speaks the chosen language and whose detail column wraps to the terminal."""

from __future__ import annotations

from dataclasses import dataclass, field

from grader.verify.static import VerifyRow


@dataclass
class VerifyReport:
    rows: list[VerifyRow] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.rows) and all(row.ok for row in self.rows)

    @property
    def failures(self) -> list[VerifyRow]:
        return [row for row in self.rows if not row.ok]


def render_table(report: VerifyReport, localised: bool = True, width: int | None = None) -> str:
    """A plain table, one row per fact, then one summary line, its frame in the chosen
    language (`localised` is kept for callers; the rows' own texts are English). With a
    `width` (a terminal's), the detail column is wrapped at spaces under itself, or, when
    that leaves it under 30 columns, on lines of its own below the row, indented."""
    from grader.i18n import display_width, pad, word
    from grader.report.text import wrap

    head = (word("verify.day"), word("verify.item"), word("verify.result"), word("verify.detail"))
    body = [(r.day, r.item, word("verify.ok") if r.ok else word("verify.fail"), r.detail) for r in report.rows]
    widths = [max(display_width(row[i]) for row in [head, *body]) for i in range(3)]
    lines = []
    for row in [head, *body]:
        lead = "  ".join(pad(cell, w) for cell, w in zip(row[:3], widths)) + "  "
        if width is None or display_width(lead + row[3]) <= width:
            lines.append(lead + row[3])
        elif width - display_width(lead) >= 30:
            lines += wrap(row[3], width, lead, " " * display_width(lead))
        else:
            lines.append(lead.rstrip())
            lines += wrap(row[3], width, "    ", "    ")
    held = sum(r.ok for r in report.rows)
    summary = (word("verify.all_hold", held=held) if report.ok
               else word("verify.some_hold", held=held, total=len(report.rows), failed=len(report.failures)))
    return "\n".join(line.rstrip() for line in lines) + "\n" + summary + "\n"
