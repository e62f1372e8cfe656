"""mca - "my coding agent", as it stands at the end of day 7.

Layers, each relying only on the ones before it:

* ``gateway``  - talks to a model (a deterministic mock, or a real API) and streams;
* ``agent``    - one turn: stream, run tools, feed results back, retry, cap the rounds;
* ``tools``    - what the model may do in the workdir, and the approval gate;
* ``session``  - the append-only event log: record, replay, resume, fork;
* ``cli``      - the command line and the REPL that tie them together.
"""

__version__ = "0.7.0"
