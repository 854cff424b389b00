"""The hints written into the package's error messages (issue 32), read
from the source rather than provoked one by one.

``test_hints`` makes refusals happen and runs what they suggest; this file
covers every raise site at once: the message of each ``raise X(...)`` (and
each ``self.fail(...)`` of a parameter type) in ``kaiser_sim``, its
f-string fields left as ``{}``.  In each message

- every ``kaiser-sim CMD ...`` names a command that exists, and click's own
  parser takes the rest of that line: its options are CMD's, each option
  that takes a value has one, and it gives as many arguments as CMD takes;
  where the line is complete and cheap to run (no field, no placeholder
  other than PRESET) it is run and must succeed;
- every other ``--option`` is an option of a command that can raise the
  message: one whose code imports the raising module (the import graph of
  the package, imports inside functions included, read with ``ast``).
"""

from __future__ import annotations

import ast
import re
import shlex
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from kaiser_sim.cli import main

PACKAGE = Path(__import__("kaiser_sim").__file__).resolve().parent
OPTION = re.compile(r"(?<![\w-])--[a-z][a-z-]*[a-z]")
#: a suggested command line: ``kaiser-sim`` and what follows up to the end of the clause
COMMAND_LINE = re.compile(r"kaiser-sim ([a-z][a-z-]*)((?:[^;()]|\(- for stdin\))*)")
#: words after "kaiser-sim" in a message that are prose, not a command ("not kaiser-sim results")
PROSE = {"results", "run", "accepts", "table-play"}
#: commands cheap enough to run from a hint (milliseconds, writing nothing)
CHEAP = {"rules", "deal", "info"}
#: what a placeholder in a hint stands for, when the hint is run
PLACEHOLDERS = {"PRESET": "standard"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _text(node) -> str:
    """The text of a message expression; what is computed at run time is ``{}``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _text(node.left) + _text(node.right)
    if isinstance(node, ast.IfExp):  # either branch may be the message: both are read
        return _text(node.body) + " ; " + _text(node.orelse)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join":
        return " ; ".join(_text(a) for a in node.args)
    return "{}"


def _messages() -> list[tuple[str, int, str]]:
    """(module, line, message) of every raise site whose message names an
    option or a command line; messages built in an exception's ``__init__``
    (passed to ``super().__init__``) count too, and a ``hint=`` is read as
    part of its message."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module_name(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            call = None
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                call = node.exc
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                if node.func.attr == "fail" or (node.func.attr == "__init__"
                                                and isinstance(node.func.value, ast.Call)
                                                and getattr(node.func.value.func, "id", "") == "super"):
                    call = node
            if call is None:
                continue
            # the message, and a ``hint=`` the command line adds to it (SimulateError)
            parts = [*call.args[:1], *(k.value for k in call.keywords if k.arg == "hint")]
            message = "".join(_text(p) for p in parts)
            if OPTION.search(message) or "kaiser-sim " in message:
                found.append((module, node.lineno, message))
    return found


def _walk_run(tree):
    """``ast.walk`` without the ``if __name__ == "__main__":`` blocks (run as a
    script, not when a command imports the module)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        if (isinstance(node, ast.If) and isinstance(node.test, ast.Compare)
                and getattr(node.test.left, "id", "") == "__name__"):
            continue
        yield node
        todo.extend(ast.iter_child_nodes(node))


def _imports() -> dict[str, set[str]]:
    """module -> the package's modules it imports (anywhere in it)."""
    graph: dict[str, set[str]] = {}
    known = {_module_name(p) for p in PACKAGE.rglob("*.py")}
    for path in PACKAGE.rglob("*.py"):
        module = _module_name(path)
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        edges = graph.setdefault(module, set())
        for node in _walk_run(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                edges.update(a.name for a in node.names if a.name in known)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                    base = f"{base}.{node.module}" if node.module else base
                else:
                    base = node.module or ""
                subs = {f"{base}.{a.name}" for a in node.names} & known
                edges |= subs
                if base in known and len(subs) < len(node.names):  # a name defined in ``base`` itself
                    edges.add(base)
    return graph


def _reach(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo.extend(graph.get(m, ()))
    return seen


def _options(command: click.Command) -> set[str]:
    return {o for p in command.params for o in (*p.opts, *p.secondary_opts) if o.startswith("--")} | {"--help"}


MESSAGES = _messages()
GRAPH = _imports()
#: module -> the commands whose code imports it
RAISED_BY: dict[str, set[str]] = {}
for _name, _command in main.commands.items():
    for _m in _reach(GRAPH, _command.callback.__module__):
        RAISED_BY.setdefault(_m, set()).add(_name)


def _ids():
    return [f"{m.removeprefix('kaiser_sim.')}:{line}" for m, line, _ in MESSAGES]


def test_the_collector_finds_the_raise_sites():
    """The reading works: it finds hints of the library and of the command
    line, in f-strings and in an exception's own ``__init__``, and the import
    graph reaches the simulation from ``study`` and ``report``."""
    modules = {m for m, _, _ in MESSAGES}
    assert len(MESSAGES) >= 40 and {"kaiser_sim.runs.simulate", "kaiser_sim.runs.results", "kaiser_sim.cli.models"} <= modules
    assert any("Leave them out" in text and "--force" in text for _, _, text in MESSAGES)  # ResumeMismatch.__init__
    assert any("kaiser-sim simulate --resume --out {}" in text for _, _, text in MESSAGES)
    assert {"simulate", "study", "report"} <= RAISED_BY["kaiser_sim.runs.simulate"]
    assert "hand" in RAISED_BY["kaiser_sim.strategy.conditioned"] and "deal" not in RAISED_BY["kaiser_sim.strategy.conditioned"]


@pytest.mark.parametrize("module, line, message", MESSAGES, ids=_ids())
def test_every_option_a_message_names_exists(module, line, message):
    commands = RAISED_BY.get(module, set())
    assert commands, f"{module}:{line}: no command imports the module that raises {message!r}"
    in_lines = set()
    for m in COMMAND_LINE.finditer(message):
        name, rest = m.group(1), m.group(2)
        if name in PROSE:
            continue
        assert name in main.commands, f"{module}:{line}: no command {name!r}: {message!r}"
        in_lines |= set(OPTION.findall(rest))
    free = set(OPTION.findall(message)) - in_lines
    usable = set().union(*(_options(main.commands[c]) for c in commands))
    assert free <= usable, (f"{module}:{line}: {sorted(free - usable)} is not an option of "
                            f"{sorted(commands)}, the commands that raise {message!r}")


def _suggested_lines():
    out = []
    for module, line, message in MESSAGES:
        for m in COMMAND_LINE.finditer(message):
            if m.group(1) not in PROSE:
                out.append((f"{module.removeprefix('kaiser_sim.')}:{line}", m.group(1), m.group(2).strip()))
    return out


SUGGESTED = _suggested_lines()


def test_hints_suggest_command_lines():
    assert len(SUGGESTED) >= 5
    assert any(cmd == "simulate" for _, cmd, _ in SUGGESTED) and any(cmd == "rules" for _, cmd, _ in SUGGESTED)


def _command_line(command: click.Command, words: list[str]) -> list[str]:
    """The words of a hint that belong to the command line: options (with
    their values) and as many arguments as ``command`` takes; the first word
    beyond them ends the line (the sentence goes on: 'kaiser-sim
    table-play-model builds one')."""
    takes_value = {o: (0 if p.is_flag or p.count else p.nargs) for p in command.params if isinstance(p, click.Option)
                   for o in p.opts}
    takes_value.update({o: 0 for p in command.params for o in p.secondary_opts})
    slots = sum(p.nargs if p.nargs >= 0 else 99 for p in command.params if isinstance(p, click.Argument))
    line, i = [], 0
    while i < len(words):
        word = words[i]
        if word.startswith("-") and word != "-":
            n = takes_value.get(word.split("=", 1)[0], 0) if "=" not in word else 0
            line += words[i:i + 1 + n]
            i += 1 + n
        elif slots:
            line.append(word)
            slots -= 1
            i += 1
        else:
            break
    return line


@pytest.mark.parametrize("where, name, rest", SUGGESTED, ids=[f"{w}-{n}" for w, n, _ in SUGGESTED])
def test_a_suggested_command_line_parses(where, name, rest):
    """click's parser (no conversion, no run) takes the suggested line: every
    option is the command's with its value, and the required arguments are
    all there.  A complete line of a cheap command is run."""
    command = main.commands[name]
    args = _command_line(command, shlex.split(rest.replace("{}", "X")))
    parser = command.make_parser(click.Context(command, info_name=name))
    values, extra, _ = parser.parse_args(args=list(args))  # NoSuchOption / BadOptionUsage on a bad option
    assert not extra, (where, name, args)
    missing = [p.name for p in command.params if isinstance(p, click.Argument) and p.required
               and values.get(p.name) in (None, ())]
    assert not missing, (where, name, args, missing)
    runnable = "X" not in args and all(a in PLACEHOLDERS or not re.fullmatch(r"[A-Z][A-Z_]+", a) for a in args)
    if name in CHEAP and runnable:
        args = [PLACEHOLDERS.get(a, a) for a in args]
        result = CliRunner().invoke(main, [name, *args])
        assert result.exit_code == 0, (where, name, args, result.output)
