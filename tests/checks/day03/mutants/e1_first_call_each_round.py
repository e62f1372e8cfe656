"""E1: loops until the model stops asking, but runs only the first call of each reply
("one thing at a time"). A single-call conversation works; the second call of a reply
never gets a result, and the next request is a chain a real API refuses."""
TARGET = "mca/agent/loop.py"
FAILS = ("every-call-answered", "round-cap")


def rounds(history, gateway, tools, emit, max_rounds):
    for _ in range(max_rounds):
        try:
            reply = collect(gateway.stream(list(history), tools.schemas()), history, emit)
        except GatewayError as exc:
            emit(ErrorOccurred(f"model request failed: {exc}", "gateway"))
            return ""
        if not reply.calls:
            return reply.text
        run_call(reply.calls[0], tools, history, emit)
    emit(ErrorOccurred(f"stopped after {max_rounds} model rounds without a final answer", "loop"))
    return ""
