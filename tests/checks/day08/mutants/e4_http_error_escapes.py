"""fetch_url has its time limit and turns a timeout into a FetchError, but nothing else:
a 404 leaves urlopen as an HTTPError, out of inject, and the turn ends with a traceback."""
TARGET = "mca/refs/fetch.py"
FAILS = ("url-fetched",)

import socket


def fetch_url(url, timeout):
    try:
        response = urllib.request.urlopen(url, timeout=timeout)
    except socket.timeout:
        raise FetchError(f"{url} did not answer within {timeout} s") from None
    with response:
        return page_text(response.read().decode("utf-8", errors="replace"),
                         response.headers.get("Content-Type") or "")
