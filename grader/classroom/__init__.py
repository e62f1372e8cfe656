"""Grading a whole class: many submissions of one day, in parallel, into one gradebook.

* submissions.py - which directories are submissions, their names, shards and seeds;
* worker.py      - one submission's grading, in a child process of its own;
* reap.py        - stopping a grading process with every process it started;
* batch.py       - the batch: workers in parallel, a wall limit each, one row per submission;
* gradebook.py   - the gradebook directory (batch.json, gradebook.csv, results.jsonl), merging shards;
* report.py      - the class report: one self-contained HTML file;
* commands.py    - `grader grade` and `grader gradebook merge|report`.

docs/grading-a-class.md describes the commands and the files.
"""
