"""WebFetch: fetch an http(s) page and return its readable text with the model's question.

MewCode does not call a second model on the page: the result carries the
question and the page text, and the model answers from it. WebFetch changes
nothing here (it runs beside other read-only calls and is offered in plan
mode), but each host asks for approval unless a rule allows it: a fetch sends
data out. Redirects to another host are not followed, so `WebFetch(domain:...)`
rules keep meaning what they say; every connection goes through
``agent_core/net/checked_transport.py``, which refuses loopback, private and
metadata addresses unless a rule names the host.
"""

from __future__ import annotations

import asyncio
import codecs
import re
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar
from urllib.parse import urljoin

import msgspec

from agent_core.net.hosts import FetchTarget, UrlProblem, fetch_target
from agent_core.tools.base import PermissionKind, PlanMode, ToolContext, ToolError, ToolOutput
from agent_core.tools.html_text import html_to_text

TIMEOUT_S = 30.0
MAX_REDIRECTS = 5
MAX_DOWNLOAD_BYTES = 5 * 1024 * 1024
MAX_RESULT_CHARS = 100_000
USER_AGENT = "MewCode/0.1 (WebFetch; +https://github.com/mewcode)"

_HTML = {"text/html", "application/xhtml+xml"}
_TEXT_EXTRA = {
    "application/json",
    "application/xml",
    "application/javascript",
    "application/x-javascript",
    "application/ecmascript",
    "application/x-yaml",
    "application/yaml",
    "application/toml",
    "application/x-sh",
}
_META_CHARSET = re.compile(rb"""<meta[^>]+charset=["']?([A-Za-z0-9_.:-]+)""", re.IGNORECASE)


class WebFetchParams(msgspec.Struct, forbid_unknown_fields=True):
    url: Annotated[str, msgspec.Meta(description="The http or https URL to fetch")]
    prompt: Annotated[str, msgspec.Meta(description="What you want to learn from the page")]


@dataclass
class Page:
    """A fetched response body and what is known about it."""

    url: str
    content_type: str
    body: bytes
    truncated: bool


