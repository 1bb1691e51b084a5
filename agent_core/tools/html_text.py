"""HTML to readable Markdown-ish text with the standard library's parser.

Keeps what a reader needs (title, headings, paragraphs, list items, links as
`text (url)`, code blocks) and drops scripts, styles and navigation.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import urljoin

_SKIP = {"script", "style", "noscript", "nav", "template", "svg", "iframe", "canvas", "select"}
_BLOCK = {
    "p",
    "div",
    "section",
    "article",
    "main",
    "header",
    "footer",
    "aside",
    "table",
    "tr",
    "blockquote",
    "figure",
    "figcaption",
    "form",
    "dl",
    "dt",
    "dd",
    "details",
    "summary",
    "address",
    "ul",
    "ol",
    "body",
}
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_SPACE = re.compile(r"[ \t\r\n\f\v]+")


class _Readable(HTMLParser):
    def __init__(self, base_url: str) -> None:
        super().__init__(convert_charrefs=True)
        self.base_url = base_url
        self.title = ""
        self.out: list[str] = []
        self._skip = 0
        self._in_title = False
        self._pre = 0
        self._lists: list[list[int]] = []  # per open list: [next number] or [] for bullets
        self._links: list[tuple[int, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP:
            self._skip += 1
            return
        if self._skip:
            return
        attr = dict(attrs)
        if tag == "title":
            self._in_title = True
        elif tag in _HEADINGS:
            self._block("#" * _HEADINGS[tag] + " ")
        elif tag in ("ul", "ol"):
            self._lists.append([1] if tag == "ol" else [])
            self._block()
        elif tag == "li":
            depth = max(len(self._lists) - 1, 0)
            counter = self._lists[-1] if self._lists else []
            bullet = f"{counter[0]}. " if counter else "- "
            if counter:
                counter[0] += 1
            self.out.append("\n" + "  " * depth + bullet)
        elif tag == "pre":
            self._pre += 1
            self._block("```\n")
        elif tag == "code" and not self._pre:
            self.out.append("`")
        elif tag in ("br",):
            self.out.append("\n")
        elif tag == "hr":
            self._block("---")
            self._block()
        elif tag in ("td", "th"):
            self.out.append("| " if self._last_char() in ("", "\n") else " | ")
        elif tag == "a":
            self._links.append((len(self.out), attr.get("href") or ""))
        elif tag == "img" and attr.get("alt"):
            self.out.append(f"[image: {attr['alt']}]")
        elif tag in _BLOCK:
            self._block()

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self._skip = max(self._skip - 1, 0)
            return
        if self._skip:
            return
        if tag == "title":
            self._in_title = False
        elif tag in _HEADINGS or tag in _BLOCK and tag not in ("ul", "ol"):
            self._block()
        elif tag in ("ul", "ol"):
            if self._lists:
                self._lists.pop()
            self._block()
        elif tag == "pre":
            self._pre = max(self._pre - 1, 0)
            self.out.append("\n```")
            self._block()
        elif tag == "code" and not self._pre:
            self.out.append("`")
        elif tag == "a" and self._links:
            self._close_link(*self._links.pop())

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        if self._in_title:
            self.title += _SPACE.sub(" ", data)
            return
        if self._pre:
            self.out.append(data)
            return
        text = _SPACE.sub(" ", data)
        if self._last_char() in ("", " ", "\n"):
            text = text.lstrip(" ")  # no double spaces, no space at a line start
        if text:
            self.out.append(text)

    def _last_char(self) -> str:
        for piece in reversed(self.out):
            if piece:
                return piece[-1]
        return ""

    def _block(self, prefix: str = "") -> None:
        self.out.append("\n\n" + prefix)

    def _close_link(self, start: int, href: str) -> None:
        text = _SPACE.sub(" ", "".join(self.out[start:])).strip()
        if not href or href.startswith(("#", "javascript:", "mailto:")):
            return
        url = urljoin(self.base_url, href)
        if not text:
            return
        if text != url:
            self.out[start:] = [f"{text} ({url})"]


def html_to_text(html: str, base_url: str = "") -> tuple[str, str]:
    """The page's (title, readable text)."""
    parser = _Readable(base_url)
    parser.feed(html)
    parser.close()
    text = "".join(parser.out)
    lines = [line.rstrip() for line in text.split("\n")]
    text = "\n".join(line if line.strip() else "" for line in lines)
    text = re.sub(r"\n{3,}", "\n\n", text).strip()
    return parser.title.strip(), text
