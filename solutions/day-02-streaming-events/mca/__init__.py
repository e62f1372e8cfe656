"""mca - "my coding agent", as it stands at the end of day 2.

Layers, each relying only on the ones before it:

* ``gateway`` - talks to a model (a deterministic mock, or a real API) and streams;
* ``agent``   - one reply: collect the stream into events and a message;
* ``screen``  - shows the events as they arrive;
* ``cli``, ``repl`` - the command line and the prompt that tie them together.
"""

__version__ = "0.2.0"
