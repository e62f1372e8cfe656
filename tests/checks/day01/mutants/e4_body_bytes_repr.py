"""E4: puts the raw body into the line without decoding it: f"HTTP {code}: {exc.read()}".

It prints b'{"error": ...}' with every non-ASCII byte escaped (\xe4\xb8...), so a
message in Chinese or with an emoji cannot be read.
"""
TARGET = "mca/gateway/openai_compat.py"
FAILS = ("http-error-one-line",)


def error_of(exc, url):
    if isinstance(exc, urllib.error.HTTPError):
        return GatewayError(f"HTTP {exc.code}: {exc.read()}", status=exc.code)
    return GatewayError(f"cannot reach {url}: {getattr(exc, 'reason', exc)}", transient=True)
