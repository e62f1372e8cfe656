"""mca - "my coding agent", as it stands at the end of day 1.

* ``gateway`` - talks to a model (a deterministic mock, or a real API);
* ``chat``    - the conversation: the history that is sent with every request;
* ``cli``, ``repl`` - the command line and the ``you >`` prompt.
"""

__version__ = "0.1.0"
