"""Credentials in the files that keep them, as the redactor finds them.

- ``.npmrc``: ``_auth=BASE64`` (``_authToken=`` and ``_password=`` are
  assignments, found by the main table);
- Docker's and Podman's ``config.json`` / ``auth.json``: ``"auth": "BASE64"``;
- the AWS console's credentials CSV: a header naming the columns
  (``User name,Password,Access key ID,Secret access key,Console login link``,
  or ``Access key ID,Secret access key``) and the rows under it. A row whose
  header was cut off (the tail of a long output) is known by its shape: a key
  id then its secret key, or fields before the console's sign-in link.

An ``auth`` value counts when it decodes to ``user:password``, which is what
both npm and Docker put there; ``"auth": "oauth2"`` in other JSON stays.
"""

from __future__ import annotations

import base64
import binascii
import re

from agent_core.session.redact_match import Format, Found, after, both

_BASE64 = r"[A-Za-z0-9+/]{4,4096}={0,2}"


def _user_colon_password(found: Found, text: str) -> bool:
    """The value is base64 of ``user:password``."""
    value = next((v for v in map(found.group, ("secret", "q1", "q2", "bare")) if v), "")
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
    except (binascii.Error, ValueError):
        return False
    _user, colon, password = decoded.partition(b":")
    return bool(colon and password) and b"\n" not in decoded


def _npmrc_key(found: Found, text: str) -> bool:
    """``_auth`` is a key of its own line or registry (``//host/:_auth``), not ``self._auth``."""
    start = found.start()
    return start == 0 or text[start - 1] in " \t\n\r:\"'"


# --- the AWS console's CSV ---

_CSV_COLUMN = r"(?i:user name|password|access key id|secret access key|console login link)"
_CSV_ROWS = r"(?P<rows>(?:\r?\n[^\r\n,]{0,512},[^\r\n]{1,1024}){1,12})"
# The key's id too, as everywhere else (aws-access-key-id in redact_formats.py).
_SECRET_COLUMNS = ("password", "access key id", "secret access key")
# How Read (and cat -n) number a line: the number is not part of the first column.
_LINE_NUMBER = re.compile(r"[ \t]*\d+\t")


def _csv_header(found: Found, text: str) -> bool:
    """The header is a line of its own (maybe numbered by Read) and names a secret column."""
    start = found.start()
    if start > 0 and text[start - 1] not in "\n\t\ufeff":
        return False
    header = text[start : found.span("rows")[0]].lower()
    return any(name in header for name in _SECRET_COLUMNS)


def _csv_secret_fields(found: Found, text: str) -> list[tuple[int, int]]:
    """The password and secret key of each row; a whole row whose fields do not line up."""
    rows_start, rows_end = found.span("rows")
    columns = [c.strip().lower() for c in text[found.start() : rows_start].split(",")]
    secret = [i for i, name in enumerate(columns) if name in _SECRET_COLUMNS]
    spans = []
    pos = rows_start
    for line in text[rows_start:rows_end].split("\n"):
        line_start = pos
        pos += len(line) + 1
        numbered = _LINE_NUMBER.match(line)
        first = line_start + (numbered.end() if numbered else 0)
        row = text[first : line_start + len(line.rstrip("\r"))]
        if not row:
            continue
        fields = row.split(",")
        if len(fields) != len(columns):  # a comma in a password, or quoting: the whole row
            spans.append((first, first + len(row)))
            continue
        offset = first
        for index, field in enumerate(fields):
            if index in secret and field:
                spans.append((offset, offset + len(field)))
            offset += len(field) + 1
    return spans


def aws_key_and_pair(found: Found, text: str) -> list[tuple[int, int]]:
    """An access key id, and the secret key after its comma if a CSV row puts one there."""
    spans = [(found.start(), found.span("pair")[0] - 1 if found.group("pair") else found.end())]
    if found.group("pair"):
        spans.append(found.span("pair"))
    return spans


def _fields_before_the_sign_in_link(found: Found, text: str) -> list[tuple[int, int]]:
    """``alice,PASSWORD,KEY ID,SECRET,https://ACCOUNT.signin.aws.amazon.com/console``.

    In a CSV row that ends with the console's link, every field between the user
    name and the link is a credential.
    """
    url = text.rfind("https://", max(0, found.start() - 80), found.start())
    line_start = text.rfind("\n", 0, url) + 1
    if url < 1 or text[url - 1] != ",":
        return []
    numbered = _LINE_NUMBER.match(text, line_start)
    pos = text.find(",", numbered.end() if numbered else line_start, url) + 1
    spans = []
    while pos < url:
        end = text.find(",", pos, url)
        if end > pos:
            spans.append((pos, end))
        pos = end + 1
    return spans


def _aws_csv(lead: str, first_column: str) -> Format:
    return Format(
        "aws-console-credentials-csv",
        lead,
        rf"(?i:{first_column})(?:,{_CSV_COLUMN}){{1,4}}[ \t]*{_CSV_ROWS}",
        _csv_header,
        spans=_csv_secret_fields,
    )


CREDENTIAL_FILE_FORMATS: tuple[Format, ...] = (
    Format(
        "npmrc-auth",
        "_auth",
        r"[ \t]{0,16}=[ \t]{0,16}"
        rf"(?:\"(?P<q2>{_BASE64})\"|'(?P<q1>{_BASE64})'|(?P<bare>{_BASE64}))(?![\w+/=])",
        both(_npmrc_key, _user_colon_password),
        secrets=("q1", "q2", "bare"),
    ),
    Format(
        "docker-auth",
        "auth",
        rf"\\?\"[ \t]{{0,16}}:[ \t]{{0,16}}\\?\"(?P<secret>{_BASE64})\\?\"",
        both(after('"'), _user_colon_password),
    ),
    _aws_csv("User ", "name"),
    _aws_csv("Access ", "key id"),
    Format(
        "aws-console-csv-row",
        "signin.aws.amazon.com/console",
        "",
        after("."),
        spans=_fields_before_the_sign_in_link,
    ),
)
