"""E1: the cap counts tool calls, not model rounds (a limit in the wrong unit): with one call
a round it stops where it should, but a model asking for several calls a round is cut off
after fewer rounds than MAX_ROUNDS."""
TARGET = "mca/agent/loop.py"
FAILS = ("round-cap",)


def rounds(history, gateway, tools, emit, max_rounds):
    calls_run = 0
    while True:
        try:
            reply = collect(gateway.stream(list(history), tools.schemas()), history, emit)
        except GatewayError as exc:
            emit(ErrorOccurred(f"model request failed: {exc}", "gateway"))
            return ""
        if not reply.calls:
            return reply.text
        for call in reply.calls:
            run_call(call, tools, history, emit)
            calls_run += 1
        if calls_run >= max_rounds:
            break
    emit(ErrorOccurred(f"stopped after {max_rounds} model rounds without a final answer", "loop"))
    return ""
