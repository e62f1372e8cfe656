"""mca - "my coding agent", as it stands at the end of day 13.

Layers, each relying only on the ones before it:

* ``gateway`` - talks to a model (a deterministic mock, or a real API) and streams;
* ``agent``   - one turn: stream, run tools, feed results and errors back, retry, cap, cancel;
* ``tools``   - what the model may do in the workdir, and the approval gate in front of it;
* ``session`` - the append-only event log: record, replay (compactions included), resume, fork;
* ``refs``    - @-references: files, directories, pages and images put into a message, with a bill;
* ``instructions`` - the project's AGENTS.md files, merged at session start and frozen in it;
* ``memory``  - notes kept across sessions: an append-only store, the remember tool, recall with a bill;
* ``plan``    - the model's todo list: one item in progress, forward only, shown, logged, a reminder when stale;
* ``context`` - the history's budget: older rounds summarised, never splitting a call from its result;
* ``agent.subagent`` - side tasks: a child agent with a fresh context, fewer tools and its own caps, one answer back;
* ``screen``, ``cli``, ``repl`` - what the user sees and types.
"""

__version__ = "0.13.0"
