"""Choosing and building a provider from settings and environment variables."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_core.config.settings import Settings
from agent_core.errors import ProviderError
from agent_core.llm.factory import detect_provider, make_provider


@pytest.mark.parametrize(
    ("settings", "env", "expected"),
    [
        (Settings(), {}, None),
        (Settings(), {"ANTHROPIC_API_KEY": "a"}, "anthropic"),
        (Settings(), {"OPENAI_API_KEY": "o"}, "openai"),
        (Settings(), {"OPENAI_BASE_URL": "http://localhost:11434/v1"}, "openai"),
        (Settings(base_url="http://localhost:8000/v1"), {}, "openai"),
        (Settings(), {"ANTHROPIC_API_KEY": "a", "OPENAI_API_KEY": "o"}, "anthropic"),
        (Settings(provider="openai"), {"ANTHROPIC_API_KEY": "a"}, "openai"),
        (Settings(provider="openai"), {"MEWCODE_PROVIDER": "Anthropic"}, "anthropic"),
        (Settings(provider="demo"), {}, "demo"),
    ],
)
def test_detect_provider(settings: Settings, env: dict, expected: str | None) -> None:
    assert detect_provider(settings, env) == expected


def test_default_models_and_settings_are_respected(tmp_path: Path) -> None:
    anthropic = make_provider("anthropic", None, settings=Settings(),
                              env={"ANTHROPIC_API_KEY": "k"}, cwd=tmp_path)  # fmt: skip
    assert (anthropic.name, anthropic.model) == ("anthropic", "claude-sonnet-4-6")
    settings = Settings(base_url="http://127.0.0.1:9/v1", api_key_env="MY_KEY")
    openai = make_provider("openai", "qwen3-coder", settings=settings, env={"MY_KEY": "s"},
                           cwd=tmp_path)  # fmt: skip
    assert (openai.name, openai.model, openai.base_url) == ("openai", "qwen3-coder",
                                                            "http://127.0.0.1:9/v1")  # fmt: skip


def test_missing_key_says_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(ProviderError) as info:
        make_provider("anthropic", None, settings=Settings(), env={}, cwd=tmp_path)
    assert info.value.kind == "not_configured"
    assert "ANTHROPIC_API_KEY" in str(info.value) and "mewcode --demo" in str(info.value)


@pytest.mark.parametrize(
    ("name", "settings", "says", "not_said"),
    [
        ("openai", Settings(), ["for OpenAI", "OPENAI_API_KEY", "OPENAI_BASE_URL"], "ANTHROPIC"),
        ("anthropic", Settings(), ["for Anthropic", "ANTHROPIC_API_KEY"], "OPENAI"),
        ("openai", Settings(api_key_env="MY_KEY"), ["for OpenAI", "set MY_KEY"], "ANTHROPIC"),
    ],
)
def test_missing_key_names_the_chosen_providers_key(
    tmp_path: Path, name: str, settings: Settings, says: list[str], not_said: str
) -> None:
    # `/model openai:gpt-4o` without an OpenAI key: the OpenAI key is what is missing.
    with pytest.raises(ProviderError) as info:
        make_provider(name, "m", settings=settings, env={"MEWCODE_HOME": str(tmp_path)},
                      cwd=tmp_path)  # fmt: skip
    message = str(info.value)
    assert all(part in message for part in says), message
    assert not_said not in message


def test_local_openai_compatible_server_needs_no_key(tmp_path: Path) -> None:
    provider = make_provider("openai", "llama3", settings=Settings(),
                             env={"OPENAI_BASE_URL": "http://localhost:11434/v1"}, cwd=tmp_path)  # fmt: skip
    assert provider.base_url == "http://localhost:11434/v1"


def test_unknown_provider_name_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ProviderError, match="unknown provider 'gemini'"):
        make_provider("gemini", None, settings=Settings(), env={}, cwd=tmp_path)


def test_demo_provider_needs_no_key(tmp_path: Path) -> None:
    provider = make_provider("demo", None, settings=Settings(), env={}, cwd=tmp_path)
    assert provider.name == "demo"


@pytest.mark.slow
def test_building_a_provider_does_not_import_the_sdk(tmp_path: Path) -> None:
    import subprocess
    import sys

    code = (
        "import sys; from pathlib import Path\n"
        "from agent_core.config.settings import Settings\n"
        "from agent_core.llm.factory import make_provider\n"
        "make_provider('anthropic', None, settings=Settings(), env={'ANTHROPIC_API_KEY': 'k'}, cwd=Path('.'))\n"
        "make_provider('openai', None, settings=Settings(), env={'OPENAI_API_KEY': 'k'}, cwd=Path('.'))\n"
        "print('anthropic' in sys.modules, 'openai' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2])  # fmt: skip
    assert out.stdout.split() == ["False", "False"]


def test_a_key_saved_by_the_setup_screen_is_used_when_the_env_has_none(tmp_path) -> None:
    from agent_core.config.settings import Settings
    from agent_core.llm.factory import detect_provider, make_provider

    (tmp_path / "credentials.yaml").write_text("openai: {api_key: sk-saved}\n")
    env = {"MEWCODE_HOME": str(tmp_path)}
    assert detect_provider(Settings(), env) == "openai"
    provider = make_provider("openai", None, settings=Settings(), env=env, cwd=tmp_path)
    assert provider.name == "openai"
    # The environment still wins over the file.
    assert detect_provider(Settings(), {**env, "ANTHROPIC_API_KEY": "k"}) == "anthropic"
