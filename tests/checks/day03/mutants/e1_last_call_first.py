"""E1: pops the calls off the end of the list (a stack), so the last call runs first."""
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
        pending = list(reply.calls)
        while pending:
            run_call(pending.pop(), tools, history, emit)
    emit(ErrorOccurred(f"stopped after {max_rounds} model rounds without a final answer", "loop"))
    return ""
