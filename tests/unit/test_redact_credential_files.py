"""Credentials as files keep them (.npmrc, Docker's config.json, the AWS console's CSV) and
chat webhooks, bot tokens and age keys: redacted, with what is around them kept readable."""

from __future__ import annotations

import base64

import pytest

from agent_core.session.redact import REDACTED, Redactor

REDACTOR = Redactor({})
R = REDACTED
BASIC = base64.b64encode(b"deploy:Np3m-Pass!").decode()
BASIC_UNPADDED = base64.b64encode(b"me:pw12345").decode().rstrip("=")
NOT_BASIC = base64.b64encode(b"just some bytes").decode()
KEY_ID = "AK" + "IAIOSFODNN7EXAMPLE"
SECRET_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
TOKEN_35 = "AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawX"

REDACTED_TEXTS = [
    (f"_auth={BASIC}", f"_auth={R}"),
    (f"_auth = {BASIC}\nemail=me@example.com", f"_auth = {R}\nemail=me@example.com"),
    (f'_auth="{BASIC}"', f'_auth="{R}"'),
    (f"//registry.example.com/:_auth={BASIC_UNPADDED}", f"//registry.example.com/:_auth={R}"),
    (
        "//npm.pkg.example.com/:_authToken=0123abcd-ef45-6789",
        f"//npm.pkg.example.com/:_authToken={R}",
    ),
    (f"//registry.example.com/:_password={NOT_BASIC}", f"//registry.example.com/:_password={R}"),
    (
        f'{{"auths": {{"ghcr.io": {{"auth": "{BASIC}"}}}}}}',
        f'{{"auths": {{"ghcr.io": {{"auth": "{R}"}}}}}}',
    ),
    (f'\\"auth\\": \\"{BASIC}\\"', f'\\"auth\\": \\"{R}\\"'),
    (
        "User name,Password,Access key ID,Secret access key,Console login link\n"
        f"alice,Pw!1x,{KEY_ID},{SECRET_KEY},https://1234.signin.aws.amazon.com/console",
        "User name,Password,Access key ID,Secret access key,Console login link\n"
        f"alice,{R},{R},{R},https://1234.signin.aws.amazon.com/console",
    ),
    (
        f"\ufeffAccess key ID,Secret access key\r\n{KEY_ID},{SECRET_KEY}\r\n",
        f"\ufeffAccess key ID,Secret access key\r\n{R},{R}\r\n",
    ),
    (
        f"User Name,Access Key Id,Secret Access Key\nbob,{KEY_ID},{SECRET_KEY}\ncarol,x,{SECRET_KEY}",
        f"User Name,Access Key Id,Secret Access Key\nbob,{R},{R}\ncarol,{R},{R}",
    ),
    # a password with a comma in it: the row does not line up with the header, so all of it goes
    (
        "User name,Password,Console login link\nalice,pa,ss,https://console",
        f"User name,Password,Console login link\n{R}",
    ),
    # rows whose header was cut off (the tail kept of a long output)
    (
        f"alice,Pw!1x,{KEY_ID},{SECRET_KEY},https://1234.signin.aws.amazon.com/console",
        f"alice,{R},{R},{R},https://1234.signin.aws.amazon.com/console",
    ),
    (f"     7\t{KEY_ID},{SECRET_KEY}\n", f"     7\t{R},{R}\n"),
    (f"{KEY_ID},{SECRET_KEY[:20]}", f"{R},{SECRET_KEY[:20]}"),
    (
        "https://discord.com/api/webhooks/123456789012345678/" + "x" * 68,
        f"https://discord.com/api/webhooks/123456789012345678/{R}",
    ),
    (
        "https://discordapp.com/api/v10/webhooks/123456789012345678/" + "Ab_-9" * 13,
        f"https://discordapp.com/api/v10/webhooks/123456789012345678/{R}",
    ),
    (
        "https://canary.discord.com/api/webhooks/123456789012345678/" + "Z" * 68,
        f"https://canary.discord.com/api/webhooks/123456789012345678/{R}",
    ),
    (f"TELEGRAM_BOT=123456789:{TOKEN_35}", f"TELEGRAM_BOT=123456789:{R}"),
    (
        f"https://api.telegram.org/bot123456789:{TOKEN_35}/getMe",
        f"https://api.telegram.org/bot123456789:{R}/getMe",
    ),
    (f"bot id 5123456789:{TOKEN_35[:-1]} (34)", f"bot id 5123456789:{R} (34)"),
]

UNCHANGED_TEXTS = [
    f"_auth={NOT_BASIC}",
    "_auth=${NPM_AUTH}",
    f"self._auth = {BASIC}",
    "_auth = None",
    '{"auth": "oauth2"}',
    f'{{"auth": "{NOT_BASIC}"}}',
    f'{{"oauth": "{BASIC}"}}',
    "User name,Email\nalice,alice@example.com",
    "Access key ID,Last used\nAKIA...,2024-05-01",
    "User name, password and email are required.\nalice, bob",
    "columns: User name,Password\nalice,Pw1",
    "Sign in at https://1234.signin.aws.amazon.com/console, as alice",
    "alice,https://1234.signin.aws.amazon.com/console",
    "https://discord.com/api/webhooks/123/short",
    "https://discord.com/channels/123456789012345678/987654321098765432",
    f"1234:{TOKEN_35}",
    f"x123456789:{TOKEN_35}",
    f"123456789:{TOKEN_35}extra",
    "at 10:42:17 AA batteries",
]


@pytest.mark.parametrize(("text", "expected"), REDACTED_TEXTS)
def test_a_credential_in_a_file_format_is_redacted(text: str, expected: str) -> None:
    assert REDACTOR.text(text) == expected


def test_an_age_key_goes_whole() -> None:
    key = "AGE-SECRET-KEY-1" + ("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L" * 2)[:58]
    assert REDACTOR.text(f"# created: 2024\n{key}\n") == f"# created: 2024\n{R}\n"


@pytest.mark.parametrize("text", UNCHANGED_TEXTS)
def test_what_only_looks_like_one_is_left_alone(text: str) -> None:
    assert REDACTOR.text(text) == text


def test_the_csv_is_found_when_read_numbers_its_lines() -> None:
    csv = f"User name,Password,Access key ID,Secret access key\nalice,Pw!1x,{KEY_ID},{SECRET_KEY}\n"
    numbered = "".join(f"{i:6d}\t{line}\n" for i, line in enumerate(csv.splitlines(), 1))
    out = REDACTOR.text(numbered)
    assert "Pw!1x" not in out and SECRET_KEY not in out
    assert out.splitlines()[1] == f"     2\talice,{R},{R},{R}"
