"""The documentation in the repository: what the code cites exists, nothing
points outside the repository, and the README's and the user pages'
command lines match the commands.

- No file names the project's old notes outside the repository (the rules
  digest and the solver notes now live in ``docs/``).
- Every ``docs/<name>.md`` the code, tests or README cite exists, and every
  cited section (``docs/rules.md §4``) or pitfall (``docs/solver.md
  pitfall 5``) is there.
- Every ``kaiser-sim COMMAND ...`` example of the README and of the pages
  of ``docs/`` written by hand uses only options that COMMAND has, and so
  does every "Options:" paragraph of a command's section (a renamed or
  removed option fails here).
- The rules digest names every rules option.
- The README is a front door: at most 300 lines; every link in it leads to
  a file (and heading) that exists; each finding it quotes is the
  edition's; each time it quotes (and the power user's page quotes) reads
  the same in the record it names, the time's one home.
- The defaults ``--help`` shows are the defaults the commands use.
"""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

import click
import pytest

from kaiser_sim.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
#: the pages of docs/ written by hand (docs/reference/ is generated: tests/test_reference.py)
HAND_PAGES = sorted(p for p in (ROOT / "docs").glob("*.md"))
#: the README and those pages: where the command lines a user copies are
USER_TEXT = "\n\n".join([README] + [p.read_text(encoding="utf-8") for p in HAND_PAGES])
TEXT_SUFFIXES = {".py", ".md", ".toml", ".txt", ".cfg", ".ini", ".json", ".yml", ".yaml", ".sh", ""}


