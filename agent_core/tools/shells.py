"""Background shells started by `Bash(run_in_background=true)`: one registry per session.

Each shell's whole output goes to a log file under the session's tool-results/
folder; BashOutput reads what is new since its last call, in bounded pieces.
The log is private (0600) and redacted as it is written, so BashOutput reads
the redacted text; what is held back for a secret split between two reads
is written out before each read.
"""

from __future__ import annotations

import asyncio
import codecs
import os
import re
import time
import uuid
from pathlib import Path
from typing import Any

from agent_core.fsutil import open_private, private_dir
from agent_core.sandbox.policy import SandboxPolicy
from agent_core.session.redact import Redactor
from agent_core.tools.base import ToolError
from agent_core.tools.bash_live import LiveTail
from agent_core.tools.procgroup import GroupProcess

EXIT_DRAIN_S = 0.5  # after exit, how long to keep reading what is left in the pipe
HEAD_SHARE = 0.4


class BackgroundShell:
    """One command running in the background, its log file and read position."""

    def __init__(
        self,
        shell_id: str,
        command: str,
        proc: GroupProcess,
        log_path: Path,
        redactor: Redactor | None = None,
        findings: list[str] | None = None,
    ) -> None:
        self.id = shell_id
        self._findings_sink = findings
        self.command = command
        self.proc = proc
        self.log_path = log_path
        self.started = time.monotonic()
        self.killed = False
        self._reported = False
        self._offset = 0
        self._log = os.fdopen(open_private(log_path, os.O_WRONLY | os.O_TRUNC), "wb")
        # Undecodable bytes pass through to the log unchanged.
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="surrogateescape")
        self._redacting = (redactor or Redactor()).stream()
        self.tail = LiveTail()  # its last lines (redacted, as the log), for a front end
        self._pump = asyncio.create_task(self._copy_output())
        self._watch = asyncio.create_task(self._watch_exit())

    @property
    def running(self) -> bool:
        return not self.proc.exited

    def status(self) -> str:
        """running (N s) / exited N / killed."""
        if self.running:
            return f"running ({int(time.monotonic() - self.started)} s)"
        if self.killed:
            return "killed"
        return f"exited {self.proc.returncode}"

    def live_output(self) -> tuple[str, int]:
        """Its last lines as a person watching sees them, and how many characters it has
        printed: with what the redactor still holds back for the log (redacted as far as
        it can tell yet), so a slow command's newest lines show before the log has them."""
        held = self._redacting.pending()
        return self.tail.text(held), self.tail.total_chars + len(held)

    def read_new(self, limit_chars: int, pattern: re.Pattern[str] | None) -> str:
        """Output written since the last call (bounded), matching pattern if given."""
        self._write_log(self._redacting.flush())
        end = self.log_path.stat().st_size
        where = f"; full output in {self.log_path} ...\n\n"
        with open(self.log_path, "rb") as fh:
            fh.seek(self._offset)
            if pattern is None:
                text, self._offset = _read_span(
                    fh, self._offset, end, limit_chars, self.running, where
                )
            else:
                text, self._offset = _grep_span(
                    fh, self._offset, end, limit_chars, pattern, self.running, where
                )
        return text

    async def settle(self) -> None:
        """Once exited, wait briefly for the last output to reach the log."""
        if not self.running and not self._pump.done():
            await asyncio.wait({self._pump}, timeout=EXIT_DRAIN_S)

    async def kill(self) -> None:
        """Kill the shell's whole process group."""
        if self.running:
            self.killed = True
            await self.proc.kill_group()
        await self._finish_output()

    async def _copy_output(self) -> None:
        try:
            while chunk := await self.proc.read():
                self._write_log(self._redacting.feed(self._decoder.decode(chunk)))
        finally:
            rest = self._redacting.feed(self._decoder.decode(b"", final=True))
            self._write_log(rest + self._redacting.flush())
            self._log.close()

    def _write_log(self, text: str) -> None:
        if not text or self._log.closed:
            return
        self.tail.feed_text(text)
        try:
            self._log.write(text.encode("utf-8", "surrogateescape"))
            self._log.flush()  # BashOutput reads the file while we write it
        except OSError:
            pass  # disk full: the log stops short; the command goes on

    async def _watch_exit(self) -> None:
        await self.proc.wait_exit()
        await self._finish_output()

    async def _finish_output(self) -> None:
        # A grandchild left running may hold the pipe open: stop reading after a moment.
        await asyncio.wait({self._pump}, timeout=EXIT_DRAIN_S)
        if not self._pump.done():
            self._pump.cancel()
        self.proc.close()
        if self._findings_sink is not None and not self._reported:
            self._reported = True
            self._findings_sink.extend(self.proc.guard_findings)


