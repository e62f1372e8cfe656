"""E4: puts the server's message into the line as it is, only stripped at both ends.

Right for a one-line message; a provider's message that runs over several lines
(a stack of reasons, a hint on a line of its own, a tab-indented detail) breaks the
"one line" into several.
"""
TARGET = "mca/gateway/openai_compat.py"
FAILS = ("http-error-one-line",)


def error_of(exc, url):
    if isinstance(exc, urllib.error.HTTPError):
        detail = exc.read().decode("utf-8", errors="replace")
        try:
            detail = json.loads(detail)["error"]["message"]
        except (ValueError, KeyError, TypeError):
            pass
        detail = str(detail).strip()[:300] or exc.reason
        return GatewayError(f"HTTP {exc.code}: {detail}", status=exc.code)
    reason = getattr(exc, "reason", exc)
    return GatewayError(f"cannot reach {url}: {reason}", transient=True)
