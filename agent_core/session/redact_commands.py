"""Passwords given on command lines, as the redactor finds them.

``curl -u user:pw`` (and wget, httpie), ``--password pw`` and its kin,
``mysql -pPW`` (the MySQL and MariaDB clients), ``sshpass -p PW`` and
``redis-cli -a PW``. ``mysql -p`` alone, or ``-p`` then a space, prompts for
the password: nothing to redact there. A value that is a placeholder
(``-p"$PW"``, ``--token $T``) stays.
"""

from __future__ import annotations

from agent_core.session.redact_match import (
    SHELL_VALUE,
    SHELL_VALUE_GROUPS,
    Check,
    Format,
    Found,
    both,
    left_edge,
    literal_value,
)


def _cli_value(found: Found, text: str) -> bool:
    """``--password-file PATH`` says where a secret is; ``--token $T`` is a placeholder."""
    if (found.group("opt") or "").endswith(("file", "path", "env", "stdin", "fd", "cmd")):
        return False
    return literal_value(found, text)


def _program(prefix: str) -> Check:
    """The lead finishes a program's name that starts with ``prefix`` ("m" + "ysql").

    The name starts a word: at the start, or after a space, quote, ``/`` (a
    path), or a shell operator; not inside a longer word such as ``mymysql``.
    """

    def check(found: Found, text: str) -> bool:
        start = found.start() - len(prefix)
        if start < 0 or text[start : found.start()] != prefix:
            return False
        return start == 0 or not (text[start - 1].isalnum() or text[start - 1] in "_-.")

    return check


# The arguments between a program and its password option: words and quoted
# strings, up to the end of the command (a newline not escaped, ``|``, ``;``, ``&``).
_ARGUMENTS = r"(?:[^\n|;&'\"]|'[^'\n]{0,512}'|\"[^\"\n]{0,512}\"|\\\r?\n){0,1024}?"
_USER_PASSWORD = (
    r"(?:'[^\s:'\\]{0,256}:(?P<q1>[^'\n]{1,512})'"
    r"|\"[^\s:\"\\]{0,256}:(?P<q2>[^\"\n\\]{1,512})\\?\""
    r"|\\?[\"']?[^\s:\"'\\]{0,256}:(?P<secret>[^\s\"'\\]{1,512}))"
)

COMMAND_LINE_FORMATS: tuple[Format, ...] = (
    # curl -u user:pw (-su, --user=), wget --user, httpie -a user:pw
    *(
        Format(
            "command-user-password",
            lead,
            r"[^\n]{0,2000}?\s(?:-[A-Za-z]{0,8}u|--user|--proxy-user|-a|--auth|--http-user)"
            rf"(?:[ \t]{{1,16}}|=)?{_USER_PASSWORD}",
            both(left_edge, literal_value),
            secrets=("q1", "q2", "secret"),
        )
        for lead in ("curl", "wget", "http ", "https ")
    ),
    # --password hunter2 (-p alone is too common to be a sign, but see mysql below)
    *(
        Format(
            "cli-option",
            lead,
            rf"(?P<opt>(?:word|phrase)?(?:[\-_][\w\-]{{0,20}})?)[ =]{SHELL_VALUE}",
            _cli_value,
            secrets=SHELL_VALUE_GROUPS,
        )
        for lead in ("--pass", "--token", "--secret", "--api-key", "--apikey", "--auth-token")
    ),
    # mysql -pPW, mysqldump -p'PW', mariadb-dump -p"PW": the password is glued to -p
    *(
        Format(
            "mysql-password",
            lead,
            rf"{suffix}(?=[ \t]){_ARGUMENTS}[ \t]-p{SHELL_VALUE}",
            both(_program("m"), literal_value),
            secrets=SHELL_VALUE_GROUPS,
        )
        for lead, suffix in (("ysql", r"[a-z_]{0,12}"), ("ariadb", r"(?:-[a-z]{1,12})?"))
    ),
    # sshpass -p PW / -pPW, after any of its other options (-v, -e, -f FILE, -P PROMPT)
    Format(
        "sshpass-password",
        "sshpass",
        r"(?:[ \t]{1,16}-[evhV]{0,4}[fdP][ \t]{0,16}[^\s]{1,512}|[ \t]{1,16}-[evhV]{1,4}){0,8}"
        rf"[ \t]{{1,16}}-[evhV]{{0,4}}p[ \t]{{0,16}}{SHELL_VALUE}",
        both(_program(""), literal_value),
        secrets=SHELL_VALUE_GROUPS,
    ),
    # redis-cli -h host -a PW (its -a takes the next word)
    Format(
        "redis-cli-password",
        "redis-cli",
        rf"(?=[ \t]){_ARGUMENTS}[ \t]-a[ \t]{{1,16}}{SHELL_VALUE}",
        both(_program(""), literal_value),
        secrets=SHELL_VALUE_GROUPS,
    ),
)
