"""The shell analyzer: what a Bash command line would run, read from its text alone.

``analyze(command) -> ShellFacts`` is the entry point; README.md in this folder
describes the model.
"""

from agent_core.permissions.shell.facts import CommandFacts, ShellFacts, analyze
from agent_core.permissions.shell.model import ParsedCommand, Redirect, SimpleCommand, Word
from agent_core.permissions.shell.parse import parse_command

__all__ = [
    "CommandFacts",
    "ParsedCommand",
    "Redirect",
    "ShellFacts",
    "SimpleCommand",
    "Word",
    "analyze",
    "parse_command",
]
