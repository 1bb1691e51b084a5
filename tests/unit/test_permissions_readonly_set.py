"""The read-only command set: everyday commands run without a prompt in default mode, and
options that carry paths or code take a command out of it (their paths still checked)."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_core.config.settings import RuleEntry
from agent_core.permissions import PermissionPolicy, PermissionRequest, decide
from agent_core.permissions.shell.file_args import awk_program, sed_script


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


@pytest.fixture
def tree(project: Path) -> Path:
    (project / "src").mkdir()
    (project / "src" / "a.py").write_text("x\n")
    (project / "data.json").write_text("{}")
    (project / "list.txt").write_text("src/a.py\n")
    (project / ".git").mkdir()
    return project


def verdict(project: Path, home: Path, command: str, mode: str = "default", **lists):
    rules = [RuleEntry(r, kind, "test") for kind in ("deny", "ask", "allow")
             for r in lists.get(kind, ())]  # fmt: skip
    policy = PermissionPolicy(project, [], rules, mode, home)
    return decide(PermissionRequest("Bash", {"command": command}, False, "bash"), policy)


# --- 6. Everyday commands are allowed in default mode with no rules ---------------------

EVERYDAY = [
    "cd src",
    "cd src && ls",
    "cd src && cd ..",
    "true",
    "false",
    ": nothing",
    "test -f src/a.py",
    "[ -d src ]",
    "[[ -n x ]]",
    "sort src/a.py",
    "sort -u -k2,2 -t, src/a.py",
    "uniq src/a.py",
    "uniq -c",
    "cut -d, -f1 src/a.py",
    "tr a-z A-Z",
    "basename /a/b.py .py",
    "dirname /a/b",
    "realpath src",
    "readlink -f src",
    "date",
    "date +%Y-%m-%d",
    "date -d yesterday +%s",
    "date -u",
    "uname -a",
    "whoami",
    "id -u",
    "hostname",
    "hostname -f",
    "printf '%s\\n' a b",
    "env",
    "printenv HOME",
    "jq . data.json",
    "jq -r '.a' data.json",
    "jq -n --arg x 1 '$x'",
    "jq --slurpfile d data.json -n '$d'",
    "yq '.a' data.json",
    "sleep 1",
    "seq 1 10",
    "nproc",
    "arch",
    "tty",
    "locale",
    "type ls",
    "which python3",
    "command -v git",
    "python3 --version",
    "node --version",
    "cargo --help",
    "rustc -V",
    "git rev-parse --show-toplevel",
    "git remote -v",
    "git remote",
    "git remote get-url origin",
    "git blame src/a.py",
    "git log --oneline -5",
    "git log -p -- src",
    "git show HEAD~1 --stat",
    "git diff",
    "git diff --cached -- src",
    "git ls-files",
    "git describe --tags",
    "git shortlog -sn",
    "git reflog",
    "git reflog show main",
    "git tag",
    "git tag -l 'v*'",
    "git tag --list",
    "git config --get user.name",
    "git config --list",
    "git config user.email",
    "git config get user.email",
    "git status --short",
    "git branch",
    "git branch -a --list 'feat*'",
    "git --no-pager log -1",
    "git grep -n TODO",
    "git grep -o TODO",
    "git cat-file -p HEAD",
    "sed -n '1,20p' src/a.py",
    "sed 's/a/b/g' src/a.py",
    "sed -n '/x/{p;q}' src/a.py",
    "awk '{print $1}' src/a.py",
    "awk -F, '$2 > 3 {print $1}' src/a.py",
    "awk -v n=2 'NR==n' src/a.py",
    "awk '/a|b/ || /c/' src/a.py",
    "nl src/a.py",
    "tac src/a.py",
    "base64 src/a.py",
    "od -c src/a.py",
    "xxd src/a.py",
    "sha256sum src/a.py",
    "cmp src/a.py src/a.py",
    "column -t src/a.py",
    "find . -name '*.py' -newer src/a.py",
    "grep -rn TODO src",
    "rg -n TODO src",
    "ls -la src | sort | uniq -c | head",
]


@pytest.mark.parametrize("command", EVERYDAY)
def test_everyday_commands_need_no_prompt(tree: Path, home: Path, command: str) -> None:
    got = verdict(tree, home, command)
    assert (got.decision, got.layer) == ("allow", "mode"), got


@pytest.mark.parametrize(
    "command",
    ["cd ..", "cd /etc", "cd ~", "realpath /etc/hosts", "readlink /etc/alternatives/x",
     "jq . /etc/x.json", "find /etc -name x", "sort /etc/passwd"],
)  # fmt: skip
def test_read_only_commands_still_go_through_the_sandbox(
    tree: Path, home: Path, command: str
) -> None:
    got = verdict(tree, home, command, "bypassPermissions")
    assert (got.decision, got.layer) == ("deny", "sandbox"), got


NOT_READ_ONLY = [
    "sort -T /tmp src/a.py",  # writes its temporary files in that directory
    "printf -v var '%s' x",  # assigns a variable, and a subscript in its name runs code
    "sort -o out.txt src/a.py",
    "sort --output=out.txt src/a.py",
    "sort --out=out.txt src/a.py",  # GNU accepts an unambiguous prefix
    "sort --compress-program=gzip src/a.py",
    "uniq src/a.py out.txt",
    "date -s '2020-01-01'",
    "date --set=now",
    "date 010203042020",
    "hostname evil",
    "hostname -F name.txt",
    "yq -i '.a=1' data.json",
    "yq 'load(\"x.yaml\")' data.json",
    "command rm x",
    "./run --version",
    "mytool -h",
    "git remote add o url",
    "git remote set-url origin url",
    "git remote remove origin",
    "git remote show origin",
    "git reflog expire --all",
    "git reflog delete HEAD@{1}",
    "git tag v1.0",
    "git tag -d v1.0",
    "git tag -a v1 -m x",
    "git config user.name me",
    "git config --unset user.name",
    "git config core.hooksPath .hooks",
    "git config set user.name me",
    "git branch new-branch",
    "git branch -D main",
    "git diff --output=patch.txt",
    "git diff --out=patch.txt",
    "git diff --ext-diff",
    "git log --output=log.txt",
    "git grep -O TODO",
    "git -c core.pager=evil log",
    "git -c alias.x='!sh' x",
    "git -C src status",
    "git --exec-path=/tmp/evil status",
    "git --git-dir=.git log",
    "git --work-tree=src status",
    "git -p log",
    "less src/a.py",
    "more src/a.py",
    "xxd -r src/a.py out.bin",
    "xxd src/a.py out.hex",
]


@pytest.mark.parametrize("command", NOT_READ_ONLY)
def test_commands_that_write_or_run_code_ask(tree: Path, home: Path, command: str) -> None:
    got = verdict(tree, home, command)
    assert got.decision == "ask", got


# --- 3. Options that carry paths or code ------------------------------------------------

CODE_RUNNING = [
    "sed 'e id' src/a.py",
    "sed -n '1e id' src/a.py",
    "sed 's/x/id/e' src/a.py",
    "sed 's|x|id|ge' src/a.py",
    "sed 'w out.txt' src/a.py",
    "sed -n '/x/w out.txt' src/a.py",
    "sed 's/x/y/w out.txt' src/a.py",
    "sed -i 's/x/y/' src/a.py",
    "sed --in-place=.bak 's/x/y/' src/a.py",
    "sed -f script.sed src/a.py",
    "sed $SCRIPT src/a.py",
    "awk 'BEGIN{system(\"id\")}'",
    "awk '{print | \"sh\"}' src/a.py",
    "awk '{print |& \"sh\"}' src/a.py",
    "awk 'BEGIN{\"date\" | getline d}'",
    "awk '{print > \"out.txt\"}' src/a.py",
    'awk \'{printf "%s", $0 >> "out.txt"}\' src/a.py',
    "awk '{print > $1}' src/a.py",
    "awk -f prog.awk src/a.py",
    "awk -i inplace '{print}' src/a.py",
    "gawk --exec=prog.awk src/a.py",
    "rg --pre ./decode.sh TODO",
    "rg --pre-glob '*.gz' --pre zcat TODO",
    "find . -exec cat {} \\;",
    "find . -execdir rm {} +",
    "find . -ok rm {} \\;",
    "find . -delete",
    "find . -fprint out.txt",
    "find . -fprintf out.txt '%p'",
    "find . -fls out.txt",
    "tar --to-command='sh -c id' -xf a.tar",
    "tar -I 'sh -c id' -cf a.tar src",
    "tar --use-compress-program=./x -cf a.tar src",
    "tar --checkpoint=1 --checkpoint-action=exec=id -cf a.tar src",
    "zip -T -TT 'sh -c id' a.zip src/a.py",
    "rsync -e 'sh -c id' src/ host:x",
    "rsync --rsh='sh -c id' src/ host:x",
    "scp -S ./evil src/a.py host:x",
    "split --filter='sh -c id' src/a.py",
]


@pytest.mark.parametrize("command", CODE_RUNNING)
def test_options_and_scripts_that_run_code_or_write_ask(
    tree: Path, home: Path, command: str
) -> None:
    got = verdict(tree, home, command)
    assert got.decision in ("ask", "deny"), got
    assert got.decision == "ask" or got.layer == "sandbox", got


PATH_CARRYING = [
    # each names /etc/... (outside the project) only through an option or a script
    "grep -f /etc/patterns src",
    "grep --file=/etc/patterns src",
    "grep -r --exclude-from=/etc/x TODO src",
    "rg -f /etc/patterns src",
    "rg --ignore-file /etc/x TODO",
    "sed -f /etc/script.sed src/a.py",
    "sed -n '1r /etc/hostname' src/a.py",
    "sed 'R /etc/hostname' src/a.py",
    "sed 'w /etc/out' src/a.py",
    "sed 's/a/b/w /etc/out' src/a.py",
    "awk -f /etc/prog.awk src/a.py",
    "awk '{getline l < \"/etc/hostname\"; print l}' src/a.py",
    "awk '{print > \"/etc/out\"}' src/a.py",
    "du --files0-from=/etc/list",
    "wc --files0-from=/etc/list",
    "sort --files0-from=/etc/list",
    "sort --random-source=/etc/hostname src/a.py",
    "tar -cf out.tar -T /etc/list",
    "tar -cf out.tar --files-from=/etc/list",
    "tar -cf out.tar -X /etc/excl src",
    "tar -cf /etc/out.tar src",
    "tar xf /etc/a.tar",
    "tar -xf a.tar -C /etc",
    "tar czf out.tgz -C /etc .",
    "gcc @/etc/args x.c",
    "javac @/etc/args",
    "find -L /etc -name x",
    "find -P /etc",
    "find -H -O3 /etc",
    "find -D tree /etc -name x",
    "find . -newer /etc/hostname",
    "find . -anewer /etc/hostname",
    "find . -samefile /etc/hostname",
    "find . -fprint /etc/out",
    "find . -files0-from /etc/list",
    "git -C /etc log",
    "git --git-dir=/etc/x log",
    "git --work-tree=/etc status",
    "git config -f /etc/gitconfig --list",
    "git diff --output=/etc/x",
    "git diff --out=/etc/x",
    "git archive -o /etc/x.tar HEAD",
    "jq -f /etc/filter.jq data.json",
    "jq --from-file /etc/filter.jq data.json",
    "jq --rawfile x /etc/hostname -n '$x'",
    "jq -L /etc -n 'import \"x\" as x; 1'",
    "diff --from-file=/etc/hostname src/a.py",
    "cp --target-directory=/etc src/a.py",
    "rsync -a src/ /etc/copy",
    "rsync --files-from=/etc/list . host:x",
    "scp -F /etc/ssh_config src/a.py host:x",
    "zip out.zip -i@/etc/list",
    "unzip a.zip -d /etc",
    "python3 /etc/x.py",
    "node /etc/x.js",
    "bash /etc/x.sh",
    "ruby -C /etc x.rb",
    "cd /etc",
    "cd ~",
    "env -C /etc cat hostname",  # the wrapper changes directory first
    "env --chdir=/etc cat hostname",
    "sudo -D /etc cat hostname",
]


@pytest.mark.parametrize("mode", ["default", "bypassPermissions"])
@pytest.mark.parametrize("command", PATH_CARRYING)
def test_paths_carried_by_options_and_scripts_are_sandboxed(
    tree: Path, home: Path, command: str, mode: str
) -> None:
    got = verdict(tree, home, command, mode)
    assert (got.decision, got.layer) == ("deny", "sandbox"), got


UNKNOWN_PATHS = [
    "wc --files0-from=list.txt",
    "sort --files0-from=list.txt",
    "tar -cf out.tar -T list.txt",
    "md5sum -c list.txt",
    "git cat-file --batch",
    "cat $FILE",
    "awk '{getline l < $1; print l}' src/a.py",
    "find . -files0-from list.txt",
    "zip out.zip -@",
    "echo /etc/hostname | xargs cat",
]


@pytest.mark.parametrize("command", UNKNOWN_PATHS)
def test_paths_named_at_run_time_are_unknown(tree: Path, home: Path, command: str) -> None:
    got = verdict(tree, home, command)
    assert (got.decision, got.layer) == ("ask", "mode"), got
    denied = verdict(tree, home, command, "bypassPermissions", deny=("Read(secret.txt)",))
    assert (denied.decision, denied.layer) == ("deny", "rules"), denied


@pytest.mark.parametrize(
    ("script", "reads", "writes", "code"),
    [
        ("1,5p", [], [], False),
        ("s/a/b/g;s|c|d|", [], [], False),
        ("/x/{p;q}", [], [], False),
        ("$!N;P;D", [], [], False),
        ("a\\\nappended text; w not-a-file", [], [], False),
        ("1r in.txt", ["in.txt"], [], False),
        ("R in.txt\np", ["in.txt"], [], False),
        ("w out.txt", [], ["out.txt"], False),
        ("/x/W out.txt", [], ["out.txt"], False),
        ("s/a/b/w out.txt", [], ["out.txt"], False),
        ("s/a/b/e", [], [], True),
        ("1e date", [], [], True),
        ("s/a/b/ge", [], [], True),
        ("y/abc/xyz/", [], [], False),
        ("\\%x%p", [], [], False),
    ],
)
def test_sed_script_reader(script: str, reads: list[str], writes: list[str], code: bool) -> None:
    found = sed_script(script)
    assert found is not None
    assert (found.reads, found.writes, found.runs_code) == (reads, writes, code)


@pytest.mark.parametrize("script", ["s/a/b", "s/a/b/Z", "k", "y/ab/"])
def test_an_unreadable_sed_script_is_none(script: str) -> None:
    assert sed_script(script) is None


@pytest.mark.parametrize(
    ("program", "writes", "code"),
    [
        ("{print $1}", [], False),
        ("$1 > 5", [], False),
        ("/a|b/ || $2 ~ /c|d/", [], False),
        ('{print "a > b"}', [], False),
        ('{print > "out"}', ["out"], True),
        ('{printf("%s", $0) >> "log"}', ["log"], True),
        ('BEGIN { system("id") }', [], True),
        ('{ print | "sort" }', [], True),
        ('{ "date" | getline d }', [], True),
    ],
)
def test_awk_program_reader(program: str, writes: list[str], code: bool) -> None:
    found = awk_program(program)
    assert (found.writes, found.runs_code) == (writes, code)
