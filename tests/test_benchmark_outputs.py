"""The benchmark scripts write their committed record, ``benchmarks/results/``,
only when asked (``--save``); by default they print their result (issue 32)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted(p for p in (ROOT / "benchmarks").glob("*.py") if p.name not in ("common.py", "machine.py"))


@pytest.fixture
def common(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    sys.modules.pop("common", None)
    import common

    yield common
    sys.modules.pop("common", None)


def test_the_result_file_is_written_only_with_save(common, tmp_path, capsys):
    p = common.parser("A benchmark.", "x")
    p.add_argument("--extra-out", type=Path, default=None)
    p.saved["extra_out"] = "x_extra.md"
    assert (p.parse_args([]).out, p.parse_args([]).extra_out) == (None, None)
    args = p.parse_args(["--save"])
    assert (args.out, args.extra_out) == (common.RESULTS / "x.md", common.RESULTS / "x_extra.md")
    assert p.parse_args(["--save", "--out", str(tmp_path / "o.md")]).out == tmp_path / "o.md"
    common.write_result(None, "# result", log=lambda msg: print(msg, file=sys.stderr))
    out = capsys.readouterr()
    assert out.out == "# result\n" and "not saved" in out.err
    common.write_result(tmp_path / "d" / "o.md", "# result")
    assert (tmp_path / "d" / "o.md").read_text() == "# result"


@pytest.mark.parametrize("script", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_every_script_takes_its_options_from_common(script):
    text = script.read_text(encoding="utf-8")
    assert "common.parser(" in text
    # no output option of its own that defaults to a file under results/
    assert not re.search(r"add_argument\([^)]*default=(common\.RESULTS|DEFAULT_\w*OUT)", text, re.S), script.name
    # nor one common.parser already has (argparse refuses the clash when the script starts)
    assert not re.search(r"add_argument\(\s*\"--(save|out|seed)\"", text), script.name


def test_edition_check_reads_widths_and_the_pages_notes_on_them(common):
    """``benchmarks/edition_check.py``: each headline interval's half-width
    against the bar, and the section's note saying why some are wider."""
    import edition_check

    md = "\n".join([
        "## Cheat sheet: at the table", "",
        "- 0 aces: a plain bid beats NT at 6–12 (at 6: NT minus plain -3.2 [-3.4, -3.0] points)",
        "- The 5♥: +0.41 [0.38, 0.44] when you declare.", "",
        "_These lines average over every hand. The intervals of these lines (±0.2 points) are wider than the "
        "page's other figures: the model's error._", "",
        "## Bid odds", "",
        "What the numbers mean. Bid 8 makes 41.7 [40.7, 42.6]% of the time; 9 makes 30.1 [27.0, 33.2]%.",
    ])
    rows = edition_check.headlines(md)
    assert [(r["half"], r["unit"], r["over"]) for r in rows] == [
        (pytest.approx(0.2), "points", True), (pytest.approx(0.03), "points", False),
        (pytest.approx(0.95), "pp", False), (pytest.approx(3.1), "pp", True)]
    notes = edition_check.width_notes(md)
    assert list(notes) == ["Cheat sheet: at the table"] and notes["Cheat sheet: at the table"].startswith(
        "The intervals of these lines")
