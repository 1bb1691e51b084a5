"""One list of git configuration keys that run code, used by the parser and the file model."""

import pytest

from agent_core.permissions.shell.git_config_keys import runs_code


@pytest.mark.parametrize(
    "setting",
    [
        "alias.x=!touch P",
        "core.pager=less",
        "core.hooksPath=/tmp/h",
        "web.browser=evil",
        "browser.x.cmd=evil",
        "difftool.x.cmd=evil",
        "sendemail.toCmd=evil",
        "includeIf.gitdir:/x.path=/tmp/c",
        "diff.x.textconv=evil",
        "filter.lfs.smudge=evil",
        "credential.helper=evil",
    ],
)
def test_keys_that_run_code(setting: str) -> None:
    assert runs_code(setting)


@pytest.mark.parametrize(
    "setting", ["user.name=x", "color.ui=auto", "log.date=iso", "core.quotepath=off"]
)
def test_keys_that_do_not(setting: str) -> None:
    assert not runs_code(setting)
