"""A correct E4 written differently: parse_reply walks the body with .get() and falls back
to an empty reply; error_of raises the GatewayError itself (the caller's `raise` is
never reached, the effect is the same) and keeps the raw text when the body is not JSON.
"""
TARGET = "mca/gateway/openai_compat.py"
FAILS = ()


def parse_reply(body):
    try:
        data = json.loads(body.decode("utf-8"))
    except ValueError:
        raise GatewayError("the server did not answer with JSON") from None
    choices = data.get("choices") if isinstance(data, dict) else None
    if not choices:
        raise GatewayError("the server's answer has no choices")
    message = choices[0].get("message") or {}
    return message.get("content") or ""


def error_of(exc, url):
    if isinstance(exc, urllib.error.HTTPError):
        raw = exc.read().decode("utf-8", "replace")
        try:
            said = json.loads(raw).get("error", {}).get("message") or raw
        except (ValueError, AttributeError):
            said = raw
        raise GatewayError(f"the server answered {exc.code} ({' '.join(said.split())})", status=exc.code)
    raise GatewayError(f"no answer from {url} ({getattr(exc, 'reason', exc)})", transient=True)
