"""agent-lab grader: runs each day's checks against a student's lab and reports.

The CLI lives in `grader.cli`; the pieces it composes are small modules:
`course` (the manifest), `engine` + `plugin` (pytest in process), `spawn`
(children), `results` (the one result model), `report` (renderers), `state`
(hint levels and last results).
"""

__version__ = "0.1.0"
