"""How a ``!`` command is written into the history, and read back for a resumed view.

The model reads a command the user ran as one user message in the tags Claude Code
uses: ``<bash-input>`` with the command, ``<bash-stdout>`` with what it printed (stdout
and stderr together, as the Bash tool gives them), ``<bash-stderr>`` with why it did not
run, if it did not. An assistant note follows it, since the history alternates and ends
with the assistant after every turn (a session file with two user messages in a row is
repaired when read).
"""

from __future__ import annotations

import re

from agent_core.messages import Message, TextBlock

_SHELL = re.compile(
    r"<bash-input>(?P<command>.*?)</bash-input>\n"
    r"<bash-stdout>(?P<stdout>.*)</bash-stdout><bash-stderr>(?P<stderr>.*)</bash-stderr>",
    re.DOTALL,
)


SHELL_ACK = "(The user ran this command themselves; nothing to answer.)"


def shell_context(command: str, output: str, *, ran: bool) -> list[Message]:
    """The messages the model reads: the user's, with the command and its output or why it
    did not run, and the assistant's note after it."""
    stdout, stderr = (output, "") if ran else ("", output)
    text = (
        f"<bash-input>{command}</bash-input>\n"
        f"<bash-stdout>{stdout}</bash-stdout><bash-stderr>{stderr}</bash-stderr>"
    )
    return [
        Message(role="user", content=[TextBlock(text)]),
        Message(role="assistant", content=[TextBlock(SHELL_ACK)]),
    ]


def is_shell_ack(message: Message) -> bool:
    """The assistant's note after a ``!`` command's message."""
    return message.role == "assistant" and message.text() == SHELL_ACK


def read_shell_context(message: Message) -> tuple[str, str, bool] | None:
    """(command, output, whether it ran) of a message ``shell_context`` wrote, else None."""
    if message.role != "user" or len(message.content) != 1:
        return None
    block = message.content[0]
    if not isinstance(block, TextBlock):
        return None
    found = _SHELL.fullmatch(block.text)
    if found is None:
        return None
    stderr = found["stderr"]
    return found["command"], stderr or found["stdout"], not stderr
