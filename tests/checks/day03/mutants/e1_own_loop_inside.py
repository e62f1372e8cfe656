"""E1: writes a loop of its own inside the provided one ("keep going while the model
asks"), with its own limit: the provided cap now counts batches, not rounds."""
TARGET = "mca/agent/loop.py"
FAILS = ("round-cap",)


def rounds(history, gateway, tools, emit, max_rounds):
    for _ in range(max_rounds):
        try:
            reply = collect(gateway.stream(list(history), tools.schemas()), history, emit)
        except GatewayError as exc:
            emit(ErrorOccurred(f"model request failed: {exc}", "gateway"))
            return ""
        steps = 0
        while reply.calls and steps < MAX_ROUNDS:
            for call in reply.calls:
                run_call(call, tools, history, emit)
            steps += 1
            reply = collect(gateway.stream(list(history), tools.schemas()), history, emit)
        if not reply.calls:
            return reply.text
    emit(ErrorOccurred(f"stopped after {max_rounds} model rounds without a final answer", "loop"))
    return ""
