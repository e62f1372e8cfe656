"""`grader watch DAY`: re-grade on every save, only the checks the saved files touch.

    plan.py     which checks a changed file re-runs (course.toml's exercise points)
    sources.py  the events: saved files (watchfiles) and keys, or a scripted list in tests
    loop.py     the loop: first run, partial runs, kept results, progress and hints
    view.py     the compact view, redrawn in place on a terminal, plain blocks elsewhere
"""
