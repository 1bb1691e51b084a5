"""The credential formats the redactor finds, compiled into one scanner per first character."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any, NamedTuple

REDACTED = "[REDACTED]"

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


def _prefixed_group(prefix: str) -> Callable[[re.Match[str]], str]:
    """A replacement for _GROUP that puts ``prefix`` before each named group's name."""
    return lambda m: f"(?P{m[1]}{prefix}{m[2]}"


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
            body = _GROUP.sub(_prefixed_group(prefix), fmt.pattern)
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
