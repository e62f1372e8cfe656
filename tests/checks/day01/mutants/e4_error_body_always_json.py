"""E4: takes every error body for JSON ("every provider answers errors in JSON").

The API does; the proxy or load balancer in front of it does not: a 502 or 503 comes
as an HTML page or a line of plain text, json.loads raises, and the person sees a
traceback instead of one line.
"""
TARGET = "mca/gateway/openai_compat.py"
FAILS = ("http-error-one-line",)


def error_of(exc, url):
    if isinstance(exc, urllib.error.HTTPError):
        detail = json.loads(exc.read())["error"]["message"]
        detail = " ".join(str(detail).split())[:300] or exc.reason
        return GatewayError(f"HTTP {exc.code}: {detail}", status=exc.code)
    reason = getattr(exc, "reason", exc)
    return GatewayError(f"cannot reach {url}: {reason}", transient=True)
