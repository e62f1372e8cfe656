"""``@url``: fetch a page with a time limit and keep its text.

A page is fetched with the same HTTP client the gateway uses (the standard library's
urllib), and, like every request the agent makes, with a time limit: a server that
accepts the connection and never answers must not hang the user's message. An HTML
page is reduced to its text (no tags, no scripts or styles, entities decoded); other
text is kept as it is.
"""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from html.parser import HTMLParser

FETCH_TIMEOUT = 5.0      # seconds for one page, connecting and reading
MAX_PAGE_BYTES = 2 * 1024 * 1024  # read no more than this of a page
BLOCKS = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "section", "article",
          "header", "footer", "table", "ul", "ol", "blockquote", "title"}
HIDDEN = {"script", "style", "noscript", "template"}


class FetchError(Exception):
    """The page could not be had: the message says why, in one line."""


def fetch_url(url: str, timeout: float) -> str:
    """The text of the page at ``url``, fetched within ``timeout`` seconds."""
    request = urllib.request.Request(url, headers={"User-Agent": "mca", "Accept": "text/html, text/plain, */*"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            body = response.read(MAX_PAGE_BYTES)
            content_type = response.headers.get("Content-Type") or ""
            charset = response.headers.get_content_charset() or "utf-8"
    except urllib.error.HTTPError as http_error:  # the server answered, with an error status
        raise FetchError(f"HTTP {http_error.code} from {url}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:  # refused, timed out, unknown host, bad URL
        reason = getattr(exc, "reason", exc)
        raise FetchError(f"could not fetch {url}: {reason}") from None
    return page_text(body.decode(charset, errors="replace"), content_type)


def page_text(body: str, content_type: str) -> str:
    """An HTML page reduced to its text; any other text as it is."""
    if "html" not in content_type.lower() and not body.lstrip()[:15].lower().startswith(("<!doctype html", "<html")):
        return body
    parser = _TextOf()
    parser.feed(body)
    parser.close()
    lines = (re.sub(r"[ \t\r\f\v]+", " ", line).strip() for line in "".join(parser.parts).split("\n"))
    return "\n".join(line for line in lines if line) + "\n"


class _TextOf(HTMLParser):
    """Collects the text of a page, a new line at each block, nothing of scripts and styles."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in HIDDEN:
            self.hidden += 1
        elif tag in BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in HIDDEN:
            self.hidden = max(0, self.hidden - 1)
        elif tag in BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data.replace("\n", " "))


