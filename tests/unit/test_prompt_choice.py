"""``--system-prompt`` replaces MewCode's text but keeps what the runtime needs said."""

from __future__ import annotations

from pathlib import Path

from agent_core.agent.prompt import RUNTIME_NOTES, STABLE_PROMPT, PromptChoice, system_blocks


def texts(choice: PromptChoice, mode: str = "default") -> tuple[str, str]:
    stable, env = system_blocks(Path("/p"), mode, git="git: clean", choice=choice)
    return stable.text, env.text


def test_mewcodes_own_prompt_is_unchanged_without_flags() -> None:
    assert texts(PromptChoice())[0] == STABLE_PROMPT


def test_a_replaced_prompt_keeps_the_runtime_notes_and_the_environment() -> None:
    stable, env = texts(PromptChoice(replace="Be a pirate."), mode="plan")
    assert stable.startswith("Be a pirate.") and RUNTIME_NOTES in stable
    assert "You are MewCode" not in stable
    assert "working directory (project root): /p" in env and "Plan mode is active" in env


def test_appended_text_comes_last_in_the_cached_block() -> None:
    stable, _ = texts(PromptChoice(append="Answer in French."))
    assert stable.startswith(STABLE_PROMPT) and stable.rstrip().endswith("Answer in French.")
