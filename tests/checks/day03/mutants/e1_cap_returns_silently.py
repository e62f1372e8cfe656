"""E1: counts the rounds itself and, at the cap, returns the last text without running
that reply's calls: no line says the turn was stopped, and the last calls stay
unanswered."""
TARGET = "mca/agent/loop.py"
FAILS = ("round-cap",)


def rounds(history, gateway, tools, emit, max_rounds):
    for number in range(max_rounds):
        try:
            reply = collect(gateway.stream(list(history), tools.schemas()), history, emit)
        except GatewayError as exc:
            emit(ErrorOccurred(f"model request failed: {exc}", "gateway"))
            return ""
        if not reply.calls or number == max_rounds - 1:
            return reply.text
        for call in reply.calls:
            run_call(call, tools, history, emit)
    emit(ErrorOccurred(f"stopped after {max_rounds} model rounds without a final answer", "loop"))
    return ""
