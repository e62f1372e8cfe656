"""E1: runs every call, but "tidies" them first: sorted by tool name, so the listings come
before the reads. Each call still gets its own result, only the tool messages no longer
follow the order the model asked in."""
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
        for call in sorted(reply.calls, key=lambda c: c.name):
            run_call(call, tools, history, emit)
    emit(ErrorOccurred(f"stopped after {max_rounds} model rounds without a final answer", "loop"))
    return ""
