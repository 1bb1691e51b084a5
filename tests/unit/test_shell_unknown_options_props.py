"""Property: a read-only program given any option outside its table is never allowed
unasked in default mode (hypothesis draws the program, subcommand and option)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_core.permissions import PermissionPolicy, PermissionRequest, decide
from agent_core.permissions.shell.readonly import read_only_programs
from agent_core.permissions.shell.tables import Program, program

_SELF_DESCRIBING = {"--version", "--help", "-V"}  # `X --version` alone is allowed for any X
# Programs whose words are never options: test's are an expression, true's are ignored.
PROGRAMS = sorted(
    name
    for name in read_only_programs()
    if (table := program(name)) is not None and table.spec.style != "operands"
)
_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


@st.composite
def unknown_option(draw: st.DrawFn) -> tuple[str, str]:
    """(command prefix, an option its table does not have) for a read-only program."""
    name = draw(st.sampled_from(PROGRAMS))
    table = program(name)
    assert table is not None
    words = [name]
    while table.subcommands and draw(st.booleans()):
        subs = sorted(s for s, t in table.subcommands.items() if t.spec.read_only)
        if not subs:
            break
        sub = draw(st.sampled_from(subs))
        words.append(sub)
        table = table.subcommands[sub]
    return " ".join(words), draw(_option_outside(table))


def _option_outside(table: Program) -> st.SearchStrategy[str]:
    long_names = st.text(alphabet=_LETTERS + "-", min_size=2, max_size=12).map(
        lambda t: "--" + t.strip("-") if t.strip("-") else "--zz"
    )
    longs = long_names.filter(lambda o: o not in table.long and o not in _SELF_DESCRIBING)
    if table.spec.style == "words":
        return longs | st.sampled_from(["-zzz", "-Qq"]).filter(lambda o: o not in table.long)
    flags = sorted(c for c, o in table.short.items() if not o.kinds and c.isalpha())
    unknown_letters = [c for c in _LETTERS if c not in table.short]
    if not unknown_letters:
        return longs | longs.map(lambda o: o + "=x")
    cluster = st.builds(
        lambda known, bad: "-" + "".join(known) + bad,
        st.lists(st.sampled_from(flags), max_size=3) if flags else st.just([]),
        st.sampled_from(unknown_letters),
    ).filter(lambda o: o not in _SELF_DESCRIBING)
    return longs | longs.map(lambda o: o + "=x") | cluster


@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(drawn=unknown_option(), operand=st.sampled_from(["", " README.md", " x"]))
def test_an_option_outside_the_table_is_never_allowed_unasked(
    project: Path, tmp_path: Path, drawn: tuple[str, str], operand: str
) -> None:
    prefix, option = drawn
    (project / "README.md").write_text("hi\n")
    command = f"{prefix} {option}{operand}"
    policy = PermissionPolicy(project, [], [], "default", tmp_path / "home")
    verdict = decide(PermissionRequest("Bash", {"command": command}, False, "bash"), policy)
    assert verdict.decision != "allow", (command, verdict)
