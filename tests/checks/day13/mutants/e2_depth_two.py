"""A depth counter instead of taking task away: the runner refuses a side task only at depth 2,
and child_tools keeps task for the subagent, so a subagent can start one subagent of its own."""
TARGET = "mca/agent/subagent.py"
FAILS = ("no-recursion",)


class Subagents:
    def run(self, args, call_id):
        depth = getattr(self, "depth", 0)
        if self.chat is None or self.chat.log is None:
            raise ToolError("a side task runs only inside a session's turn")
        if depth >= 2:  # the user's agent, then one level of subagents, then no more
            raise ToolError("side tasks nest at most 2 deep")
        self.depth = depth + 1
        try:
            return run_subagent(self.chat, call_id, args)
        finally:
            self.depth = depth


def child_tools(tools, approver):
    kept = [tools.get(name) for name in tools.names()
            if name != TODO_TOOL and (tools.get(name).read_only or approver.allows(name))]
    return ToolRegistry(kept, tools.max_chars)
