"""Renderers of one DayResult: terminal text, JSON, JUnit XML, Gradescope, GitHub Actions.

Each renderer reads the result model only; none of them runs anything.
"""
