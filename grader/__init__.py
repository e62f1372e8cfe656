"""agent-lab grader: runs each day's checks against a student's lab and reports.

`grader.cli` builds the CLI from the command modules in `grader.commands`; what they
compose lives in one folder per role: `course` (the manifest), `scaffold` (the one
source rendered per day), `engine` (pytest in process), `spawn` (children), `report`
(the result model and its renderers), `lab` (progress, hint levels, backups), `verify`,
`watch`, `classroom`, `release` (docs/architecture.md).
"""

__version__ = "0.1.0"
