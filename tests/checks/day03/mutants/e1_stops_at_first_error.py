"""E1: runs the calls of a reply in order, but stops at the first `error:` result ("the calls
after it were planned on it"): the later calls of that reply get no tool message, and the
next request is a chain a real API refuses."""
TARGET = "mca/agent/loop.py"
FAILS = ("every-call-answered",)


def rounds(history, gateway, tools, emit, max_rounds):
    for _ in range(max_rounds):
        try:
            reply = collect(gateway.stream(list(history), tools.schemas()), history, emit)
        except GatewayError as exc:
            emit(ErrorOccurred(f"model request failed: {exc}", "gateway"))
            return ""
        if not reply.calls:
            return reply.text
        for call in reply.calls:
            run_call(call, tools, history, emit)
            if str(history[-1].get("content", "")).startswith("error:"):
                break
    emit(ErrorOccurred(f"stopped after {max_rounds} model rounds without a final answer", "loop"))
    return ""