def repository_files() -> list[Path]:
    """The files git tracks plus the untracked ones it does not ignore (or,
    without git, every file outside the usual build and cache folders)."""
    try:
        out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                             capture_output=True, check=True).stdout
        files = [ROOT / f for f in out.decode().split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        skip = {".git", ".venv", "__pycache__", "build", "dist", ".pytest_cache", ".hypothesis", "reports"}
        files = [p for p in ROOT.rglob("*") if not skip & set(p.relative_to(ROOT).parts)]
    return [f for f in files if f.is_file() and f.suffix in TEXT_SUFFIXES and f.stat().st_size < 2_000_000]


FILES = repository_files()


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        return ""


# written in pieces so that this file does not match itself
OUTSIDE = ["../" + "shared", "SOLVER" + "_NOTES", "shared/" + "RULES", "shared/" + "seeds"]


def test_nothing_points_outside_the_repository():
    bad = [f"{f.relative_to(ROOT)}: {word}" for f in FILES for word in OUTSIDE if word in _text(f)]
    assert not bad, "cite docs/rules.md or docs/solver.md instead: " + ", ".join(bad)


CITATION = re.compile(r"docs/([A-Za-z0-9_./-]+?\.md)(?:\s+(§\s?\d+|pitfalls?\s+\d+))?")


def citations():
    for f in FILES:
        if f.suffix in (".py", ".md", ".toml", ""):
            for m in CITATION.finditer(_text(f)):
                yield f.relative_to(ROOT), m.group(1), m.group(2)


def test_cited_docs_exist():
    found = list(citations())
    assert any(doc == "solver.md" for _, doc, _ in found)  # the scan works
    missing = sorted({f"{where}: docs/{doc}" for where, doc, _ in found if not (ROOT / "docs" / doc).is_file()})
    assert not missing


def test_cited_sections_exist():
    bad = []
    for where, doc, part in citations():
        path = ROOT / "docs" / doc
        if not part or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        number = re.search(r"\d+", part).group()
        if part.startswith("§"):
            ok = re.search(rf"^#+ §{number}\b", text, re.M)
        else:  # a numbered item of the Pitfalls section
            pitfalls = text.split("## Pitfalls", 1)[-1] if "## Pitfalls" in text else ""
            ok = re.search(rf"^{number}\. ", pitfalls, re.M)
        if not ok:
            bad.append(f"{where}: docs/{doc} {part}")
    assert not bad


def test_rules_digest_names_every_option():
    from kaiser_sim.rules import OPTIONS, PRESETS

    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert not [o.name for o in OPTIONS if f"`{o.name}" not in text]
    assert not [p for p in PRESETS if f"`{p}`" not in text]
    for code in ("R1", "B1", "B2", "B3", "B4", "P1", "S1", "S2", "S3", "S4", "G1", "G2", "G3", "K1", "K2"):
        assert f"**{code}" in text, code


# --- the README's command-line reference ------------------------------------------------------


def options_of(name: str) -> set[str]:
    command = main.commands[name]
    opts = {"--help", "-h"}
    for p in command.params:
        if isinstance(p, click.Option):
            opts |= set(p.opts) | set(p.secondary_opts)
    if isinstance(command, click.Group):
        for sub in command.commands:
            opts.add(sub)
    return opts


def _flags(words) -> list[str]:
    return [w.split("=", 1)[0] for w in words if re.fullmatch(r"--?[A-Za-z][A-Za-z0-9-]*(=.*)?", w)]


def readme_examples() -> list[tuple[str, list[str]]]:
    """``(command, its words)`` for every ``kaiser-sim COMMAND ...`` in the code
    blocks and inline code of the README and the hand-written pages of docs/
    (each segment of a pipe)."""
    lines, fence = [], None
    for line in USER_TEXT.splitlines():
        if line.startswith("```"):
            fence = None if fence is not None else (line[3:].strip() or "sh")
        elif fence in ("sh", "bash", "console"):
            lines.append(line)
    lines += re.findall(r"`(kaiser-sim [^`]+)`", USER_TEXT)
    found = []
    for line in lines:
        line = line.split(" #", 1)[0]
        for segment in line.split("|"):
            try:
                words = shlex.split(segment.replace("$(nproc)", "2"))
            except ValueError:
                words = segment.split()
            if len(words) >= 2 and words[0] == "kaiser-sim" and words[1] in main.commands:
                found.append((words[1], words[2:]))
    return found


def test_readme_examples_use_existing_options():
    examples = readme_examples()
    assert len(examples) > 20  # the scan works
    bad = [f"kaiser-sim {cmd}: {flag}" for cmd, words in examples for flag in _flags(words)
           if flag not in options_of(cmd)]
    assert not bad, "README/docs examples with options the command does not have: " + ", ".join(sorted(set(bad)))


#: README sections (heading text) -> the command their "Options:" paragraph is about
SECTION_COMMANDS = {"Hand advisor": "hand", "Hearing the auction: `--auction`": "hand"}


def readme_option_paragraphs() -> list[tuple[str, str]]:
    """``(command, text)`` for every paragraph with "Options:" (the command of its
    section) or "Options of `COMMAND`:": the text from there on (README and the
    hand-written pages of docs/)."""
    found, command = [], None
    for paragraph in re.split(r"\n\s*\n", USER_TEXT):
        heading = re.match(r"#+ (.*)", paragraph)
        if heading:
            title = heading.group(1)
            named = [w for w in re.findall(r"`([a-z-]+)`", title) if w in main.commands]
            command = SECTION_COMMANDS.get(title, named[0] if named else None)
            continue
        m = re.search(r"\bOptions(?: of `([a-z-]+)`)?:(.*)", paragraph, re.S)
        if m:
            found.append((m.group(1) or command, m.group(2)))
    return found


def test_readme_option_paragraphs_match_the_commands():
    paragraphs = readme_option_paragraphs()
    assert {"solve", "hand", "simulate", "study", "report"} <= {c for c, _ in paragraphs}
    bad = []
    for command, paragraph in paragraphs:
        assert command in main.commands, paragraph[:80]
        for flag in set(re.findall(r"(--[a-z][a-z0-9-]*)", paragraph)):
            if flag not in options_of(command):
                bad.append(f"{command}: {flag}")
    assert not bad, "README Options paragraphs name options the command does not have: " + ", ".join(sorted(bad))


@pytest.mark.parametrize("command", sorted(main.commands))
def test_every_command_is_in_a_users_page(command):
    """Every command is shown at work on a page written for a user (its
    options are all in the generated reference: tests/test_reference.py)."""
    users = [ROOT / "docs" / f"{page}.md" for page in ("player", "author", "power-user")]
    assert any(f"kaiser-sim {command}" in p.read_text(encoding="utf-8") for p in users), command


# --- the README: a front door that cannot drift -----------------------------------------------


def test_the_readme_is_short():
    assert len(README.splitlines()) <= 300


def slug(title: str) -> str:
    """A heading's anchor, as GitHub and MkDocs' toc make it (for the headings used here)."""
    text = re.sub(r"[^\w\s-]", "", title.strip().lower().replace("`", ""))
    return re.sub(r"\s+", "-", text)


def _anchors(path: Path) -> set[str]:
    return {slug(m.group(1)) for m in re.finditer(r"^#+ (.*)$", path.read_text(encoding="utf-8"), re.M)}


def test_the_readmes_links_lead_somewhere():
    links = re.findall(r"\]\(([^)#]+)(?:#([^)]+))?\)", README)
    assert len(links) > 20
    bad = []
    for target, anchor in links:
        if "://" in target:
            continue
        path = ROOT / target
        if not path.exists():
            bad.append(target)
        elif anchor and path.suffix == ".md" and anchor not in _anchors(path):
            bad.append(f"{target}#{anchor}")
    assert not bad, bad


#: an estimate with its interval, as the report prints it: 55.7 [55.4, 56.0]
ESTIMATE = re.compile(r"\d+(?:\.\d+)? \[-?\d+(?:\.\d+)?, -?\d+(?:\.\d+)?\]")


def test_the_readmes_findings_are_the_editions():
    """Each estimate the README quotes is printed, with its interval, in the
    edition's report.md (the findings' one home)."""
    edition = (ROOT / "reports" / "sample" / "report.md").read_text(encoding="utf-8")
    quoted = ESTIMATE.findall(README)
    assert len(quoted) >= 3
    assert not [q for q in quoted if q not in edition]


def test_the_editions_columns_keep_one_precision():
    """Issue 43, item 6, on the committed edition itself: no table column of
    reports/sample/report.md prints its estimates at two precisions (its 5H
    table printed 63.8 [63.3, 64.3] above 72.23 [72.14, 72.32])."""
    from report_columns import mixed_precision_columns

    edition = (ROOT / "reports" / "sample" / "report.md").read_text(encoding="utf-8")
    assert not (mixed := mixed_precision_columns(edition)), mixed


#: a wall time as the records write them: 52 s, 11m45s, 35 min 13 s, 1m34s
DURATION = re.compile(r"\b\d+(?:m\d+s| min \d+ s| s)\b|\b\d+ min\b")
#: a record of benchmarks/results named in a table row, as a link or as code
SOURCE = re.compile(r"(benchmarks/results/[\w.-]+\.md)")


def quoted_figures(text: str) -> list[tuple[str, str, str]]:
    """``(row, figure, source)`` for each table row that names its source
    record: every duration in it, and (the power user's page) every figure
    cell of a table whose last column is the record."""
    found = []
    for line in text.splitlines():
        if not line.startswith("|") or not SOURCE.search(line):
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        source = SOURCE.search(cells[-1])
        if source is None:
            continue
        figures = DURATION.findall(line) or [cells[-2]]
        found += [(cells[0], f, source.group(1)) for f in figures]
    return found


@pytest.mark.parametrize("page", ["README.md", "docs/power-user.md"])
def test_quoted_times_and_figures_read_the_same_in_their_record(page):
    """One home per measured figure: a figure quoted in a table that names its
    record reads the same in a table row of that record."""
    rows = quoted_figures((ROOT / page).read_text(encoding="utf-8"))
    assert len(rows) >= 4
    bad = []
    for row, figure, source in rows:
        record = (ROOT / source).read_text(encoding="utf-8")
        if not any(figure in line for line in record.splitlines() if line.startswith("|")):
            bad.append(f"{page}: {row}: {figure} not in {source}")
    assert not bad, bad


def test_the_readme_quotes_no_time_outside_those_rows():
    """A duration in the README's prose would be a second copy: only the rows
    that name their record carry them."""
    quoted = {f for _, f, _ in quoted_figures(README)}
    prose = "\n".join(line for line in README.splitlines() if not (line.startswith("|") and SOURCE.search(line)))
    assert not [d for d in DURATION.findall(prose) if d not in quoted], DURATION.findall(prose)
