# [day 2+]
"""The agent loop and the events it emits."""
# [/day]
