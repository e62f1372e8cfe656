"""E4: HTTP errors are right, but a failed connection says only why, not where:
"cannot connect: [Errno 111] Connection refused".

With a typo in MCA_BASE_URL the person cannot tell which address was tried.
"""
TARGET = "mca/gateway/openai_compat.py"
FAILS = ("server-unreachable",)


def error_of(exc, url):
    if isinstance(exc, urllib.error.HTTPError):
        detail = exc.read().decode("utf-8", errors="replace")
        try:
            detail = json.loads(detail)["error"]["message"]
        except (ValueError, KeyError, TypeError):
            pass
        return GatewayError(f"HTTP {exc.code}: {' '.join(str(detail).split())}", status=exc.code)
    return GatewayError(f"cannot connect: {getattr(exc, 'reason', exc)}", transient=True)
