"""Keep secrets out of everything MewCode writes to disk (SPEC §23).

One redactor for sessions, the audit log, spill files, shell logs and the
debug log. What it finds:

- the values of environment variables whose names say they are secret
  (``*_TOKEN``, ``*KEY*``, ``*SECRET*``, ``*PASSWORD*``...);
- the credential formats of ``FORMATS``: cloud, VCS, chat, payment and LLM
  keys, JWTs, PEM private key blocks, URL passwords, ``curl -u``,
  Authorization headers, and ``password=`` / ``token:`` assignments.

A format marks only the secret part of its match (``Bearer``, ``password=``
and the URL's user stay readable); marked spans become ``[REDACTED]``.

Speed: every format starts with a literal ``lead``. Formats are compiled into
one regex per first character, so ``re`` skips to candidate positions in C
and the whole table costs a few scans of the text (see bench/bench_redact.py).

Why not detect-secrets: its plugins report lines rather than spans, scan
line by line (far slower than this) and pull in ``requests``; this table
covers its regex plugins for the formats above, plus the context rules.

The model's live context is never redacted; only what goes to disk is.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import Any, NamedTuple

from agent_core.messages import (
    ImageBlock,
    Message,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)

REDACTED = "[REDACTED]"
# The at-rest copy of a thinking block whose text was redacted. Its provider
# signature no longer matches the text, so it is never sent back (see loader).
REDACTED_THINKING_SIGNATURE = "mewcode:redacted-at-rest"

_SECRET_ENV_NAME = re.compile(
    r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL", re.IGNORECASE
)
# Shorter values ("1", "true") would redact ordinary words.
_MIN_SECRET_LEN = 6
# The longest text one format can match; a stream holds this much back between chunks.
MAX_MATCH = 16_384
# Longest PEM body searched for its END line; a key of 8192 bits is about 6.4 KB.
_PEM_MAX = 8192


class Found(NamedTuple):
    """One match of one format, with the format's own group names."""

    match: re.Match[str]
    prefix: str  # how this format's groups are named inside the combined regex
    then: re.Match[str] | None = None  # the match of the format's ``follow``, if it has one

    def group(self, name: str) -> str | None:
        if self.then is not None and name in self.then.re.groupindex:
            return self.then.group(name)
        key = self.prefix + name
        return self.match.group(key) if key in self.match.re.groupindex else None

    def span(self, name: str) -> tuple[int, int]:
        if self.then is not None and name in self.then.re.groupindex:
            return self.then.span(name)
        return self.match.span(self.prefix + name)

    def start(self) -> int:
        return self.match.start()

    def end(self) -> int:
        return self.then.end() if self.then is not None else self.match.end()


Check = Callable[[Found, str], bool]


class Format(NamedTuple):
    """One credential format: the literal it starts with, the rest, and what is secret.

    ``pattern`` follows ``lead``. Its named group ``secret`` (or the first of
    ``secrets`` that matched) is redacted; without one, the whole match is.
    """

    name: str
    lead: str
    pattern: str
    check: Check | None = None
    secrets: tuple[str, ...] = ("secret",)
    # The rest of the match, compiled once for every format that shares it and
    # matched where ``pattern`` ends (the assignment body, shared by 17 leads).
    follow: str = ""
    # Where the secret is, when it is not a group of the match (a PEM body before END).
    span: Callable[[Found, str], tuple[int, int]] | None = None


# --- checks: a last look at a match, in Python, only where a format matched ---


def _left_edge(found: Found, text: str) -> bool:
    """Not the tail of a longer word or base64 run."""
    start = found.start()
    return start == 0 or not (text[start - 1].isalnum() or text[start - 1] in "_-+/")


def _after(chars: str) -> Check:
    """The lead is the rest of a word that starts with one of ``chars`` ("oken" in token)."""

    def check(found: Found, text: str) -> bool:
        start = found.start()
        return start > 0 and text[start - 1] in chars

    return check


def _both(first: Check, second: Check) -> Check:
    return lambda found, text: first(found, text) and second(found, text)


def _tokenish(found: Found, text: str) -> bool:
    """``Bearer <token>``: a token has a digit or a symbol; "Basic settings" is prose."""
    return _TOKENISH.search(found.group("secret") or "") is not None


