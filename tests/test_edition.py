"""The committed edition (``make sample``) is byte-reproducible from its
command and seed and names no machine path: the same recipe on a cut-down
size, run twice into two directories, gives the same bytes in every file."""

from __future__ import annotations

import os
import re
from pathlib import Path

from click.testing import CliRunner

from kaiser_sim.cli import main
from kaiser_sim.runs.simulate import simulate

MAKEFILE = Path(__file__).resolve().parents[1] / "Makefile"
STUDIES = "bid-odds,bidding-chart,auction,five-hearts,listening"


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_same_recipe_same_bytes_no_machine_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    simulate(Path("runs/sample"), 200, 1, mode="points", workers=1)
    trees = []
    for out in ("reports/a", "reports/b"):
        res = CliRunner().invoke(main, ["report", "--from", "runs/sample", "--out", out, "--max-resolve", "6",
                                        "--studies", STUDIES, "--edition", "--quiet"])
        assert res.exit_code == 0, res.output
        trees.append(_tree(Path(out)))
    a, b = trees
    assert set(a) == set(b) and len(a) > 20
    # report.json names its own output directory; every other file is the same, byte for byte
    differ = [name for name in a if a[name] != b[name]]
    assert differ == ["report.json"], differ
    assert a["report.json"].replace(b"reports/a", b"reports/b") == b["report.json"]
    machine = [str(tmp_path), os.path.expanduser("~"), "/tmp", "/work", "/home"]
    for name, data in a.items():
        text = data.decode("latin-1")
        hits = [m for m in machine if m and m in text]
        assert not hits, f"{name} names {hits}"
        assert not re.search(r'"seconds"', text), f"{name} records wall-clock times"


def test_make_sample_is_the_recipe():
    """``make sample`` simulates at least a million deals, re-solves at least
    100,000 for the 5H and 3S, and reports from the kept run with the date
    of the code (SOURCE_DATE_EPOCH)."""
    text = MAKEFILE.read_text(encoding="utf-8")
    deals = int(re.search(r"^SAMPLE_DEALS\s*\?=\s*(\d+)", text, re.M).group(1))
    resolve = int(re.search(r"^SAMPLE_RESOLVE\s*\?=\s*(\d+)", text, re.M).group(1))
    assert deals >= 1_000_000 and resolve >= 100_000
    recipe = text[text.index("\nsample:"):].split("\n\n")[0]
    assert "simulate --deals $(SAMPLE_DEALS) --seed 1" in recipe
    assert "SOURCE_DATE_EPOCH=$(SAMPLE_EPOCH)" in recipe and "report --from $(SAMPLE_RUN)" in recipe
    assert "--edition" in recipe  # page 1 says it is the edition, not a preview
    assert "edition_times.py --times $(SAMPLE_TIMES) --save" in recipe  # each step's time and memory, outside the pages


def test_auction_study_does_not_depend_on_its_blocks(tmp_path, monkeypatch):
    """The auction study bids a large run in blocks of rows (its memory stays
    bounded at a million deals); the tables are the same whatever the block."""
    import pandas as pd

    from kaiser_sim.runs.results import load_run
    from kaiser_sim.rules import Rules
    from kaiser_sim.studies import auction

    simulate(tmp_path / "r", 160, 7, mode="points", workers=1)
    results = load_run(tmp_path / "r")
    whole = auction.run(results, Rules(), min_cell=5)
    monkeypatch.setattr(auction, "BLOCK_ROWS", 37)
    assert len(auction.blocks(160)) == 5
    split = auction.run(results, Rules(), min_cell=5)
    assert set(whole) == set(split)
    for name in whole:
        pd.testing.assert_frame_equal(whole[name], split[name])
    assert len(whole["call_chart"]) > 0
