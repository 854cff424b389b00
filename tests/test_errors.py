"""One error base: every refusal of the library is a KaiserSimError (a
ValueError), and the command line turns any of them into exit 2."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import sys
from pathlib import Path

from click.testing import CliRunner

import kaiser_sim
from kaiser_sim.errors import KaiserSimError

PACKAGE = Path(kaiser_sim.__file__).parent
#: errors that are not about the input, outside the family on purpose (kaiser_sim.errors says why)
OUTSIDE = {"OutputError", "RedealError"}


def _error_classes():
    """Every class of the package whose name ends in Error, Mismatch or TooRare (parsed, then imported)."""
    for path in sorted(PACKAGE.rglob("*.py")):
        if "cli" in path.relative_to(PACKAGE).parts:
            continue  # the command line's own exceptions are click's
        tree = ast.parse(path.read_text(encoding="utf-8"))
        mod = ".".join(("kaiser_sim",) + path.relative_to(PACKAGE).with_suffix("").parts).replace(".__init__", "")
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name.endswith(("Error", "Mismatch", "TooRare")):
                yield mod, node.name


def test_every_library_error_derives_from_the_base():
    seen = []
    for mod, name in _error_classes():
        cls = getattr(importlib.import_module(mod), name)
        seen.append(name)
        if name in OUTSIDE:
            assert not issubclass(cls, KaiserSimError)
            continue
        assert issubclass(cls, KaiserSimError) and issubclass(cls, ValueError), f"{mod}.{name}"
    assert len(seen) >= 17 and {"NotationError", "RulesError", "StudyError", "AuctionTooRare"} <= set(seen)


def test_every_module_imports():
    # the family is complete only if every module was looked at
    for m in pkgutil.walk_packages(kaiser_sim.__path__, "kaiser_sim."):
        if not m.name.endswith("__main__"):
            importlib.import_module(m.name)


def test_untranslated_refusal_is_one_line_exit_2():
    from kaiser_sim.cli import main

    @main.command("raise-refusal", hidden=True)
    def _raise():
        raise KaiserSimError("the hand has 9 cards; a hand has 8")

    try:
        res = CliRunner().invoke(main, ["raise-refusal"])
    finally:
        main.commands.pop("raise-refusal", None)
    assert res.exit_code == 2
    assert res.output.strip() == "Error: the hand has 9 cards; a hand has 8"
    assert isinstance(res.exception, SystemExit)


#: translations of a family error into another class with the same message that stay, and why
KEPT_TRANSLATIONS = {
    ("cli/group.py", "MainGroup.invoke"):
        "the one place the family leaves the library: any refusal becomes click's exit 2 with its message",
    ("cli/rules_options.py", "rules_from_cli"):
        "rules_options is a decorator for any click command, under the kaiser-sim group or not: its documented "
        "exit 2 for bad --rules / --rule must not depend on the group",
}


def _package_exceptions() -> dict[str, type]:
    """Every exception class a module of the package defines or imports, and the builtins, by name."""
    import builtins

    found = {n: c for n, c in vars(builtins).items() if isinstance(c, type) and issubclass(c, BaseException)}
    for m in pkgutil.walk_packages(kaiser_sim.__path__, "kaiser_sim."):
        if m.name.endswith("__main__"):
            continue
        for name, obj in vars(importlib.import_module(m.name)).items():
            if isinstance(obj, type) and issubclass(obj, BaseException):
                found.setdefault(name, obj)
    return found


def _caught(node: ast.expr | None) -> list[str]:
    """The class names an ``except`` clause names (``res.ResultsError`` -> ``ResultsError``)."""
    if node is None:
        return ["BaseException"]
    items = node.elts if isinstance(node, ast.Tuple) else [node]
    return [i.attr if isinstance(i, ast.Attribute) else getattr(i, "id", "?") for i in items]


def _is_the_message(arg: ast.expr, name: str) -> bool:
    """``e``, ``str(e)`` or ``f"{e}"``: the caught error's message, unchanged."""
    if isinstance(arg, ast.Name):
        return arg.id == name
    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name) and arg.func.id == "str" and len(arg.args) == 1:
        return _is_the_message(arg.args[0], name)
    if isinstance(arg, ast.JoinedStr) and len(arg.values) == 1 and isinstance(arg.values[0], ast.FormattedValue):
        return _is_the_message(arg.values[0].value, name)
    return False


def _same_message_translations():
    """``(file, function, line, caught)`` for each ``except ... as e: raise Other(str(e))`` in the
    package whose caught classes are all KaiserSimError: one layer's refusal raised again as
    another class with the same message."""
    classes = _package_exceptions()
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        scopes = []

        def visit(node, scope):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                scope = f"{scope}.{node.name}" if scope else node.name
            if isinstance(node, ast.ExceptHandler) and node.name:
                names = _caught(node.type)
                family = all(n in classes and issubclass(classes[n], KaiserSimError) for n in names)
                for sub in ast.walk(node):
                    if (isinstance(sub, ast.Raise) and isinstance(sub.exc, ast.Call) and len(sub.exc.args) == 1
                            and not sub.exc.keywords and _is_the_message(sub.exc.args[0], node.name)):
                        scopes.append((rel, scope, sub.lineno, tuple(names), family))
            for child in ast.iter_child_nodes(node):
                visit(child, scope)

        visit(tree, "")
        yield from scopes


def test_no_translation_of_a_family_error_keeps_its_message():
    # a layer lets the errors of the layers below pass (the CLI group shows any of them, exit 2);
    # it raises one again as its own only to say more (which option, which file)
    found = list(_same_message_translations())
    bad = [f"{rel}:{line} ({scope}): except {', '.join(names)} -> same message"
           for rel, scope, line, names, family in found if family and (rel, scope) not in KEPT_TRANSLATIONS]
    assert not bad, "translations that change nothing but the class:\n" + "\n".join(bad)
    kept = {(rel, scope) for rel, scope, _, _, family in found if family}
    assert kept == set(KEPT_TRANSLATIONS), "KEPT_TRANSLATIONS lists a translation that is gone"
    # the scan sees translations into the family too (they stay: a RuntimeError, a click error made one)
    assert any(names == ("RedealError",) and not family for _, _, _, names, family in found)


def test_the_scan_finds_a_same_message_translation(tmp_path, monkeypatch):
    # the scan is not vacuous: the old form, except StudyError as e: raise InputError(str(e)), is found
    source = ("from kaiser_sim.studies import StudyError\n\n\ndef f():\n    try:\n        pass\n"
              "    except (StudyError, RulesError) as e:\n        raise InputError(str(e)) from None\n")
    (tmp_path / "probe.py").write_text(source, encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", tmp_path)
    assert [(r, s, n) for r, s, _, n, fam in _same_message_translations() if fam] == \
        [("probe.py", "f", ("StudyError", "RulesError"))]
