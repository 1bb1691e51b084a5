"""The shell analyzer: what a Bash command line would run, read from its text alone.

See README.md in this folder for the model.
"""

from agent_core.permissions.shell.model import ParsedCommand, Redirect, SimpleCommand, Word
from agent_core.permissions.shell.parse import parse_command

__all__ = ["ParsedCommand", "Redirect", "SimpleCommand", "Word", "parse_command"]
