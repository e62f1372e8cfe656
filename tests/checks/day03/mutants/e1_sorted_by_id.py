"""E1: runs the calls sorted by their id "for a stable order". Every call is answered,
but not in the order the model asked: ids are not sequence numbers."""
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
        for call in sorted(reply.calls, key=lambda c: c.id):
            run_call(call, tools, history, emit)
    emit(ErrorOccurred(f"stopped after {max_rounds} model rounds without a final answer", "loop"))
    return ""