class WebFetchTool:
    """Fetch a web page as text (HTML converted to Markdown-ish text)."""

    name: ClassVar[str] = "WebFetch"
    description: ClassVar[str] = (
        "Fetches a URL and returns its content as readable text, together with your question,"
        " so you can answer it from the page.\n\n"
        "- The URL must be a fully formed http:// or https:// URL; other schemes (file:, data:,"
        " ftp:) are refused.\n"
        "- HTML is converted to Markdown-like text (headings, paragraphs, lists, links as"
        " `text (url)`); scripts, styles and navigation are dropped. Plain text and JSON are"
        " returned as is; binary content (images, PDFs, archives) is refused.\n"
        "- prompt says what you want to learn; answer it from the returned text.\n"
        "- Redirects on the same host are followed; a redirect to another host is reported"
        " with its URL so you can fetch that URL with a new call.\n"
        "- Large pages are truncated (about 100000 characters).\n"
        "- Each new host may need the user's approval. Local and private network addresses"
        " (localhost, 10.x, 192.168.x, cloud metadata) are refused unless the user allowed"
        " that host by name.\n"
        "- It changes nothing locally. Prefer a dedicated MCP tool if one exists for the site."
    )
    params: ClassVar[type[msgspec.Struct]] = WebFetchParams
    read_only: ClassVar[bool] = True
    permission_kind: ClassVar[PermissionKind] = "web"
    rule_field: ClassVar[str | None] = "url"
    plan_mode: ClassVar[PlanMode] = "offered"

    def summary(self, args: WebFetchParams) -> str:
        return args.url

    async def run(self, args: WebFetchParams, ctx: ToolContext) -> ToolOutput:
        access = ctx.state.web
        if not access.network:
            raise ToolError("WebFetch is off: sandbox.network is false in your settings")
        target = _checked_url(args.url)
        fetch = asyncio.create_task(_fetch(target, access.named_hosts()))
        cancelled = asyncio.create_task(ctx.cancel.wait())
        try:
            done, _ = await asyncio.wait({fetch, cancelled}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            cancelled.cancel()
            if not fetch.done():
                fetch.cancel()
        if fetch not in done:
            raise ToolError("fetch cancelled by the user")
        result = fetch.result()
        if isinstance(result, str):
            return ToolOutput(result)  # a redirect to another host
        return ToolOutput(_render(result, args.prompt))


def _checked_url(url: str) -> FetchTarget:
    try:
        return fetch_target(url)
    except UrlProblem as exc:
        raise ToolError(str(exc)) from None


def _same_place(target: FetchTarget, parsed: Any) -> bool:
    """Whether httpx reads the URL as going where the rules were matched (no parser gap)."""
    default = 443 if target.scheme == "https" else 80
    return (
        parsed.scheme == target.scheme
        and parsed.raw_host.decode("ascii") == target.host
        and (parsed.port or default) == (target.port or default)
    )


async def _fetch(target: FetchTarget, named_hosts: frozenset[str]) -> Page | str:
    """The final page, or a message when it redirects to another host."""
    import httpx2 as httpx

    from agent_core.net.checked_transport import AddressRefused, CheckedTransport

    headers = {
        "User-Agent": USER_AGENT,
        "Accept": "text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.5",
    }
    url = target.url
    try:
        async with httpx.AsyncClient(
            transport=CheckedTransport(named_hosts),
            timeout=TIMEOUT_S,
            follow_redirects=False,
            headers=headers,
            trust_env=False,  # no proxy, no .netrc: only connections the transport checked
        ) as client:
            for _hop in range(MAX_REDIRECTS + 1):
                url = target.url
                if not _same_place(target, httpx.URL(url)):
                    raise ToolError(f"invalid URL {url!r}: its host cannot be read exactly")
                async with client.stream("GET", url) as resp:
                    if resp.is_redirect and resp.headers.get("location"):
                        location = urljoin(url, resp.headers["location"])
                        hop = _checked_url(location)
                        if hop.host != target.host:
                            return (
                                f"{url} redirects to a different host: {location}\n"
                                "Call WebFetch again with that URL to fetch it."
                            )
                        target = hop
                        continue
                    if resp.status_code >= 400:
                        status = f"{resp.status_code} {resp.reason_phrase or ''}".strip()
                        raise ToolError(f"HTTP {status} fetching {url}")
                    body, truncated = await _read_capped(resp)
                    return Page(url, resp.headers.get("content-type", ""), body, truncated)
    except AddressRefused as exc:
        raise ToolError(f"refused to fetch {url}: {exc}") from None
    except httpx.TimeoutException:
        raise ToolError(f"timed out after {TIMEOUT_S:g} s fetching {url}") from None
    except (httpx.HTTPError, httpx.InvalidURL) as exc:
        raise ToolError(f"cannot fetch {url}: {exc or type(exc).__name__}") from None
    raise ToolError(f"too many redirects (more than {MAX_REDIRECTS}) fetching {url}")


async def _read_capped(resp: Any) -> tuple[bytes, bool]:
    chunks: list[bytes] = []
    size = 0
    async for chunk in resp.aiter_bytes():
        chunks.append(chunk)
        size += len(chunk)
        if size > MAX_DOWNLOAD_BYTES:
            return b"".join(chunks)[:MAX_DOWNLOAD_BYTES], True
    return b"".join(chunks), False


def _page_text(page: Page) -> tuple[str, str]:
    """(title, text) of a page; ToolError for binary content."""
    mime, _, params = page.content_type.partition(";")
    mime = mime.strip().lower()
    is_html = mime in _HTML or (not mime and b"<html" in page.body[:2048].lower())
    textual = (
        is_html
        or mime.startswith("text/")
        or mime in _TEXT_EXTRA
        or mime.endswith(("+json", "+xml"))
        or not mime
    )
    if not textual or b"\x00" in page.body[:8192]:
        kind = mime or "unknown"
        raise ToolError(f"{page.url} is binary content ({kind}): WebFetch returns text pages only")
    text = page.body.decode(_charset(params, page.body if is_html else b""), "replace")
    if is_html:
        return html_to_text(text, page.url)
    return "", text


def _charset(params: str, html: bytes) -> str:
    match = re.search(r"charset=[\"']?([\w.:-]+)", params, re.IGNORECASE)
    name = match.group(1) if match else ""
    if not name and html:
        meta = _META_CHARSET.search(html[:4096])
        name = meta.group(1).decode("ascii", "replace") if meta else ""
    try:
        return codecs.lookup(name).name if name else "utf-8"
    except LookupError:
        return "utf-8"


def _render(page: Page, prompt: str) -> str:
    title, text = _page_text(page)
    notes = []
    if page.truncated:
        notes.append(f"the download stopped at {MAX_DOWNLOAD_BYTES // (1024 * 1024)} MB")
    if len(text) > MAX_RESULT_CHARS:
        notes.append(f"showing the first {MAX_RESULT_CHARS} of {len(text)} characters")
        text = text[:MAX_RESULT_CHARS]
    head = [f"URL: {page.url}"]
    if title:
        head.append(f"Title: {title}")
    head.append(f"Question: {prompt}")
    head.append("Answer the question from the page content below.")
    if notes:
        head.append(f"Note: the page was truncated ({'; '.join(notes)}).")
    return (
        "\n".join(head) + "\n\n--- page content ---\n" + (text.strip() or "(the page has no text)")
    )
