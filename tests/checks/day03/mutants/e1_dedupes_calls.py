"""E1: skips a call identical to one already run in the same reply ("no need to read
the same file twice"). The repeated call's id never gets a result."""
TARGET = "mca/agent/loop.py"
FAILS = ("every-call-answered",)

import json


def rounds(history, gateway, tools, emit, max_rounds):
    for _ in range(max_rounds):
        try:
            reply = collect(gateway.stream(list(history), tools.schemas()), history, emit)
        except GatewayError as exc:
            emit(ErrorOccurred(f"model request failed: {exc}", "gateway"))
            return ""
        if not reply.calls:
            return reply.text
        done = set()
        for call in reply.calls:
            key = (call.name, json.dumps(call.args, sort_keys=True))
            if key in done:
                continue
            done.add(key)
            run_call(call, tools, history, emit)
    emit(ErrorOccurred(f"stopped after {max_rounds} model rounds without a final answer", "loop"))
    return ""
