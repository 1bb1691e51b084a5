"""Rules match what runs, not what is written: normalised commands, and words built at
run time that could match a deny or ask rule do match it. Suggestions never widen."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_core.config.settings import RuleEntry
from agent_core.permissions import PermissionPolicy, PermissionRequest, decide, suggest_rules
from agent_core.permissions.bash_specifiers import _pattern_templates, could_match


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


def bash(command: str) -> PermissionRequest:
    return PermissionRequest("Bash", {"command": command}, False, "bash")


def policy(project: Path, home: Path, mode: str = "default", **lists: tuple[str, ...]):
    rules = [RuleEntry(r, kind, "test") for kind in ("deny", "ask", "allow")
             for r in lists.get(kind, ())]  # fmt: skip
    return PermissionPolicy(project, [], rules, mode, home)


GIT_PUSH_SPELLINGS = [
    "git push",
    "g''it push",
    '"git" push',
    "\\git push",
    "git pu''sh origin main",
    "git -C sub push",
    "git -C sub -c user.name=x push --force",
    "git --no-pager push",
    "git --git-dir=.git --work-tree=. push",
    "command git push",
    "/usr/bin/git push",
    "./git push",
    "sudo git push",
    "sudo -u root git push",
    "env X=1 git push",
    "env -i PATH=/usr/bin git push",
    "nice -n 5 git push",
    "timeout 60 git push",
    "time git push",
    "nohup git push &",
    "xargs git push",
    "echo x | xargs -n1 git push",
    "bash -c 'git push'",
    'sh -c "cd sub && git push"',
    "eval 'git push'",
    "echo $(git push)",
    "ls && git push",
    "git -c alias.p=push p",
    # words built at run time: any of them could be "push"
    "git pu${X}sh",
    "git $(echo push)",
    "git `echo push`",
    'git "$CMD"',
    "git $SUB origin",
    "git ${SUB:-push}",
    "$GIT push",
    "${GIT} push --force",
    "$(which git) push",
    "g$(echo i)t push",
]


@pytest.mark.parametrize("mode", ["default", "bypassPermissions"])
@pytest.mark.parametrize("command", GIT_PUSH_SPELLINGS)
def test_a_deny_rule_matches_every_spelling_of_what_runs(
    project: Path, home: Path, command: str, mode: str
) -> None:
    got = decide(bash(command), policy(project, home, mode, deny=("Bash(git push:*)",),
                                       allow=("Bash",)))  # fmt: skip
    assert (got.decision, got.layer, got.rule) == ("deny", "rules", "Bash(git push:*)"), got


@pytest.mark.parametrize("command", ["git pu${X}sh", "git $(echo push)", "$GIT push", "git push"])
def test_an_ask_rule_matches_them_too(project: Path, home: Path, command: str) -> None:
    got = decide(bash(command), policy(project, home, "bypassPermissions",
                                       ask=("Bash(git push:*)",), allow=("Bash",)))  # fmt: skip
    assert (got.decision, got.layer) == ("ask", "rules")


NOT_A_PUSH = [
    "git pull",
    "git log --format=$FMT",  # the dynamic word cannot make the subcommand "push"
    "git status $(echo x)",
    "git pushx",
    "echo git push",
    "git commit -m 'git push'",
    "git show $REV:push",
]


@pytest.mark.parametrize("command", NOT_A_PUSH)
def test_words_that_cannot_become_the_denied_command_do_not_match(
    project: Path, home: Path, command: str
) -> None:
    got = decide(bash(command), policy(project, home, "bypassPermissions",
                                       deny=("Bash(git push:*)",)))  # fmt: skip
    assert got.decision != "deny", got


@pytest.mark.parametrize(
    ("command", "decision"),
    [
        ("git push origin", "allow"),
        ("g''it push origin", "allow"),  # static once quotes are removed: matches exactly
        ("git push $REMOTE", "allow"),  # the rule's own * covers the dynamic word
        ("git pu${X}sh", "ask"),  # only a wildcard reading would make this a push
        ("git $(echo push)", "ask"),
        ('git "$CMD"', "ask"),
        ("$GIT push", "ask"),
    ],
)
def test_allow_rules_never_treat_a_dynamic_word_as_a_wildcard(
    project: Path, home: Path, command: str, decision: str
) -> None:
    got = decide(bash(command), policy(project, home, allow=("Bash(git push:*)",)))
    assert got.decision == decision, got


@pytest.mark.parametrize(
    ("rule", "command", "denied"),
    [
        ("Bash(rm -rf:*)", "rm -rf $DIR", True),
        ("Bash(rm -rf:*)", "rm $FLAGS build", True),  # $FLAGS could be "-rf"
        ("Bash(rm -rf:*)", "rm -f build", False),
        ("Bash(npm run deploy:*)", "npm run $SCRIPT", True),
        ("Bash(npm run deploy:*)", "npm run build-$ENV", False),
        ("Bash(npm publish:*)", "npm run $SCRIPT", False),
        ("Bash(curl:*)", "$(echo curl) https://x.io", True),
        ("Bash(curl:*)", "cu${R}l https://x.io", True),
        ("Bash(docker * --privileged)", "docker run $OPTS", True),
        ("Bash(kubectl delete:*)", "kubectl $VERB pod x", True),
        ("Bash(kubectl delete:*)", "kubectl get $KIND", False),
    ],
)
def test_deny_rules_treat_dynamic_parts_as_wildcards(
    project: Path, home: Path, rule: str, command: str, denied: bool
) -> None:
    got = decide(bash(command), policy(project, home, "bypassPermissions", deny=(rule,)))
    assert (got.decision == "deny") is denied, got


@pytest.mark.parametrize(
    "config",
    [
        "[alias]\n\tp = push\n",
        "[core]\n\tbare = false\n[alias]\n  p=push --force\n",
        "[ALIAS]\np = !git push\n",
    ],
)
def test_an_alias_from_git_config_is_a_wildcard_for_deny_rules(
    project: Path, home: Path, config: str
) -> None:
    (project / ".git").mkdir()
    (project / ".git" / "config").write_text(config)
    rules = policy(project, home, "bypassPermissions", deny=("Bash(git push:*)",))
    assert decide(bash("git p"), rules).decision == "deny"
    assert decide(bash("git -C . p origin"), rules).decision == "deny"
    assert decide(bash("git status"), rules).decision == "allow"


def test_an_alias_from_the_user_config_counts_too(project: Path, home: Path) -> None:
    (home / ".gitconfig").write_text("[alias]\n  ship = push origin HEAD\n")
    rules = policy(project, home, "bypassPermissions", deny=("Bash(git push:*)",))
    assert decide(bash("git ship"), rules).decision == "deny"
    assert decide(bash("git --config-env=alias.go=X go"), rules).decision == "deny"


def test_could_match_is_an_intersection_of_two_wildcard_patterns() -> None:
    def template(text: str) -> tuple[str | None, ...]:
        return tuple(None if c == "*" else c for c in text)

    push = _pattern_templates("git push:*")
    assert any(could_match(p, template("git pu*sh")) for p in push)
    assert any(could_match(p, template("* push")) for p in push)
    assert any(could_match(p, template("git *")) for p in push)
    assert not any(could_match(p, template("git log *")) for p in push)
    assert not any(could_match(p, template("git pull")) for p in push)
    long = template("git log " + "x" * 5000 + "*")
    assert not any(could_match(p, long) for p in push)  # no recursion limit on long commands


# --- 7. Suggestions never allow more than the call that asked ---------------------------


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("npm run $SCRIPT", []),
        ("git commit -m $MSG", []),
        ("cat $F > out.txt", ["Edit(./out.txt)"]),
        ("echo x > $OUT", []),
        ("make build && npm run $X", ["Bash(make build:*)"]),
        ("xargs rm", []),
        ("git -c core.pager=less log -p", ["Bash(git -c core.pager=less log -p)"]),
        ("git -C sub push", ["Bash(git -C sub push)"]),
        ("npm run build", ["Bash(npm run build:*)"]),
        ("rm build/*.o", []),  # `Bash(rm build/*.o)` would read * as "anything"
    ],
)
def test_suggestions_skip_dynamic_and_uncertain_parts(
    project: Path, home: Path, command: str, expected: list[str]
) -> None:
    assert suggest_rules(bash(command), policy(project, home)) == expected


@pytest.mark.parametrize("command", ["npm run build", "git -C sub push", "make build"])
def test_a_saved_suggestion_allows_the_same_call_and_no_dynamic_variant(
    project: Path, home: Path, command: str
) -> None:
    rules = tuple(suggest_rules(bash(command), policy(project, home)))
    assert decide(bash(command), policy(project, home, allow=rules)).decision == "allow"
    variant = command.replace("build", "$X").replace("push", "pu${Y}sh")
    assert decide(bash(variant), policy(project, home, allow=rules)).decision != "allow"
