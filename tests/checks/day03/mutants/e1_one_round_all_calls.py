"""E1: runs every call of the reply, then returns its text: the results are in the
history, but the model is never asked again to read them."""
TARGET = "mca/agent/loop.py"
FAILS = ("answers-from-file", "every-call-answered", "round-cap")


def rounds(history, gateway, tools, emit, max_rounds):
    for _ in range(max_rounds):
        try:
            reply = collect(gateway.stream(list(history), tools.schemas()), history, emit)
        except GatewayError as exc:
            emit(ErrorOccurred(f"model request failed: {exc}", "gateway"))
            return ""
        for call in reply.calls:
            run_call(call, tools, history, emit)
        return reply.text
    emit(ErrorOccurred(f"stopped after {max_rounds} model rounds without a final answer", "loop"))
    return ""