def _credential_value(found: Found, text: str) -> bool:
    """After ``Authorization:``, a scheme's token, or a value that is not a word of code."""
    value = found.group("secret") or ""
    if _PLACEHOLDER.match(value) or REDACTED in value:
        return False
    return found.group("scheme") is not None or (
        len(value) >= 8 and _TOKENISH.search(value) is not None
    )


def _cli_value(found: Found, text: str) -> bool:
    """``--password-file PATH`` says where a secret is; ``--token $T`` is a placeholder."""
    value = found.group("secret") or ""
    if (found.group("opt") or "").endswith(("file", "path", "env", "stdin", "fd", "cmd")):
        return False
    return not _PLACEHOLDER.match(value) and REDACTED not in value


def _xml_secret(found: Found, text: str) -> bool:
    start = found.start()
    open_at = text.rfind("<", max(0, start - 60), start)
    tag = text[open_at + 1 : text.find(">", start)].lower()
    return open_at != -1 and _SECRET_WORD.search(tag) is not None


def _assignment(found: Found, text: str) -> bool:
    """A ``name = value`` is a secret when the name says so and the value is not code."""
    start = found.start()
    head = _NAME_HEAD.search(text, max(0, start - 40), start)
    name_end = found.span("name")[1]
    name = text[head.start() if head else start : name_end].lower()
    if not _SECRET_WORD.search(name) or _NOT_SECRET_NAME.search(name):
        return False
    bare = found.group("bare")
    value = bare if bare is not None else (found.group("q1") or found.group("q2") or "")
    stripped = value.strip()
    if not stripped or REDACTED in value or _PLACEHOLDER.match(stripped):
        return False
    if bare is None:
        return True  # a quoted literal
    strong = any(w in name for w in ("passw", "secret", "passphrase"))
    if len(stripped) < (1 if strong else 4):
        return False
    if stripped.isdigit() and not strong:
        return False  # token_limit=100000, api_key_version=2
    if _WORDLIKE.fullmatch(stripped):
        # Code (`password=password`, `token: str`, `secret=self.secret`) or a
        # config value (`password=admin`): a word after ":" must end the line.
        if "." in stripped or "_" in stripped or stripped.lower() in _CODE_WORDS:
            return False
        if _CAMEL.search(stripped):
            return False
        if ":" in (found.group("sep") or "") and not _rest_of_line_blank(text, found.end()):
            return False
    return True


def _pem_body_before(found: Found, text: str) -> tuple[int, int]:
    """The END line of a block whose BEGIN was cut off (the tail of an output): the body above.

    Lines are taken back while they look like a PEM body (base64, headers such
    as ``DEK-Info:``, blank, or numbered by Read), up to ``_PEM_MAX`` characters.
    """
    start = found.start()
    limit = max(0, start - _PEM_MAX)
    pos = start
    while pos > limit:
        line_start = text.rfind("\n", limit, pos - 1) + 1
        if line_start <= limit and limit > 0:
            break
        if not _PEM_BODY_LINE.fullmatch(text, line_start, pos):
            break
        pos = line_start
        if pos == 0:
            break
    return pos, found.end()


def _rest_of_line_blank(text: str, pos: int) -> bool:
    end = text.find("\n", pos)
    return not text[pos : end if end != -1 else len(text)].strip(" \t\r\"',;")


_NAME_HEAD = re.compile(r"[\w.\-]*\Z")
_PEM_BODY_LINE = re.compile(r"[ \t]*(?:\d+\t)?(?:[A-Za-z0-9+/=]{1,128}|[A-Za-z\-]+: [^\n]*)?\r?\n?")
_SECRET_WORD = re.compile(
    r"passw|passphrase|secret|token|credential|apikey|"
    r"(?:api|access|private|signing|encryption|master|app|client|auth|account|"
    r"subscription|license|service|storage|session)[_\-]?key"
)
_NOT_SECRET_NAME = re.compile(
    r"tokens|tokeni[sz]|token_?(?:count|limit|len|length|size|type|usage|budget|ids?\b|index|"
    r"num|kind|pos|cost|estimate|url|uri|endpoint|file|path|env|name)|"
    r"(?:max|min|num|total|input|output|prompt|completion|cache)_?tokens?|"
    r"keyboard|keyerror|keyfunc|secret_?(?:name|ref|key_?ref|file|path|env)|"
    r"password_?(?:field|input|file|path|env|prompt|hash|policy|length|min|max|reset|confirm)|"
    r"(?:key|token|secret|password)_?(?:fingerprint|id)\b|is_?(?:secret|password|token)"
)
_PLACEHOLDER = re.compile(
    r"\$\{?[A-Za-z_][\w.]*\}?\Z|\{\{.*\}\}\Z|%\(?\w*\)?s\Z|<[^<>]*>\Z|\*+\Z|x{3,}\Z|\.{3}\Z"
    r"|\{[A-Za-z_][\w.]*\}\Z|\$\(",
    re.IGNORECASE,
)
_WORDLIKE = re.compile(r"[A-Za-z_.]+")
_CAMEL = re.compile(r"[a-z][A-Z]")
_CODE_WORDS = frozenset(
    "str string int bool bytes none null nil true false undefined any object optional "
    "required secret secrets password passwd token key apikey env text number boolean "
    "redacted hidden masked empty unset self this".split()
)
_TOKENISH = re.compile(r"[0-9+/=_.\-~]")