def _read_span(
    fh: Any, start: int, end: int, limit: int, running: bool, where: str
) -> tuple[str, int]:
    """Decode bytes start..end, keeping head and tail if longer than limit."""
    size = end - start
    if size <= limit:
        data = fh.read(size)
        if running:
            data = data[: len(data) - _partial_utf8(data)]  # finish the character next time
        return data.decode("utf-8", "replace"), start + len(data)
    head_n = int(limit * HEAD_SHARE)
    tail_n = limit - head_n
    head = fh.read(head_n).decode("utf-8", "replace")
    fh.seek(end - tail_n)
    tail = fh.read(tail_n).decode("utf-8", "replace")
    note = f"\n\n... {size - head_n - tail_n} bytes omitted{where}"
    return head + note + tail, end


def _grep_span(
    fh: Any, start: int, end: int, limit: int, pattern: re.Pattern[str], running: bool, where: str
) -> tuple[str, int]:
    """Lines in start..end matching pattern (bounded); non-matching lines are consumed."""
    head: list[str] = []
    tail: list[str] = []
    head_chars = tail_chars = dropped = 0
    pos = start
    while pos < end:
        raw = fh.readline(min(end - pos, 1 << 20))
        if not raw:
            break
        if running and not raw.endswith(b"\n") and pos + len(raw) >= end:
            break  # a line still being written: match it once complete
        pos += len(raw)
        line = raw.decode("utf-8", "replace")
        if not pattern.search(line):
            continue
        if head_chars + len(line) <= limit * HEAD_SHARE and not tail:
            head.append(line)
            head_chars += len(line)
            continue
        tail.append(line)
        tail_chars += len(line)
        while tail_chars > limit * (1 - HEAD_SHARE) and len(tail) > 1:
            tail_chars -= len(tail[0])
            dropped += 1
            tail.pop(0)
    text = "".join(head)
    if dropped:
        text += f"\n... {dropped} matching lines omitted{where}"
    return text + "".join(tail), pos


def _partial_utf8(data: bytes) -> int:
    """How many trailing bytes form an incomplete UTF-8 character."""
    for back in range(1, min(4, len(data)) + 1):
        byte = data[-back]
        if byte & 0xC0 != 0x80:  # a lead byte (or ASCII)
            need = (
                2
                if byte >> 5 == 0b110
                else 3
                if byte >> 4 == 0b1110
                else 4
                if byte >> 3 == 0b11110
                else 1
            )
            return back if need > back else 0
    return 0


class ShellRegistry:
    """The session's background shells, by id (bash_1, bash_2, ...)."""

    def __init__(self) -> None:
        self._shells: dict[str, BackgroundShell] = {}
        self._count = 0
        self.findings: list[str] = []  # what the sandbox's guard undid as shells ended

    async def start(
        self,
        command: str,
        cwd: Path,
        env: dict[str, str] | None,
        log_dir: Path,
        sandbox: SandboxPolicy | None = None,
    ) -> BackgroundShell:
        """Start a command in the background (confined by sandbox, if given) and register it."""
        self._count += 1
        shell_id = f"bash_{self._count}"
        log_path = log_dir / f"shell-{shell_id}-{uuid.uuid4().hex[:8]}.log"
        try:
            private_dir(log_dir)
            os.close(open_private(log_path, os.O_WRONLY))
        except OSError as exc:
            raise ToolError(f"cannot create the shell's log file: {exc.strerror or exc}") from None
        proc = await GroupProcess.start(command, cwd, env, sandbox)
        shell = BackgroundShell(shell_id, command, proc, log_path, findings=self.findings)
        self._shells[shell_id] = shell
        return shell

    def get(self, shell_id: str) -> BackgroundShell:
        """The shell with this id; a ToolError naming the known ids otherwise."""
        shell = self._shells.get(shell_id.strip())
        if shell is None:
            known = ", ".join(self._shells) or "none"
            raise ToolError(f"no background shell {shell_id!r} (known: {known})")
        return shell

    def shells(self) -> list[BackgroundShell]:
        return list(self._shells.values())

    async def close_all(self) -> None:
        """Kill every shell still running (at session end)."""
        await asyncio.gather(*(s.kill() for s in self._shells.values()), return_exceptions=True)
