# [day 1]
"""mca - "my coding agent", as it stands at the end of day 1.

* ``gateway`` - talks to a model (a deterministic mock, or a real API);
* ``chat``    - the conversation: the history that is sent with every request;
* ``cli``, ``repl`` - the command line and the ``you >`` prompt.
"""

__version__ = "0.1.0"
# [or day 2]
"""mca - "my coding agent", as it stands at the end of day 2.

Layers, each relying only on the ones before it:

* ``gateway`` - talks to a model (a deterministic mock, or a real API) and streams;
* ``agent``   - one reply: collect the stream into events and a message;
* ``screen``  - shows the events as they arrive;
* ``cli``, ``repl`` - the command line and the prompt that tie them together.
"""

__version__ = "0.2.0"
# [or day 3]
"""mca - "my coding agent", as it stands at the end of day 3.

Layers, each relying only on the ones before it:

* ``gateway`` - talks to a model (a deterministic mock, or a real API) and streams;
* ``agent``   - one turn: stream, run the tools the model asks for, feed the results back;
* ``tools``   - what the model may read in the workdir, with every result honest about its size;
* ``screen``, ``cli``, ``repl`` - what the user sees and types.
"""

__version__ = "0.3.0"
# [or day 4]
"""mca - "my coding agent", as it stands at the end of day 4.

Layers, each relying only on the ones before it:

* ``gateway`` - talks to a model (a deterministic mock, or a real API) and streams;
* ``agent``   - one turn: stream, run the tools the model asks for, feed the results back;
* ``tools``   - what the model may do in the workdir: read, write, edit, run commands;
* ``screen``, ``cli``, ``repl`` - what the user sees and types.
"""

__version__ = "0.4.0"
# [or day 5]
"""mca - "my coding agent", as it stands at the end of day 5.

Layers, each relying only on the ones before it:

* ``gateway`` - talks to a model (a deterministic mock, or a real API) and streams;
* ``agent``   - one turn: stream, run the tools the model asks for, feed the results back;
* ``tools``   - what the model may do in the workdir, and the approval gate in front of it;
* ``screen``, ``cli``, ``repl`` - what the user sees and types.
"""

__version__ = "0.5.0"
# [or day 6]
"""mca - "my coding agent", as it stands at the end of day 6.

Layers, each relying only on the ones before it:

* ``gateway`` - talks to a model (a deterministic mock, or a real API) and streams;
* ``agent``   - one turn: stream, run tools, feed results and errors back, retry, cap, cancel;
* ``tools``   - what the model may do in the workdir, and the approval gate in front of it;
* ``screen``, ``cli``, ``repl`` - what the user sees and types.
"""

__version__ = "0.6.0"
# [or day 7]
"""mca - "my coding agent", as it stands at the end of day 7.

Layers, each relying only on the ones before it:

* ``gateway`` - talks to a model (a deterministic mock, or a real API) and streams;
* ``agent``   - one turn: stream, run tools, feed results and errors back, retry, cap, cancel;
* ``tools``   - what the model may do in the workdir, and the approval gate in front of it;
* ``session`` - the append-only event log: record, replay, resume, fork;
* ``screen``, ``cli``, ``repl`` - what the user sees and types.
"""

__version__ = "0.7.0"
# [or day 8]
"""mca - "my coding agent", as it stands at the end of day 8.

Layers, each relying only on the ones before it:

* ``gateway`` - talks to a model (a deterministic mock, or a real API) and streams;
* ``agent``   - one turn: stream, run tools, feed results and errors back, retry, cap, cancel;
* ``tools``   - what the model may do in the workdir, and the approval gate in front of it;
* ``session`` - the append-only event log: record, replay, resume, fork;
* ``refs``    - @-references: files, directories, pages and images put into a message, with a bill;
* ``screen``, ``cli``, ``repl`` - what the user sees and types.
"""

__version__ = "0.8.0"
# [or day 9]
"""mca - "my coding agent", as it stands at the end of day 9.

Layers, each relying only on the ones before it:

* ``gateway`` - talks to a model (a deterministic mock, or a real API) and streams;
* ``agent``   - one turn: stream, run tools, feed results and errors back, retry, cap, cancel;
* ``tools``   - what the model may do in the workdir, and the approval gate in front of it;
* ``session`` - the append-only event log: record, replay, resume, fork;
* ``refs``    - @-references: files, directories, pages and images put into a message, with a bill;
* ``instructions`` - the project's AGENTS.md files, merged at session start and frozen in it;
* ``screen``, ``cli``, ``repl`` - what the user sees and types.
"""

__version__ = "0.9.0"
# [or day 10]
"""mca - "my coding agent", as it stands at the end of day 10.

Layers, each relying only on the ones before it:

* ``gateway`` - talks to a model (a deterministic mock, or a real API) and streams;
* ``agent``   - one turn: stream, run tools, feed results and errors back, retry, cap, cancel;
* ``tools``   - what the model may do in the workdir, and the approval gate in front of it;
* ``session`` - the append-only event log: record, replay, resume, fork;
* ``refs``    - @-references: files, directories, pages and images put into a message, with a bill;
* ``instructions`` - the project's AGENTS.md files, merged at session start and frozen in it;
* ``memory``  - notes kept across sessions: an append-only store, the remember tool, recall with a bill;
* ``screen``, ``cli``, ``repl`` - what the user sees and types.
"""

__version__ = "0.10.0"
# [or day 11]
"""mca - "my coding agent", as it stands at the end of day 11.

Layers, each relying only on the ones before it:

* ``gateway`` - talks to a model (a deterministic mock, or a real API) and streams;
* ``agent``   - one turn: stream, run tools, feed results and errors back, retry, cap, cancel;
* ``tools``   - what the model may do in the workdir, and the approval gate in front of it;
* ``session`` - the append-only event log: record, replay, resume, fork;
* ``refs``    - @-references: files, directories, pages and images put into a message, with a bill;
* ``instructions`` - the project's AGENTS.md files, merged at session start and frozen in it;
* ``memory``  - notes kept across sessions: an append-only store, the remember tool, recall with a bill;
* ``plan``    - the model's todo list: one item in progress, forward only, shown, logged, a reminder when stale;
* ``screen``, ``cli``, ``repl`` - what the user sees and types.
"""

__version__ = "0.11.0"
# [or day 12]
"""mca - "my coding agent", as it stands at the end of day 12.

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
* ``screen``, ``cli``, ``repl`` - what the user sees and types.
"""

__version__ = "0.12.0"
# [or day 13]
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
# [or day 14+]
"""mca - "my coding agent", as it stands at the end of day 14.

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
* ``snapshots`` - every write tool's file kept before it changes; /rollback SEQ and /undo put files back;
* ``screen``, ``cli``, ``repl`` - what the user sees and types.
"""

__version__ = "0.14.0"
# [/day]
