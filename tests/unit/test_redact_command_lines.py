"""Passwords on command lines are redacted; the same programs prompting for one are left alone."""

from __future__ import annotations

import pytest

from agent_core.session.redact import REDACTED, Redactor

REDACTOR = Redactor({})
R = REDACTED

# (text, what is written to disk)
REDACTED_LINES = [
    ("mysql -uroot -pS3cret! shop", f"mysql -uroot -p{R} shop"),
    ("mysql -h db -u app -p'two words' shop", f"mysql -h db -u app -p'{R}' shop"),
    ('mysqldump -u root -p"pa ss" --all-databases', f'mysqldump -u root -p"{R}" --all-databases'),
    ("/usr/bin/mysqladmin -u root -phunter22 status", f"/usr/bin/mysqladmin -u root -p{R} status"),
    (
        "docker exec db mysql -uroot -pRootPw1 -e 'select 1'",
        f"docker exec db mysql -uroot -p{R} -e 'select 1'",
    ),
    ("mysql -e 'select 1; select 2' -pAfterQ1", f"mysql -e 'select 1; select 2' -p{R}"),
    ("mysql -u root \\\n  -pOnNextLine1 shop", f"mysql -u root \\\n  -p{R} shop"),
    ("mariadb -u root -pMaria123 shop", f"mariadb -u root -p{R} shop"),
    ("mariadb-dump -u root -pMaria123 shop", f"mariadb-dump -u root -p{R} shop"),
    ("mysql --password=Plain123 shop", f"mysql --password={R} shop"),
    ("mysql --password 'with space' shop", f"mysql --password '{R}' shop"),
    ("sshpass -p S3cretPw ssh host", f"sshpass -p {R} ssh host"),
    ("sshpass -pGlued123 ssh host", f"sshpass -p{R} ssh host"),
    ("sshpass -v -P assword: -p 'a b c' ssh host", f"sshpass -v -P assword: -p '{R}' ssh host"),
    ("sshpass -vp Clustered1 ssh host", f"sshpass -vp {R} ssh host"),
    ("redis-cli -h cache -a RedisPw1 ping", f"redis-cli -h cache -a {R} ping"),
    ("redis-cli -a 'p@ss word' --no-auth-warning", f"redis-cli -a '{R}' --no-auth-warning"),
    ("redis-cli --pass RedisPw2 ping", f"redis-cli --pass {R} ping"),
    ("PGPASSWORD=postgres psql -h db", f"PGPASSWORD={R} psql -h db"),
    ("PGPASSWORD=hunter2 psql -h db", f"PGPASSWORD={R} psql -h db"),
    ("PGPASSWORD='pa ss' pg_dump shop", f"PGPASSWORD='{R}' pg_dump shop"),
    (
        "docker run -e POSTGRES_PASSWORD=secret postgres",
        f"docker run -e POSTGRES_PASSWORD={R} postgres",
    ),
    (
        "MYSQL_ROOT_PASSWORD=changeMe docker compose up",
        f"MYSQL_ROOT_PASSWORD={R} docker compose up",
    ),
    ("export MYSQL_PWD=Sup3rSecret", f"export MYSQL_PWD={R}"),
    ("SSHPASS=Sup3rSecret sshpass -e ssh host", f"SSHPASS={R} sshpass -e ssh host"),
    ("curl -u admin:S3cret https://x", f"curl -u admin:{R} https://x"),
    ("curl -su admin:S3cret https://x", f"curl -su admin:{R} https://x"),
    ("curl -fsSLu admin:S3cret https://x", f"curl -fsSLu admin:{R} https://x"),
    ("curl --user=admin:S3cret https://x", f"curl --user=admin:{R} https://x"),
    ("curl --user admin:S3cret https://x", f"curl --user admin:{R} https://x"),
    ("curl -u 'admin:two words' https://x", f"curl -u 'admin:{R}' https://x"),
    ('curl -u "admin:two words" https://x', f'curl -u "admin:{R}" https://x'),
]

# Prompts, placeholders, ports and lookalikes: unchanged.
UNCHANGED_LINES = [
    "mysql -p",
    "mysql -p shop",
    "mysql -u root -p -h db shop",
    "mysql -P 3306 -u root shop",
    "mysql --port=3306 -u root",
    "mysql -u root -p$MYSQL_PWD shop",
    'mysql -u root -p"${DB_PASSWORD}" shop',
    "mysql -u root -p$(cat /run/secrets/db) shop",
    "mysql -p; ls -pl",
    "mysql -e 'select -pnot_a_password' shop",
    "mysql shop | grep -e foo",
    "mymysql -pNotOurs",
    "mysql_config --cflags",
    "the mysql server, then mkdir -p /tmp/x",
    "sshpass -f ~/.pw ssh -p 2222 host",
    "sshpass -d 3 ssh host",
    "sshpass -e ssh -p 22 host",
    "sshpass -p $SSHPASS ssh host",
    "redis-cli -h cache ping",
    "redis-cli info; ls -a /tmp",
    "redis-cli -a $REDIS_PASSWORD ping",
    "redis-cli --askpass ping",
    "PGPASSWORD=$PGPASSWORD psql",
    'PGPASSWORD="${PW}" psql',
    "PGPASSFILE=~/.pgpass psql",
    "POSTGRES_PASSWORD_FILE=/run/secrets/pg",
    "curl -u admin https://x",
    "curl -u admin: https://x",
    "curl -u $USER:$TOKEN https://x",
    "curl -o out.txt https://x",
    "curl -X POST --data-urlencode 'q=a:b' https://x",
]


@pytest.mark.parametrize(("text", "expected"), REDACTED_LINES, ids=[t for t, _ in REDACTED_LINES])
def test_a_password_on_a_command_line_is_redacted(text: str, expected: str) -> None:
    assert REDACTOR.text(text) == expected


@pytest.mark.parametrize("text", UNCHANGED_LINES)
def test_a_command_line_without_a_password_is_left_alone(text: str) -> None:
    assert REDACTOR.text(text) == text


def test_the_password_is_found_in_a_numbered_read_of_a_script() -> None:
    script = "#!/bin/sh\nset -e\nmysql -u root \\\n  -pInScript9 shop < schema.sql\n"
    numbered = "".join(f"{i:6d}\t{line}\n" for i, line in enumerate(script.splitlines(), 1))
    out = REDACTOR.text(numbered)
    assert "InScript9" not in out and f"-p{R} shop" in out
