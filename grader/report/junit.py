"""JUnit XML for CI: one testcase per check (bonus checks in their own classname).

failed and timeout -> <failure>, error -> <error>, skipped -> <skipped>.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from grader.i18n import word
from grader.report.results import CheckResult, DayResult, failure_lines


def _details(check: CheckResult) -> str:
    parts = [text if label == "message" else word(f"label.{label}") + text for label, text in failure_lines(check)]
    parts += [word("report.reproduce", command=line) for line in check.repro]
    return "\n".join(p for p in parts if p)


def to_element(result: DayResult) -> ET.Element:
    checks = result.all_results()
    suite = ET.Element("testsuite", {
        "name": result.day_id,
        "tests": str(len(checks)),
        "failures": str(sum(c.status in ("failed", "timeout") for c in checks)),
        "errors": str(sum(c.status == "error" for c in checks)),
        "skipped": str(sum(c.status == "skipped" for c in checks)),
        "time": f"{result.duration:.3f}",
    })
    for check in checks:
        case = ET.SubElement(suite, "testcase", {
            "classname": f"{result.day_id}.bonus" if check.bonus else result.day_id,
            "name": check.id,
            "time": f"{check.duration:.3f}",
        })
        if check.status in ("failed", "timeout"):
            ET.SubElement(case, "failure", {"message": check.message or check.status,
                                            "type": check.status}).text = _details(check)
        elif check.status == "error":
            ET.SubElement(case, "error", {"message": check.message, "type": "error"}).text = _details(check)
        elif check.status == "skipped":
            ET.SubElement(case, "skipped", {"message": check.message})
    return suite


def write_junit(result: DayResult, path: Path) -> None:
    suites = ET.Element("testsuites")
    suites.append(to_element(result))
    tree = ET.ElementTree(suites)
    ET.indent(tree)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    tree.write(path, encoding="utf-8", xml_declaration=True)
