"""Made-up credentials of every format the redactor knows, and text that must stay as it is.

The values are well-formed (right prefix, length and alphabet) but random.
They are assembled at import time, so this file holds no literal that a
secret scanner would flag.
"""

from __future__ import annotations

import base64
import json
import random
import string
from dataclasses import dataclass

_ALNUM = string.ascii_letters + string.digits
_UPPER = string.ascii_uppercase + string.digits
_HEX = "0123456789abcdef"
_B64 = string.ascii_letters + string.digits + "+/"
_URLSAFE = string.ascii_letters + string.digits + "-_"


def _r(alphabet: str, n: int, seed: str) -> str:
    rnd = random.Random(seed)
    return "".join(rnd.choice(alphabet) for _ in range(n))


def _b64url(data: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()


@dataclass(frozen=True)
class Sample:
    """One credential as it appears in text, and the part that must never reach disk."""

    kind: str
    text: str
    secret: str


def _pem(label: str, seed: str) -> tuple[str, str]:
    body = "\n".join(_r(_B64, 64, f"{seed}{i}") for i in range(12)) + "\n" + _r(_B64, 20, seed)
    begin, end = "-----BEGIN " + label + "-----", "-----END " + label + "-----"
    return f"{begin}\n{body}=\n{end}", body


def _samples() -> list[Sample]:
    out: list[Sample] = []

    def add(kind: str, text: str, secret: str) -> None:
        assert secret in text, kind
        out.append(Sample(kind, text, secret))

    aws_id = "AK" + "IA" + _r(_UPPER, 16, "aws")
    add("aws-access-key-id", f"aws_access_key_id = {aws_id}", aws_id)
    sts_id = "AS" + "IA" + _r(_UPPER, 16, "sts")
    add("aws-session-key-id", f"AccessKeyId: {sts_id}", sts_id)
    aws_secret = _r(_B64, 40, "aws-secret")
    add("aws-secret-key", f"aws_secret_access_key = {aws_secret}", aws_secret)
    add("aws-secret-env", f"export AWS_SECRET_ACCESS_KEY={aws_secret[::-1]}", aws_secret[::-1])
    for prefix in ("ghp", "gho", "ghu", "ghs", "ghr"):
        token = prefix + "_" + _r(_ALNUM, 36, prefix)
        add(f"github-{prefix}", f"GITHUB_TOKEN used: {token}", token)
    pat = "github" + "_pat_" + _r(_ALNUM, 22, "pat1") + "_" + _r(_ALNUM, 59, "pat2")
    add("github-fine-grained", f"git clone https://x:{pat}@github.com/o/r", pat)
    for kind in ("b", "p", "a", "r"):
        token = f"xox{kind}-" + _r(string.digits, 12, kind) + "-" + _r(string.digits, 13, kind)
        token += "-" + _r(_ALNUM, 24, "slack" + kind)
        add(f"slack-xox{kind}", f"slack token {token} ok", token)
    app = "xa" + "pp-1-A" + _r(_UPPER, 10, "app") + "-" + _r(string.digits, 13, "app") + "-"
    app += _r(_HEX, 64, "apphex")
    add("slack-app", f"SLACK_APP_TOKEN={app}", app)
    hook_path = "T" + _r(_UPPER, 8, "t") + "/B" + _r(_UPPER, 8, "b") + "/" + _r(_ALNUM, 24, "h")
    add(
        "slack-webhook",
        f"curl -X POST https://hooks.slack.com/services/{hook_path} -d '{{}}'",
        hook_path,
    )
    gkey = "AI" + "za" + _r(_URLSAFE, 35, "google")
    add("google-api-key", f"https://maps.googleapis.com/maps/api/js?key={gkey}&v=3", gkey)
    glpat = "gl" + "pat-" + _r(_URLSAFE, 20, "gitlab")
    add("gitlab-pat", f'PRIVATE-TOKEN: {glpat}"', glpat)
    live = "sk" + "_live_" + _r(_ALNUM, 24, "stripe")
    add("stripe-secret", f"Stripe.api_key = '{live}'", live)
    restricted = "rk" + "_live_" + _r(_ALNUM, 24, "stripe-rk")
    add("stripe-restricted", f"key: {restricted}", restricted)
    stripe_test = "sk" + "_test_" + _r(_ALNUM, 24, "stripe-test")
    add("stripe-test", f"curl https://api.stripe.com/v1/charges -u {stripe_test}:", stripe_test)
    openai = "sk" + "-" + _r(_ALNUM, 48, "openai")
    add("openai-legacy", f"OPENAI={openai}", openai)
    proj = "sk" + "-proj-" + _r(_URLSAFE, 120, "proj")
    add("openai-project", f"client = OpenAI(api_key={proj!r})", proj)
    ant = "sk" + "-ant-api03-" + _r(_URLSAFE, 93, "anthropic") + "AA"
    add("anthropic", f"x-api-key: {ant}", ant)
    header = _b64url({"alg": "HS256", "typ": "JWT"})
    payload = _b64url({"sub": "1234567890", "name": "Jo Example", "iat": 1516239022})
    jwt = f"{header}.{payload}.{_r(_URLSAFE, 43, 'jwt')}"
    add("jwt", f"session cookie: {jwt}; Path=/", jwt)
    for label in ("RSA PRIVATE KEY", "OPENSSH PRIVATE KEY", "EC PRIVATE KEY", "PRIVATE KEY"):
        block, body = _pem(label, label)
        add(f"pem-{label.split()[0].lower()}", f"key file:\n{block}\nend of file", body)
    for scheme, user, host in (
        ("postgres", "app_user", "db.internal:5432/app"),
        ("mysql", "root", "localhost:3306/shop"),
        ("mongodb+srv", "admin", "cluster0.abcde.mongodb.net/test"),
        ("amqp", "guest", "rabbit:5672/vhost"),
    ):
        password = _r(_ALNUM + "!%*", 18, scheme)
        add(f"url-{scheme}", f"DATABASE_URL={scheme}://{user}:{password}@{host}", password)
    redis_pw = _r(_ALNUM, 20, "redis")
    add("url-redis-no-user", f"REDIS=redis://:{redis_pw}@cache:6379/0", redis_pw)
    curl_pw = "Adm1n!" + _r(_ALNUM, 10, "curl")
    add("curl-u", f"curl -u admin:{curl_pw} https://ci.example.com/api", curl_pw)
    curl_user = _r(_ALNUM, 16, "curl-user")
    add("curl-user", f"curl --user deploy:{curl_user} -X POST https://x.test", curl_user)
    bearer = _r(_URLSAFE, 40, "bearer") + "9"
    add("bearer-header", f"-H 'Authorization: Bearer {bearer}'", bearer)
    basic = base64.b64encode(b"admin:" + _r(_ALNUM, 12, "basic").encode()).decode()
    add("basic-header", f"Authorization: Basic {basic}", basic)
    gh_header = _r(_HEX, 40, "token-header")
    add("token-header", f'headers = {{"Authorization": "token {gh_header}"}}', gh_header)
    npm = "npm" + "_" + _r(_ALNUM, 36, "npm")
    add("npm", f"//registry.npmjs.org/:_authToken={npm}", npm)
    pypi = "py" + "pi-AgEIcHlwaS5vcmc" + _r(_URLSAFE, 70, "pypi")
    add("pypi", f"password = {pypi}", pypi)
    twilio_sid = "A" + "C" + _r(_HEX, 32, "twilio-sid")
    add("twilio-sid", f"account_sid = '{twilio_sid}'", twilio_sid)
    twilio_key = "S" + "K" + _r(_HEX, 32, "twilio-key")
    add("twilio-api-key", f"TWILIO_API_KEY={twilio_key}", twilio_key)
    twilio_token = _r(_HEX, 32, "twilio-token")
    add("twilio-auth-token", f"TWILIO_AUTH_TOKEN={twilio_token}", twilio_token)
    sendgrid = "S" + "G." + _r(_URLSAFE, 22, "sg1") + "." + _r(_URLSAFE, 43, "sg2")
    add("sendgrid", f"SENDGRID_KEY: {sendgrid}", sendgrid)
    heroku_uuid = "4f8a1c2e-7b3d-4e9f-a1b2-" + _r(_HEX, 12, "heroku")
    add("heroku-api-key", f"HEROKU_API_KEY={heroku_uuid}", heroku_uuid)
    heroku = "HR" + "KU-" + _r(_URLSAFE, 60, "hrku")
    add("heroku-token", f"heroku auth: {heroku}", heroku)
    account_key = _r(_B64, 86, "azure") + "=="
    add(
        "azure-storage",
        "DefaultEndpointsProtocol=https;AccountName=acct;"
        f"AccountKey={account_key};EndpointSuffix=core.windows.net",
        account_key,
    )
    env_pw = _r(_ALNUM, 14, "envpw")
    add("password-assignment", f"DB_PASSWORD={env_pw}", env_pw)
    yaml_secret = _r(_ALNUM, 24, "yaml")
    add("secret-yaml", f"client_secret: {yaml_secret}", yaml_secret)
    json_pw = _r(_ALNUM + "!#", 16, "json")
    add("password-json", f'{{"user": "bob", "password": "{json_pw}"}}', json_pw)
    token_kv = _r(_ALNUM, 32, "tokenkv")
    add("token-query", f"GET /api/export?token={token_kv}&format=csv", token_kv)
    cli = _r(_ALNUM, 16, "cli")
    add("cli-password", f"mysql -u root --password={cli} shop", cli)
    out.extend(_credential_file_samples())
    out.extend(_command_line_samples())
    return out


def _basic(user: str, password: str) -> str:
    return base64.b64encode(f"{user}:{password}".encode()).decode()


def _credential_file_samples() -> list[Sample]:
    npm_pw = _r(_ALNUM, 16, "npm-auth")
    npm_auth = _basic("deploy", npm_pw)
    registry_token = _r(_ALNUM, 40, "npm-registry-token")
    docker = _basic("ci-bot", _r(_ALNUM, 24, "docker"))
    podman = _basic("me", _r(_ALNUM + "!@#", 20, "podman"))
    csv_pw = "Pw" + _r(_ALNUM + "!*", 14, "csv-pw")
    csv_key_id = "AK" + "IA" + _r(_UPPER, 16, "csv-id")
    csv_secret = _r(_B64, 40, "csv-secret")
    keys_secret = _r(_B64, 40, "keys-secret")
    keys_id = "AK" + "IA" + _r(_UPPER, 16, "keys-id")
    discord_id = _r(string.digits, 18, "discord-id")
    discord = _r(_URLSAFE, 68, "discord")
    discordapp = _r(_URLSAFE, 68, "discordapp")
    telegram = "AA" + _r(_URLSAFE, 33, "telegram")
    telegram_url = "AA" + _r(_URLSAFE, 33, "telegram-url")
    age = "AGE-SECRET-KEY-1" + _r("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58, "age")
    return [
        Sample("npmrc-auth", f"_auth={npm_auth}\nalways-auth=true", npm_auth),
        Sample(
            "npmrc-registry-token",
            f"//npm.pkg.example.com/:_authToken={registry_token}",
            registry_token,
        ),
        Sample(
            "docker-config-auth",
            f'{{"auths": {{"registry.example.com": {{"auth": "{docker}"}}}}}}',
            docker,
        ),
        Sample("podman-auth-json", f'"quay.io": {{\n  "auth": "{podman}"\n}}', podman),
        Sample(
            "aws-console-csv-password",
            "User name,Password,Access key ID,Secret access key,Console login link\n"
            f"alice,{csv_pw},{csv_key_id},{csv_secret},"
            "https://123456789012.signin.aws.amazon.com/console",
            csv_pw,
        ),
        Sample(
            "aws-console-csv-secret-key",
            f"User name,Password,Access key ID,Secret access key\nbob,x,{csv_key_id},{csv_secret}",
            csv_secret,
        ),
        Sample(
            "aws-access-keys-csv",
            f"Access key ID,Secret access key\r\n{keys_id},{keys_secret}\r\n",
            keys_secret,
        ),
        Sample(
            "discord-webhook",
            f"curl -H 'Content-Type: application/json' "
            f"https://discord.com/api/webhooks/{discord_id}/{discord} -d @msg.json",
            discord,
        ),
        Sample(
            "discordapp-webhook",
            f"WEBHOOK = 'https://discordapp.com/api/webhooks/{discord_id}/{discordapp}'",
            discordapp,
        ),
        Sample("telegram-bot-token", f"bot = Bot(token='123456789:{telegram}')", telegram),
        Sample(
            "telegram-bot-url",
            f"https://api.telegram.org/bot7012345678:{telegram_url}/sendMessage",
            telegram_url,
        ),
        Sample("age-secret-key", f"# public key: age1qyqszqgpqyqszqgp\n{age}", age),
    ]


def _command_line_samples() -> list[Sample]:
    mysql = "My" + _r(_ALNUM + "!%", 14, "mysql")
    dump = "Dump " + _r(_ALNUM, 12, "mysqldump")
    maria = _r(_ALNUM, 16, "mariadb")
    sshpass = _r(_ALNUM + "!", 16, "sshpass")
    sshpass_glued = _r(_ALNUM, 16, "sshpass-glued")
    redis = _r(_ALNUM, 20, "redis-cli")
    pg = _r(string.ascii_letters, 14, "pgpassword")  # letters only: not mistaken for code
    pg_docker = _r(_ALNUM, 18, "postgres-password")
    mysql_pwd = _r(_ALNUM, 16, "mysql-pwd")
    curl_su = _r(_ALNUM, 18, "curl-su")
    curl_quoted = "two words " + _r(_ALNUM, 10, "curl-quoted")
    return [
        Sample("mysql-p", f"mysql -h db.internal -uroot -p{mysql} shop < dump.sql", mysql),
        Sample(
            "mysqldump-p-quoted", f"mysqldump -u backup -p'{dump}' --all-databases > all.sql", dump
        ),
        Sample("mariadb-p", f'mariadb-dump --user=root -p"{maria}" shop', maria),
        Sample("sshpass-p", f"sshpass -p {sshpass} ssh deploy@10.0.0.5 uptime", sshpass),
        Sample("sshpass-glued", f"sshpass -v -p{sshpass_glued} scp a.tgz host:", sshpass_glued),
        Sample("redis-cli-a", f"redis-cli -h cache -p 6379 -a {redis} ping", redis),
        Sample("pgpassword", f"PGPASSWORD={pg} psql -h db -U app", pg),
        Sample(
            "docker-env-password",
            f"docker run -e POSTGRES_PASSWORD={pg_docker} postgres:16",
            pg_docker,
        ),
        Sample("mysql-pwd-env", f"export MYSQL_PWD={mysql_pwd}", mysql_pwd),
        Sample("curl-clustered-u", f"curl -su ci:{curl_su} https://ci.example.com/api", curl_su),
        Sample("curl-u-quoted", f"curl -u 'ci:{curl_quoted}' https://x.example.com", curl_quoted),
    ]


SAMPLES: list[Sample] = _samples()

# One file a model might read: every sample, one after another.
SECRETS_FILE = "\n".join(f"# {s.kind}\n{s.text}" for s in SAMPLES) + "\n"

# Ordinary text that looks a little like a secret and must come out unchanged.
NEAR_MISSES: list[str] = [
    "tokens = 5",
    "max_tokens=8192",
    '{"max_tokens": 4096, "token_count": 12}',
    "password_field = forms.CharField(widget=forms.PasswordInput)",
    "def check_password(password: str) -> bool:",
    "connect(user=user, password=password)",
    "password = form['password']",
    "secret = os.environ['APP_SECRET']",
    "token: str = ''",
    "self.token = token",
    "api_key = get_api_key()",
    "apiKey: process.env.API_KEY",
    "TOKEN=$GITHUB_TOKEN",
    "password: ${DB_PASSWORD}",
    "password: the user's password, never logged",
    "KeyError: 'missing'",
    "commit 3f786850e387550fdab836ed7e6dc881de23001b",
    "sha256:" + _r(_HEX, 64, "sha"),
    "request 123e4567-e89b-12d3-a456-426614174000 done",
    "Basic settings are fine; the Bearer of news",
    "docker run -u 1000:1000 image",
    "risk-assessment-framework-version-2",
    "git@github.com:org/repo.git",
    "ssh://git@host:22/repo",
    "https://example.com:8080/path@anchor",
    "see https://docs.example.com/tokens/overview",
    "ask-me later",
    # command lines that prompt for the password, or name where it is
    "mysql -p",
    "mysql -u root -p shop",
    "mysql -P 3306 -h db.internal -u app shop",
    'mysql -u root -p"$MYSQL_PASSWORD" shop',
    "mysql -u root -p${MYSQL_ROOT_PASSWORD} -e 'show databases'",
    "mysqldump -p --all-databases > all.sql",
    "mysql -p; ls -la",
    "see mysql://db.internal:3306/shop",
    "sshpass -f ~/.sshpass ssh -p 2222 deploy@host",
    "sshpass -e ssh deploy@host",
    "redis-cli -h cache ping && ls -a /tmp",
    "redis-cli --askpass -h cache",
    "curl -u admin https://ci.example.com",
    "curl -sSL https://example.com/install.sh -o install.sh",
    "PGPASSWORD=$PGPASS psql -h db",
    "POSTGRES_PASSWORD_FILE=/run/secrets/pg",
    # files and ids that look like credentials and are not
    '{"auth": "oauth2", "auths": {}}',
    '"auth": "required"',
    "self._auth = auth",
    "_auth = None",
    "User name,Email,Team\nalice,alice@example.com,core",
    "User name, password and email are required.",
    "Access key ID,Created\nAKIA is the prefix,2024-01-01",
    "src/app.py:123456:AAAbstractFactory = make()",
    "https://discord.com/channels/123456789012345678/987654321098765432",
    "AGE-SECRET-KEY-1 is how an age identity starts",
]
