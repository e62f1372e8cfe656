"""E1: answers every call, but when any result of the round is an `error:` it ends the turn
with the reply's text ("no point letting the model flail"): the model never reads the
error it could have corrected."""
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
        for call in reply.calls:
            run_call(call, tools, history, emit)
        results = history[-len(reply.calls):]
        if any(str(m.get("content", "")).startswith("error:") for m in results):
            return reply.text
    emit(ErrorOccurred(f"stopped after {max_rounds} model rounds without a final answer", "loop"))
    return ""