# --- the table ---

_R = r"(?![A-Za-z0-9_\-])"  # a fixed-length key ends here
_PEM_LABEL = r"-----(?:BEGIN|END)[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----"
# Cheap to compile once per lead: a separator must follow within the name.
_ASSIGNED_SEPARATOR = r"(?=[\w.\-]{0,40}?\\?[\"']?\s{0,16}(?:=>|:=|[:=]))"
_ASSIGNED_VALUE = (
    r"(?P<name>[\w.\-]{0,40}?)(?P<sep>\\?[\"']?\s{0,16}(?:=>|:=|[:=])[ \t]{0,16})"
    r"(?:\\?\"(?P<q1>[^\"\n\\]{1,512})\\?\"|\\?'(?P<q2>[^'\n\\]{1,512})\\?'"
    r"|(?P<bare>[^\s\"'`,;&|<>(){}\[\]\\]{1,512})(?=[\s\"'`,;&|)}\]\\]|\Z))"
)
_ASSIGNMENT_LEADS = (
    "assw ASSW ecret ECRET oken OKEN Key _key -key _KEY -KEY pikey PIKEY "
    "assphrase ASSPHRASE redential REDENTIAL"
).split()


def _variants(
    name: str, leads: Iterable[str], pattern: str, check: Check | None = None, **kw: Any
) -> list[Format]:
    return [Format(name, lead, pattern, check, **kw) for lead in leads]


