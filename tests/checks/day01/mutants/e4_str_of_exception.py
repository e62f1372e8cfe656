"""E4: error_of turns any failure into GatewayError(str(exc)).

One line, no traceback - but urllib's own wording: "HTTP Error 401: Unauthorized"
without the server's message, and "<urlopen error [Errno 111] Connection refused>"
without the URL that was tried.
"""
TARGET = "mca/gateway/openai_compat.py"
FAILS = ("http-error-one-line", "server-unreachable")


def error_of(exc, url):
    return GatewayError(str(exc))
