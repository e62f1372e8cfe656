"""E4: shows the server's error object pretty-printed, "so it is easy to read".

json.dumps(indent=2) spreads it over several lines: the message is there, but the
error is no longer one line.
"""
TARGET = "mca/gateway/openai_compat.py"
FAILS = ("http-error-one-line",)


def error_of(exc, url):
    if isinstance(exc, urllib.error.HTTPError):
        error = json.loads(exc.read())["error"]
        return GatewayError(f"HTTP {exc.code}:\n{json.dumps(error, indent=2, ensure_ascii=False)}", status=exc.code)
    return GatewayError(f"cannot reach {url}: {getattr(exc, 'reason', exc)}", transient=True)