FORMATS: tuple[Format, ...] = (
    # The whole block, however it is wrapped (line numbers from Read, JSON "\n");
    # a block cut before its END line is redacted as far as its body goes.
    Format(
        "pem-private-key",
        "-----BEGIN",
        r"[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----"
        rf"(?:[\s\S]{{0,{_PEM_MAX}}}?{_PEM_LABEL}|[A-Za-z0-9+/=\s:,\\\-]{{0,{_PEM_MAX}}})",
    ),
    Format(
        "pem-private-key-tail",
        "-----END",
        r"[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----",
        span=_pem_body_before,
    ),
    Format(
        "putty-private-key",
        "PuTTY-User-Key-File-",
        r"\d[\s\S]{0,8192}?Private-MAC: {0,4}[0-9a-f]{1,128}",
    ),
    Format(
        "aws-access-key-id",
        "A",
        r"(?:3T[A-Z0-9]|KIA|SIA|BIA|CCA|GPA|IDA|IPA|NPA|NVA|ROA|PKA)[A-Z0-9]{16}(?![A-Za-z0-9])",
        _left_edge,
    ),
    Format("github-token", "gh", rf"[pousr]_[A-Za-z0-9]{{36,255}}{_R}", _left_edge),
    Format("github-pat", "github_pat_", r"[A-Za-z0-9_]{22,255}"),
    Format("slack-token", "xox", r"[abposre]-[A-Za-z0-9\-]{10,250}", _left_edge),
    Format("slack-app-token", "xapp-", r"\d-[A-Za-z0-9\-]{10,250}"),
    Format(
        "slack-webhook",
        "hooks.slack.com/",
        r"(?:services|workflows|triggers)/(?P<secret>[A-Za-z0-9_/\-]{8,250})",
    ),
    Format("google-api-key", "AIza", rf"[0-9A-Za-z_\-]{{35}}{_R}", _left_edge),
    Format("google-oauth-secret", "GOCSPX-", r"[A-Za-z0-9_\-]{20,64}"),
    Format("google-oauth-token", "ya29.", r"[0-9A-Za-z_\-]{20,2048}"),
    Format(
        "gitlab-token",
        "gl",
        r"(?:pat|dt|rt|ptt|ft|soat|cbt|imt|agent|oas)-[A-Za-z0-9_\-]{20,255}",
        _left_edge,
    ),
    Format("gitlab-runner-token", "GR1348941", r"[A-Za-z0-9_\-]{20,64}"),
    Format("stripe-secret-key", "sk_", r"(?:live|test)_[A-Za-z0-9]{10,255}"),
    Format("stripe-restricted-key", "rk_", r"(?:live|test)_[A-Za-z0-9]{10,255}"),
    Format("stripe-webhook-secret", "whsec_", r"[A-Za-z0-9+/=]{24,128}"),
    # OpenAI (sk-, sk-proj-, sk-svcacct-, sk-admin-), Anthropic (sk-ant-api03-...), others
    Format("sk-api-key", "sk-", r"[A-Za-z0-9_\-]{20,255}", _left_edge),
    Format(
        "jwt",
        "eyJ",
        r"[A-Za-z0-9_\-]{8,4096}\.eyJ[A-Za-z0-9_\-]{8,8192}\.[A-Za-z0-9_\-]{0,2048}",
        _left_edge,
    ),
    Format("npm-token", "npm_", rf"[A-Za-z0-9]{{36}}{_R}", _left_edge),
    Format("pypi-token", "pypi-", r"[A-Za-z0-9_\-]{50,512}"),
    *_variants("twilio-key", ("AC", "SK"), rf"[a-f0-9]{{32}}{_R}", _left_edge),
    Format("sendgrid-key", "SG.", r"[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}"),
    Format("heroku-key", "HRKU-", r"[A-Za-z0-9_\-]{20,128}"),
    Format("vault-token", "hv", r"[sb]\.[A-Za-z0-9_\-]{24,512}", _left_edge),
    Format("digitalocean-token", "do", r"[op]_v1_[a-f0-9]{64}"),
    Format("huggingface-token", "hf_", rf"[A-Za-z0-9]{{30,64}}{_R}", _left_edge),
    Format("shopify-token", "shp", r"(?:at|ss|ca|pa)_[a-fA-F0-9]{32}"),
    Format("age-secret-key", "AGE-SECRET-KEY-1", r"[0-9A-Z]{58}"),
    *_variants(
        "azure-storage-key",
        ("AccountKey=", "accountkey=", "ACCOUNTKEY="),
        r"(?P<secret>[A-Za-z0-9+/=]{20,512})",
    ),
    Format("azure-sas-signature", "sig=", r"(?P<secret>[A-Za-z0-9%+/=]{20,512})", _after("?&")),
    # scheme://user:PASSWORD@host (the user may be empty: redis://:pw@host)
    Format("url-password", "://", r"[^\s:/@\"'<>]{0,128}:(?P<secret>[^\s/\"'<>]{1,256})@"),
    # curl -u user:pw, wget --user, httpie -a user:pw
    *_variants(
        "command-user-password",
        ("curl", "wget", "http ", "https "),
        r"[^\n]{0,2000}?\s(?:-u|--user|--proxy-user|-a|--auth|--http-user)(?:[ \t]{1,16}|=)?"
        r"\\?[\"']?[^\s:\"'\\]{0,256}:(?P<secret>[^\s\"'\\]{1,512})",
        _left_edge,
    ),
    *(
        Format(
            "authorization-header",
            lead,
            r"\\?[\"']?[ \t]{0,16}[:=][ \t]{0,16}\\?[\"']?"
            r"(?:(?P<scheme>(?i:bearer|basic|token|digest|bot|negotiate|apikey|sso-key))[ \t]{1,16})?"
            r"(?P<secret>[^\s\"',;\\(){}\[\]]{4,4096})(?=[\s\"',;\\]|\Z)",
            _both(_after(before), _credential_value),
        )
        for lead, before in (("uthorization", "Aa"), ("UTHORIZATION", "A"))
    ),
    *(
        Format(
            "bearer-token",
            lead,
            r"[ \t]{1,16}(?P<secret>[A-Za-z0-9._~+/=\-]{12,4096})",
            _both(_after(before), _tokenish),
        )
        for lead, before in (("earer", "Bb"), ("EARER", "B"), ("asic", "Bb"), ("ASIC", "B"))
    ),
    # --password hunter2 (-p is too common to be a sign)
    *_variants(
        "cli-option",
        ("--pass", "--token", "--secret", "--api-key", "--apikey", "--auth-token"),
        r"(?P<opt>(?:word|phrase)?(?:[\-_][\w\-]{0,20})?)[ =]\\?[\"']?(?P<secret>[^\s\"'\\]{1,512})",
        _cli_value,
    ),
    *(
        Format("xml-secret", lead, r"(?P<secret>[^<\n]{1,512})</", _both(_after(b), _xml_secret))
        for lead, b in (("assword>", "Pp"), ("asswd>", "Pp"), ("ecret>", "Ss"), ("oken>", "Tt"))
    ),
    # name = value / name: value / "name": "value", where the name says it is a secret
    *_variants(
        "assignment",
        _ASSIGNMENT_LEADS,
        _ASSIGNED_SEPARATOR,
        _assignment,
        secrets=("q1", "q2", "bare"),
        follow=_ASSIGNED_VALUE,
    ),
)


