"""E1: runs every call and loops, but hands the results back as one user message
("here is what the tools said") instead of one tool message per call."""
TARGET = "mca/agent/loop.py"
FAILS = ("answers-from-file", "every-call-answered", "round-cap")


def rounds(history, gateway, tools, emit, max_rounds):
    for _ in range(max_rounds):
        try:
            reply = collect(gateway.stream(list(history), tools.schemas()), history, emit)
        except GatewayError as exc:
            emit(ErrorOccurred(f"model request failed: {exc}", "gateway"))
            return ""
        if not reply.calls:
            return reply.text
        outputs = []
        for call in reply.calls:
            result = tools.run(call.name, call.args)
            outputs.append(f"{call.name}: {result.content}")
        add_message(history, {"role": "user", "content": "\n\n".join(outputs)}, emit)
    emit(ErrorOccurred(f"stopped after {max_rounds} model rounds without a final answer", "loop"))
    return ""
