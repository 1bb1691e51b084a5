"""The permission engine: blacklist, sandbox, rules and mode, decided purely from data."""

from agent_core.permissions.check import (
    check_json,
    policy_from_settings,
    run_check,
    tool_profile,
)
from agent_core.permissions.cli_rules import cli_rules, split_rules
from agent_core.permissions.engine import (
    PermissionPolicy,
    PermissionRequest,
    PermissionVerdict,
    decide,
    suggest_rules,
)
from agent_core.permissions.modes import PLAN_REASON
from agent_core.permissions.rules import parse_rule, rule_problem
from agent_core.permissions.shell.parse import ParsedCommand, SimpleCommand, parse_command

__all__ = [
    "PLAN_REASON",
    "ParsedCommand",
    "PermissionPolicy",
    "PermissionRequest",
    "PermissionVerdict",
    "SimpleCommand",
    "check_json",
    "cli_rules",
    "decide",
    "parse_command",
    "parse_rule",
    "policy_from_settings",
    "rule_problem",
    "run_check",
    "split_rules",
    "suggest_rules",
    "tool_profile",
]
