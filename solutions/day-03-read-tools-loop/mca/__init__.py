"""mca - "my coding agent", as it stands at the end of day 3.

Layers, each relying only on the ones before it:

* ``gateway`` - talks to a model (a deterministic mock, or a real API) and streams;
* ``agent``   - one turn: stream, run the tools the model asks for, feed the results back;
* ``tools``   - what the model may read in the workdir, with every result honest about its size;
* ``screen``, ``cli``, ``repl`` - what the user sees and types.
"""

__version__ = "0.3.0"