class _Scanner(NamedTuple):
    """The formats whose lead starts with one character, as one regex."""

    regex: re.Pattern[str]
    formats: dict[str, tuple[Format, str]]  # branch group name -> (format, group prefix)


_GROUP = re.compile(r"\(\?P([<=])(\w+)")


@cache
def _scanners() -> tuple[_Scanner, ...]:
    """The table compiled once per process, on first use (never at import)."""
    by_char: dict[str, list[tuple[int, Format]]] = {}
    for index, fmt in enumerate(FORMATS):
        by_char.setdefault(fmt.lead[0], []).append((index, fmt))
    scanners = []
    for char, members in by_char.items():
        branches = []
        formats = {}
        for index, fmt in members:
            prefix = f"f{index}_"
            body = _GROUP.sub(lambda m, p=prefix: f"(?P{m[1]}{p}{m[2]}", fmt.pattern)
            branches.append(f"(?P<f{index}>{re.escape(fmt.lead[1:])}{body})")
            formats[f"f{index}"] = (fmt, prefix)
        # The shared first character outside the alternation: `re` scans for it in C.
        regex = re.compile(re.escape(char) + "(?:" + "|".join(branches) + ")")
        scanners.append(_Scanner(regex, formats))
    return tuple(scanners)


def _secret_span(found: Found, fmt: Format, text: str) -> tuple[int, int]:
    if fmt.span is not None:
        return fmt.span(found, text)
    for name in fmt.secrets:
        if found.group(name) is not None:
            return found.span(name)
    return found.start(), found.end()


_follow = cache(re.compile)


