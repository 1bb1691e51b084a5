"""The secret redactor on a 10 MB tool output (docs/benchmarks.md#benchmarks: at most 50 ms per MB).

The text mixes Python code, log lines (hex ids, UUIDs, IPs), JSON, base64
data, non-ASCII prose and a few secrets. Baseline, measured in the same run
over the same text: a plain ``re.sub`` of one simple pattern. Both one-shot
redaction and the streaming form used for spill files (64 KB chunks) are
timed. Run: ``python -m bench.bench_redact``.
"""

from __future__ import annotations

import base64
import hashlib
import random
import re
import uuid

from bench.common import info, interleaved, median, report

SIZE_MB = 10
TARGET_MS_PER_MB = 50.0
CHUNK = 64 * 1024
REPEAT = 5

_CODE = '''def handle_request(self, request, tokens=5):
    """Process one request and return the response."""
    password_field = forms.CharField(widget=forms.PasswordInput)
    max_tokens = request.get("max_tokens", 4096)
    api_key = settings.get_api_key()
    for i, item in enumerate(self.items):
        if item.key == key and not item.expired:
            return Response(item.value, status=200, headers={"Authorization": auth})
    raise KeyError(f"missing {key!r} in cache ({len(self.items)} items)")
'''


def build_text(size_mb: int = SIZE_MB, seed: int = 7) -> str:
    """A tool output of about ``size_mb`` MB with a secret every ~200 KB."""
    rnd = random.Random(seed)
    secrets = [
        "AKIA" + "".join(rnd.choices("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", k=16)),
        "ghp_" + "".join(rnd.choices("abcdefghijklmnopqrstuvwxyzABCDEF0123456789", k=36)),
        "postgres://app:" + "".join(rnd.choices("abcdef0123456789", k=20)) + "@db:5432/app",
        "Authorization: Bearer " + "".join(rnd.choices("abcdef0123456789", k=40)),
        "DB_PASSWORD=" + "".join(rnd.choices("abcdefXYZ0123456789", k=16)),
    ]
    parts: list[str] = []
    size = 0
    target = size_mb * 1_000_000
    n = 0
    while size < target:
        pick = rnd.random()
        if pick < 0.35:
            part = _CODE
        elif pick < 0.7:
            part = "".join(
                f"2026-05-09T07:35:{i % 60:02d}.123Z INFO [worker-{i % 8}] GET /api/v1/items/"
                f"{uuid.UUID(int=rnd.getrandbits(128))} 200 12ms ip=10.0.{i % 255}.{i % 7} "
                f"commit={hashlib.sha1(str(n + i).encode()).hexdigest()}\n"
                for i in range(20)
            )
        elif pick < 0.85:
            part = (
                f'{{"id": "{uuid.UUID(int=rnd.getrandbits(128))}", "name": "item {n}", '
                f'"score": 0.{n % 97}, "token_count": {n % 9999}}}\n'
            ) * 10
        elif pick < 0.95:
            part = "data:image/png;base64," + base64.b64encode(rnd.randbytes(3000)).decode() + "\n"
        else:
            part = "Ünïcödé prose — «quotes», 日本語, and the basic idea of a bearer.\n" * 5
        if n % 60 == 0:
            part += secrets[(n // 60) % len(secrets)] + "\n"
        parts.append(part)
        size += len(part)
        n += 1
    return "".join(parts)


def main() -> bool:
    from agent_core.session.redact import REDACTED, Redactor

    text = build_text()
    mb = len(text.encode()) / 1_000_000
    redactor = Redactor({})
    simple = re.compile(r"sk-[A-Za-z0-9]{20,}")

    def streamed() -> str:
        stream = redactor.stream()
        out = [stream.feed(text[i : i + CHUNK]) for i in range(0, len(text), CHUNK)]
        return "".join([*out, stream.flush()])

    one_shot = redactor.text(text)  # also compiles the table outside the timing
    assert one_shot.count(REDACTED) >= 5, "the bench text's secrets were not found"
    assert streamed() == one_shot, "streaming and one-shot redaction differ"
    times = interleaved(
        {
            "baseline": lambda: simple.sub(REDACTED, text),
            "redact": lambda: redactor.text(text),
            "stream": streamed,
        },
        repeat=REPEAT,
    )
    base = median(times["baseline"]) * 1000 / mb
    ours = median(times["redact"]) * 1000 / mb
    stream = median(times["stream"]) * 1000 / mb
    info(f"redact input ({mb:.1f} MB, {one_shot.count(REDACTED)} secrets)", mb, "MB")
    info("redact one-shot", ours, "ms/MB")
    info("redact streaming (64 KB chunks)", stream, "ms/MB")
    info("re.sub of one pattern", base, "ms/MB")
    report(
        "redact vs one re.sub",
        ours,
        base,
        TARGET_MS_PER_MB / base,
        baseline_name="re.sub",
        unit="ms/MB",
    )
    ok = max(ours, stream) <= TARGET_MS_PER_MB
    print(
        f"redact: {max(ours, stream):.1f} ms/MB (target <= {TARGET_MS_PER_MB:.0f} ms/MB) "
        f"{'OK' if ok else 'MISS'}",
        flush=True,
    )
    return ok


if __name__ == "__main__":
    main()
