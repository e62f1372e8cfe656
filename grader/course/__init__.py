"""The course model: `course.toml` read and validated into `Course`, `Day`, `Exercise`,
`Check`, `Agent` (model.py), by the manifest reader (manifest.py, loaded only when a
course is read)."""

from __future__ import annotations

from pathlib import Path

from grader.course.model import (MANIFEST_NAME, STUDENT_EDITION, Agent, Check, Course, CourseError, Day, Exercise,
                                 day_number, find_course)

__all__ = ["MANIFEST_NAME", "STUDENT_EDITION", "Agent", "Check", "Course", "CourseError", "Day", "Exercise",
           "day_number", "find_course", "load_course", "load_default_course"]


def load_course(path: Path | str) -> Course:
    """Read and validate the manifest at `path` (see grader/course/manifest.py)."""
    from grader.course.manifest import read_manifest
    return read_manifest(Path(path))


def load_default_course(start: Path | str | None = None) -> Course:
    """The course `grader` would use from here: find_course, then load_course."""
    return load_course(find_course(start))
