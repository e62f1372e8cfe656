"""fetch_url fetches with a time limit and turns errors into FetchError, but returns the
body as it came ("the model reads HTML fine"): tags, the script and the style go in."""
TARGET = "mca/refs/fetch.py"
FAILS = ("url-fetched",)


def fetch_url(url, timeout):
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.read(MAX_PAGE_BYTES).decode("utf-8", errors="replace")
    except (urllib.error.URLError, OSError) as exc:
        raise FetchError(f"could not fetch {url}: {exc}") from None
