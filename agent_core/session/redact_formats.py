"""The credential formats the redactor finds, compiled into one scanner per first character."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any, NamedTuple

from agent_core.session.redact_commands import COMMAND_LINE_FORMATS
from agent_core.session.redact_files import CREDENTIAL_FILE_FORMATS, aws_key_and_pair
from agent_core.session.redact_match import (
    MAX_MATCH,
    PLACEHOLDER,
    REDACTED,
    Check,
    Format,
    Found,
    after,
    both,
    left_edge,
)

__all__ = ["FORMATS", "MAX_MATCH", "REDACTED", "Format", "Found"]

# Longest PEM body searched for its END line; a key of 8192 bits is about 6.4 KB.
_PEM_MAX = 8192


# --- checks: a last look at a match, in Python, only where a format matched ---


def _tokenish(found: Found, text: str) -> bool:
    """``Bearer <token>``: a token has a digit or a symbol; "Basic settings" is prose."""
    return _TOKENISH.search(found.group("secret") or "") is not None


def _credential_value(found: Found, text: str) -> bool:
    """After ``Authorization:``, a scheme's token, or a value that is not a word of code."""
    value = found.group("secret") or ""
    if PLACEHOLDER.match(value) or REDACTED in value:
        return False
    return found.group("scheme") is not None or (
        len(value) >= 8 and _TOKENISH.search(value) is not None
    )


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
    original = text[head.start() if head else start : name_end]
    name = original.lower()
    if not _SECRET_WORD.search(name) or _NOT_SECRET_NAME.search(name):
        return False
    bare = found.group("bare")
    value = bare if bare is not None else (found.group("q1") or found.group("q2") or "")
    stripped = value.strip()
    if not stripped or REDACTED in value or PLACEHOLDER.match(stripped):
        return False
    if bare is None:
        return True  # a quoted literal
    strong = _STRONG_SECRET_WORD.search(name) is not None
    if len(stripped) < (1 if strong else 4):
        return False
    if stripped.isdigit() and not strong:
        return False  # token_limit=100000, api_key_version=2
    if found.group("sep") == "=" and _ENV_NAME.fullmatch(original):
        return True  # PGPASSWORD=postgres: in the environment or a .env file, a word is literal
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


def _pem_body_before(found: Found, text: str) -> list[tuple[int, int]]:
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
    return [(pos, found.end())]


def _telegram_bot_id(found: Found, text: str) -> bool:
    """5 to 16 digits before the colon, starting a word or after ``bot`` (api.telegram.org/bot)."""
    colon = found.start()
    first = colon
    while first > 0 and colon - first <= 16 and text[first - 1] in "0123456789":
        first -= 1
    if not 5 <= colon - first <= 16:
        return False
    before = text[first - 1] if first else " "
    return not (before.isalnum() or before in "_-") or text[max(0, first - 3) : first] == "bot"


def _after_the_colon(found: Found, text: str) -> list[tuple[int, int]]:
    return [(found.start() + 1, found.end())]


def _rest_of_line_blank(text: str, pos: int) -> bool:
    end = text.find("\n", pos)
    return not text[pos : end if end != -1 else len(text)].strip(" \t\r\"',;")


