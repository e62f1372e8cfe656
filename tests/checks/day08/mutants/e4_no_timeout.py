"""fetch_url does everything right except the time limit (`urlopen(request)`): a server
that accepts the connection and never answers holds the message forever."""
TARGET = "mca/refs/fetch.py"
FAILS = ("url-fetched",)


def fetch_url(url, timeout):
    request = urllib.request.Request(url, headers={"User-Agent": "mca"})
    try:
        with urllib.request.urlopen(request) as response:
            body = response.read(MAX_PAGE_BYTES)
            content_type = response.headers.get("Content-Type") or ""
    except urllib.error.HTTPError as exc:
        raise FetchError(f"HTTP {exc.code} from {url}") from None
    except (urllib.error.URLError, OSError) as exc:
        raise FetchError(f"could not fetch {url}: {exc}") from None
    return page_text(body.decode("utf-8", errors="replace"), content_type)
