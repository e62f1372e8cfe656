"""E4: names the status with HTTPError.reason ("Unauthorized") instead of reading the body.

The status is there, the server's own explanation (which key, which quota, which
model) is not.
"""
TARGET = "mca/gateway/openai_compat.py"
FAILS = ("http-error-one-line",)


def error_of(exc, url):
    if isinstance(exc, urllib.error.HTTPError):
        return GatewayError(f"HTTP {exc.code}: {exc.reason}", status=exc.code)
    return GatewayError(f"cannot reach {url}: {getattr(exc, 'reason', exc)}", transient=True)
