"""One error base: every refusal of the library is a KaiserSimError (a
ValueError), and the command line turns any of them into exit 2."""

from __future__ import annotations

import ast
import importlib
import pkgutil
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
