"""A correct E4 written differently: an opener without proxies, the status checked by
hand, and a charset taken from the Content-Type header with a fallback."""
TARGET = "mca/refs/fetch.py"
FAILS = ()

import socket


def fetch_url(url, timeout):
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        response = opener.open(url, timeout=timeout)
    except urllib.error.HTTPError as exc:
        raise FetchError(f"{url} answered {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, socket.timeout, ConnectionError) as exc:
        raise FetchError(f"{url} could not be fetched ({exc})") from None
    with response:
        try:
            raw = response.read(MAX_PAGE_BYTES)
        except (socket.timeout, OSError) as exc:
            raise FetchError(f"{url} stopped answering ({exc})") from None
        kind = response.headers.get("Content-Type", "")
        charset = response.headers.get_content_charset("utf-8")
    return page_text(raw.decode(charset, "replace"), kind)