_NAME_HEAD = re.compile(r"[\w.\-]*\Z")
_PEM_BODY_LINE = re.compile(r"[ \t]*(?:\d+\t)?(?:[A-Za-z0-9+/=]{1,128}|[A-Za-z\-]+: [^\n]*)?\r?\n?")
_SECRET_WORD = re.compile(
    r"passw|passphrase|secret|token|credential|apikey|sshpass|mysql_pwd|"
    r"(?:api|access|private|signing|encryption|master|app|client|auth|account|"
    r"subscription|license|service|storage|session)[_\-]?key"
)
_STRONG_SECRET_WORD = re.compile(r"passw|secret|passphrase|sshpass|mysql_pwd")
_ENV_NAME = re.compile(r"[A-Z_][A-Z0-9_]*")
# What follows "token" in a name that counts or points rather than holds (token_count).
_TOKEN_NOT_SECRET = (
    r"s|i[sz]|_?(?:count|limit|len|length|size|type|usage|budget|ids?\b|index|"
    r"num|kind|pos|cost|estimate|url|uri|endpoint|file|path|env|name)"
)
_NOT_SECRET_NAME = re.compile(
    rf"token(?:{_TOKEN_NOT_SECRET})|"
    r"(?:max|min|num|total|input|output|prompt|completion|cache)_?tokens?|"
    r"keyboard|keyerror|keyfunc|secret_?(?:name|ref|key_?ref|file|path|env)|"
    r"password_?(?:field|input|file|path|env|prompt|hash|policy|length|min|max|reset|confirm)|"
    r"(?:key|token|secret|password)_?(?:fingerprint|id)\b|is_?(?:secret|password|token)"
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
_NOT_TOKEN_SUFFIX = rf"(?!(?i:{_TOKEN_NOT_SECRET}))"
_ASSIGNMENT_LEADS = (
    "assw ASSW ecret ECRET oken OKEN Key _key -key _KEY -KEY pikey PIKEY "
    "assphrase ASSPHRASE redential REDENTIAL SHPASS _PWD"
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
        spans=_pem_body_before,
    ),
    Format(
        "putty-private-key",
        "PuTTY-User-Key-File-",
        r"\d[\s\S]{0,8192}?Private-MAC: {0,4}[0-9a-f]{1,128}",
    ),
    # With the secret key after it in a CSV row (the console's file, its header cut off)
    Format(
        "aws-access-key-id",
        "A",
        r"(?:3T[A-Z0-9]|KIA|SIA|BIA|CCA|GPA|IDA|IPA|NPA|NVA|ROA|PKA)[A-Z0-9]{16}(?![A-Za-z0-9])"
        r"(?:,(?P<pair>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=]))?",
        left_edge,
        spans=aws_key_and_pair,
    ),
    Format("github-token", "gh", rf"[pousr]_[A-Za-z0-9]{{36,255}}{_R}", left_edge),
    Format("github-pat", "github_pat_", r"[A-Za-z0-9_]{22,255}"),
    Format("slack-token", "xox", r"[abposre]-[A-Za-z0-9\-]{10,250}", left_edge),
    Format("slack-app-token", "xapp-", r"\d-[A-Za-z0-9\-]{10,250}"),
    Format(
        "slack-webhook",
        "hooks.slack.com/",
        r"(?:services|workflows|triggers)/(?P<secret>[A-Za-z0-9_/\-]{8,250})",
    ),
    Format("google-api-key", "AIza", rf"[0-9A-Za-z_\-]{{35}}{_R}", left_edge),
    Format("google-oauth-secret", "GOCSPX-", r"[A-Za-z0-9_\-]{20,64}"),
    Format("google-oauth-token", "ya29.", r"[0-9A-Za-z_\-]{20,2048}"),
    Format(
        "gitlab-token",
        "gl",
        r"(?:pat|dt|rt|ptt|ft|soat|cbt|imt|agent|oas)-[A-Za-z0-9_\-]{20,255}",
        left_edge,
    ),
    Format("gitlab-runner-token", "GR1348941", r"[A-Za-z0-9_\-]{20,64}"),
    Format("stripe-secret-key", "sk_", r"(?:live|test)_[A-Za-z0-9]{10,255}"),
    Format("stripe-restricted-key", "rk_", r"(?:live|test)_[A-Za-z0-9]{10,255}"),
    Format("stripe-webhook-secret", "whsec_", r"[A-Za-z0-9+/=]{24,128}"),
    # OpenAI (sk-, sk-proj-, sk-svcacct-, sk-admin-), Anthropic (sk-ant-api03-...), others
    Format("sk-api-key", "sk-", r"[A-Za-z0-9_\-]{20,255}", left_edge),
    Format(
        "jwt",
        "eyJ",
        r"[A-Za-z0-9_\-]{8,4096}\.eyJ[A-Za-z0-9_\-]{8,8192}\.[A-Za-z0-9_\-]{0,2048}",
        left_edge,
    ),
    Format("npm-token", "npm_", rf"[A-Za-z0-9]{{36}}{_R}", left_edge),
    Format("pypi-token", "pypi-", r"[A-Za-z0-9_\-]{50,512}"),
    *_variants("twilio-key", ("AC", "SK"), rf"[a-f0-9]{{32}}{_R}", left_edge),
    Format("sendgrid-key", "SG.", r"[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}"),
    Format("heroku-key", "HRKU-", r"[A-Za-z0-9_\-]{20,128}"),
    Format("vault-token", "hv", r"[sb]\.[A-Za-z0-9_\-]{24,512}", left_edge),
    Format("digitalocean-token", "do", r"[op]_v1_[a-f0-9]{64}"),
    Format("huggingface-token", "hf_", rf"[A-Za-z0-9]{{30,64}}{_R}", left_edge),
    Format("shopify-token", "shp", r"(?:at|ss|ca|pa)_[a-fA-F0-9]{32}"),
    Format("age-secret-key", "AGE-SECRET-KEY-1", r"[0-9A-Z]{58}"),
    Format(
        "discord-webhook",
        "discord",
        r"(?:app)?\.com/api/(?:v\d{1,2}/)?webhooks/\d{5,30}/(?P<secret>[A-Za-z0-9_\-]{20,128})",
    ),
    # 123456789:AA... (the bot's id, then 35 characters; 34 in Telegram's own example)
    Format(
        "telegram-bot-token",
        ":AA",
        rf"[A-Za-z0-9_\-]{{32,33}}{_R}",
        _telegram_bot_id,
        spans=_after_the_colon,
    ),
    *_variants(
        "azure-storage-key",
        ("AccountKey=", "accountkey=", "ACCOUNTKEY="),
        r"(?P<secret>[A-Za-z0-9+/=]{20,512})",
    ),
    Format("azure-sas-signature", "sig=", r"(?P<secret>[A-Za-z0-9%+/=]{20,512})", after("?&")),
    # scheme://user:PASSWORD@host (the user may be empty: redis://:pw@host)
    Format("url-password", "://", r"[^\s:/@\"'<>]{0,128}:(?P<secret>[^\s/\"'<>]{1,256})@"),
    # curl -u, --password, mysql -pPW, sshpass -p, redis-cli -a
    *COMMAND_LINE_FORMATS,
    # .npmrc's _auth, Docker's "auth", the AWS console's credentials CSV
    *CREDENTIAL_FILE_FORMATS,
    *(
        Format(
            "authorization-header",
            lead,
            r"\\?[\"']?[ \t]{0,16}[:=][ \t]{0,16}\\?[\"']?"
            r"(?:(?P<scheme>(?i:bearer|basic|token|digest|bot|negotiate|apikey|sso-key))[ \t]{1,16})?"
            r"(?P<secret>[^\s\"',;\\(){}\[\]]{4,4096})(?=[\s\"',;\\]|\Z)",
            both(after(before), _credential_value),
        )
        for lead, before in (("uthorization", "Aa"), ("UTHORIZATION", "A"))
    ),
    *(
        Format(
            "bearer-token",
            lead,
            r"[ \t]{1,16}(?P<secret>[A-Za-z0-9._~+/=\-]{12,4096})",
            both(after(before), _tokenish),
        )
        for lead, before in (("earer", "Bb"), ("EARER", "B"), ("asic", "Bb"), ("ASIC", "B"))
    ),
    *(
        Format("xml-secret", lead, r"(?P<secret>[^<\n]{1,512})</", both(after(b), _xml_secret))
        for lead, b in (("assword>", "Pp"), ("asswd>", "Pp"), ("ecret>", "Ss"), ("oken>", "Tt"))
    ),
    # name = value / name: value / "name": "value", where the name says it is a secret
    *(
        Format(
            "assignment",
            lead,
            # token_count=12 is turned down here, in C: it is common in code and logs
            (_NOT_TOKEN_SUFFIX if lead in ("oken", "OKEN") else "") + _ASSIGNED_SEPARATOR,
            _assignment,
            secrets=("q1", "q2", "bare"),
            follow=_ASSIGNED_VALUE,
        )
        for lead in _ASSIGNMENT_LEADS
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
            # The branch's name is an empty group at its end, the last to close (so
            # ``lastgroup``): a branch that starts with a literal is then turned down
            # by one comparison, where a group around it would be entered first.
            branches.append(f"{re.escape(fmt.lead[1:])}{body}(?P<f{index}>)")
            formats[f"f{index}"] = (fmt, prefix)
        # The shared first character outside the alternation: `re` scans for it in C.
        regex = re.compile(re.escape(char) + "(?:" + "|".join(branches) + ")")
        scanners.append(_Scanner(regex, formats))
    return tuple(scanners)


def _secret_spans(found: Found, fmt: Format, text: str) -> list[tuple[int, int]]:
    if fmt.spans is not None:
        return fmt.spans(found, text)
    for name in fmt.secrets:
        if found.group(name) is not None:
            return [found.span(name)]
    return [(found.start(), found.end())]


_follow = cache(re.compile)
