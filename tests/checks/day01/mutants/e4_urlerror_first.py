"""E4: tests for URLError before HTTPError.

HTTPError is a subclass of URLError, so every answer with an error status is taken
for "cannot reach the server": the status and the server's message are lost.
"""
TARGET = "mca/gateway/openai_compat.py"
FAILS = ("http-error-one-line",)


def error_of(exc, url):
    if isinstance(exc, urllib.error.URLError):
        return GatewayError(f"cannot reach {url}: {exc.reason}", transient=True)
    if isinstance(exc, urllib.error.HTTPError):
        message = json.loads(exc.read())["error"]["message"]
        return GatewayError(f"HTTP {exc.code}: {message}", status=exc.code)
    return GatewayError(f"cannot reach {url}: {exc}", transient=True)
