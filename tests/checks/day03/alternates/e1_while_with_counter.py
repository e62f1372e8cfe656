"""E1 written as "answer first, then work": return when there is nothing to run,
otherwise run the calls by index; the provided for loop does the counting."""
TARGET = "mca/agent/loop.py"
FAILS = ()


def rounds(history, gateway, tools, emit, max_rounds):
    for _ in range(max_rounds):
        try:
            reply = collect(gateway.stream(list(history), tools.schemas()), history, emit)
        except GatewayError as exc:
            emit(ErrorOccurred(f"model request failed: {exc}", "gateway"))
            return ""
        index = 0
        while index < len(reply.calls):
            run_call(reply.calls[index], tools, history, emit)
            index += 1
        if index == 0:
            return reply.text
    emit(ErrorOccurred(f"stopped after {max_rounds} model rounds without a final answer", "loop"))
    return ""
