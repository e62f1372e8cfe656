"""The context: what is sent with every request, and how it is kept under a budget.

* ``compact`` - how big the history is (day 8's estimate), where it may be cut without
  splitting a round (``choose_cut``), and the summary that replaces what is older
  (``compact``).
"""
