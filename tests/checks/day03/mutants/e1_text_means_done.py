"""E1: a reply with text is taken as the answer ("the model said something, we are
done"), even when it also asks for tools: the calls are left without results."""
TARGET = "mca/agent/loop.py"
FAILS = ("answers-from-file", "every-call-answered", "round-cap")


def rounds(history, gateway, tools, emit, max_rounds):
    for _ in range(max_rounds):
        try:
            reply = collect(gateway.stream(list(history), tools.schemas()), history, emit)
        except GatewayError as exc:
            emit(ErrorOccurred(f"model request failed: {exc}", "gateway"))
            return ""
        if reply.text.strip() or not reply.calls:
            return reply.text
        for call in reply.calls:
            run_call(call, tools, history, emit)
    emit(ErrorOccurred(f"stopped after {max_rounds} model rounds without a final answer", "loop"))
    return ""
