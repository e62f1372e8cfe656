"""`python -m grader.scaffold [--check] [--force] [DAY]`: render the days from the one source."""

from grader.scaffold import main

raise SystemExit(main())