class Redactor:
    """Replaces secrets in strings, nested JSON-like values and messages."""

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        env = os.environ if env is None else env
        self._env_values = sorted(
            {v for k, v in env.items() if _SECRET_ENV_NAME.search(k) and _env_secret(v)},
            key=len,
            reverse=True,  # longest first, so a value containing another goes whole
        )
        self.window = max([MAX_MATCH, *(len(v) + 64 for v in self._env_values)])

    def spans(self, text: str, start: int = 0) -> list[tuple[int, int]]:
        """Sorted, merged ``(start, end)`` of every secret in matches from ``start`` on."""
        return _merge((s, e) for _, _, s, e in self.matches(text, start))

    def matches(self, text: str, start: int = 0) -> list[tuple[int, int, int, int]]:
        """``(match start, match end, secret start, secret end)`` of every format match."""
        found: list[tuple[int, int, int, int]] = []
        for value in self._env_values:
            i = text.find(value, start)
            while i != -1:
                found.append((i, i + len(value), i, i + len(value)))
                i = text.find(value, i + len(value))
        for scanner in _scanners():
            search = scanner.regex.search
            match = search(text, start)
            while match is not None:
                fmt, prefix = scanner.formats[match.lastgroup or ""]
                hit = Found(match, prefix)
                if fmt.follow:
                    then = _follow(fmt.follow).match(text, match.end())
                    hit = Found(match, prefix, then)
                if (not fmt.follow or hit.then is not None) and (
                    fmt.check is None or fmt.check(hit, text)
                ):
                    s, e = _secret_span(hit, fmt, text)
                    if e > s:
                        found.append((hit.start(), hit.end(), s, e))
                    match = search(text, hit.end())
                else:  # a rejected match may hide another that starts inside it
                    match = search(text, match.start() + 1)
        return found

    def text(self, text: str) -> str:
        """The string with every secret replaced by ``[REDACTED]``."""
        if not text:
            return text
        return _apply(text, self.spans(text))

    def value(self, value: Any) -> Any:
        """Redact strings inside dicts, lists and tuples; other values unchanged."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {k: self.value(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.value(v) for v in value]
        return value

    def stream(self) -> StreamRedactor:
        """A redactor for text that arrives in chunks (spill files, shell logs)."""
        return StreamRedactor(self)

    def message(self, msg: Message) -> Message:
        """The at-rest copy of a message: secrets redacted, images untouched.

        A thinking block whose text changed keeps the redacted text and is
        marked with ``REDACTED_THINKING_SIGNATURE`` instead of the provider's
        signature: it can be shown again but is never sent back modified.
        """
        blocks = [self._block(b) for b in msg.content]
        if all(a is b for a, b in zip(blocks, msg.content, strict=True)):
            return msg
        return Message(role=msg.role, content=blocks)

    def _block(self, block: Any) -> Any:
        if isinstance(block, TextBlock):
            new = self.text(block.text)
            return block if new == block.text else TextBlock(new)
        if isinstance(block, ThinkingBlock):
            new = self.text(block.thinking)
            if new == block.thinking:
                return block
            return ThinkingBlock(new, REDACTED_THINKING_SIGNATURE)
        if isinstance(block, ToolUseBlock):
            new_input = self.value(block.input)
            return (
                block if new_input == block.input else ToolUseBlock(block.id, block.name, new_input)
            )
        if isinstance(block, ToolResultBlock):
            content = block.content
            if isinstance(content, str):
                new_content: Any = self.text(content)
            else:
                new_content = [
                    b if isinstance(b, ImageBlock) else TextBlock(self.text(b.text))
                    for b in content
                ]
            if new_content == content:
                return block
            return ToolResultBlock(block.tool_use_id, new_content, block.is_error)
        return block


class StreamRedactor:
    """Redacts a text written chunk by chunk: a secret split across chunks is still caught.

    Text is held back until ``window`` characters (more than any format can
    match) follow it, so every match starting in what is released was seen
    whole; a match across the release point holds the release back to its
    start. The last released characters stay as context for the left edges.
    """

    _CONTEXT = 256

    def __init__(self, redactor: Redactor) -> None:
        self._redactor = redactor
        self._window = redactor.window
        self._buf = ""  # context (already released) + pending text
        self._context = 0

    def feed(self, chunk: str) -> str:
        """Take the next chunk; return the redacted text that is now final (maybe "")."""
        self._buf += chunk
        if len(self._buf) - self._context < 2 * self._window:
            return ""  # batch small chunks: each character is scanned about twice at most
        return self._release(len(self._buf) - self._window)

    def flush(self) -> str:
        """Release everything held back (end of stream, or before someone reads the file)."""
        return self._release(len(self._buf))

    def _release(self, cut: int) -> str:
        buf, ctx = self._buf, self._context
        found = self._redactor.matches(buf, ctx)
        # A match across the release point (its lead released, its secret not
        # yet) waits whole for the next round.
        while crossing := [ms for ms, me, _, _ in found if ms < cut < me]:
            cut = min(crossing)
        spans = _merge((max(s, ctx) - ctx, e - ctx) for _, me, s, e in found if me <= cut)
        out = _apply(buf[ctx:cut], spans)
        keep_from = max(0, cut - self._CONTEXT)
        self._buf = buf[keep_from:]
        self._context = cut - keep_from
        return out


def _env_secret(value: str) -> bool:
    if len(value) < _MIN_SECRET_LEN or value.isdigit():
        return False
    # A path (SSH_KEY_PATH, GOOGLE_APPLICATION_CREDENTIALS) says where a secret is, not what.
    return not (value.startswith(("/", "~/", "./")) and " " not in value)


def _merge(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for s, e in sorted(spans):
        if merged and s <= merged[-1][1]:
            if e > merged[-1][1]:
                merged[-1] = (merged[-1][0], e)
        else:
            merged.append((s, e))
    return merged


def _apply(text: str, spans: list[tuple[int, int]]) -> str:
    if not spans:
        return text
    parts = []
    pos = 0
    for s, e in spans:
        parts.append(text[pos:s])
        parts.append(REDACTED)
        pos = e
    parts.append(text[pos:])
    return "".join(parts)
