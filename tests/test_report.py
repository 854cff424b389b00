"""The printed report: built from a small seeded results set (solved once),
checked as files, as Markdown against its CSVs and as PDF pages and
metadata (the PDF's text, outline, links and charts: tests/test_report_pdf.py)."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest
from click.testing import CliRunner

from kaiser_sim.cli import main
from kaiser_sim.report import GLOSSARY_TITLE, ci, parse_studies, pct
from kaiser_sim.runs.simulate import simulate
from kaiser_sim.studies import STUDIES, StudyError, get_study
from kaiser_sim.studies.advice import ADVICE_TITLE
from kaiser_sim.studies.blocks import ranges
from kaiser_sim.studies.heard import TITLE as HEARD_TITLE

TITLES = {k: get_study(k).TITLE for k in STUDIES}

N_DEALS = 200
SEED = 5
EPOCH = "1700000000"  # 2023-11-14


@pytest.fixture(scope="module")
def results_dir(tmp_path_factory):
    path = tmp_path_factory.mktemp("runs") / "r"
    simulate(path, N_DEALS, SEED, mode="points", workers=1)
    return path


@pytest.fixture(scope="module")
def built(results_dir, tmp_path_factory):
    """The full report from the seeded results, through the command line."""
    out = tmp_path_factory.mktemp("report") / "rep"
    mp = pytest.MonkeyPatch()
    mp.setenv("SOURCE_DATE_EPOCH", EPOCH)
    try:
        res = CliRunner().invoke(main, ["report", "--from", str(results_dir), "--out", str(out),
                                        "--max-resolve", "8", "--quiet"])
    finally:
        mp.undo()
    assert res.exit_code == 0, res.output
    return out, res


def _md_tables(text: str):
    """``[(csv_path, header, rows)]`` for every table in report.md (each
    table is followed by a line linking its CSV)."""
    out = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("| ") and i + 1 < len(lines) and lines[i + 1].startswith("|---"):
            header = [c.strip() for c in lines[i].strip().strip("|").split(" | ")]
            rows = []
            j = i + 2
            while j < len(lines) and lines[j].startswith("| "):
                rows.append([c.strip() for c in lines[j].strip()[1:-1].split(" | ")])
                j += 1
            link = next(ln for ln in lines[j:j + 3] if "CSV: [" in ln)
            out.append((re.search(r"CSV: \[([^\]]+)\]", link).group(1), header, rows))
            i = j
        else:
            i += 1
    return out


def test_files_written(built):
    out, res = built
    assert "report:" in res.output and "pages" in res.output
    for name in ("report.pdf", "report.md", "report.json"):
        assert (out / name).is_file() and (out / name).stat().st_size > 0
    for key in STUDIES:
        d = out / key
        assert (d / "study.json").is_file()
        assert list(d.glob("*.csv")) and list(d.glob("*.png")) and list(d.glob("*.svg"))
    assert len(list((out / "tables").glob("*.csv"))) >= 15


def test_report_json_records_inputs(built, results_dir):
    out, _ = built
    doc = json.loads((out / "report.json").read_text())
    assert doc["deals"] == N_DEALS and doc["seed"] == SEED
    assert doc["studies"] == list(STUDIES)
    assert doc["rules"]["label"] == "standard" and doc["version"]
    assert doc["date"].startswith("2023-11-14")
    assert doc["max_resolve"] == 8 and doc["params"]["five-hearts"]["max_resolve"] == 8
    assert doc["results"] == str(results_dir)
    assert all((out / f).is_file() for f in doc["files"])


def test_markdown_tables_match_csv(built):
    out, _ = built
    text = (out / "report.md").read_text(encoding="utf-8")
    tables = _md_tables(text)
    assert len(tables) >= 15
    for csv, header, rows in tables:
        df = pd.read_csv(out / csv, dtype=str, keep_default_na=False)
        assert header == list(df.columns), csv
        assert rows == df.values.tolist(), csv
    assert "nan" not in text.lower().replace("nanc", "")


def test_markdown_sections_and_charts(built):
    out, _ = built
    text = (out / "report.md").read_text(encoding="utf-8")
    heads = re.findall(r"^## (.+)$", text, flags=re.M)
    assert heads[:4] == ["Contents", "Cheat sheet: at the table", "Cheat sheet, continued", GLOSSARY_TITLE]
    assert heads[4:7] == ["Worked hands", ADVICE_TITLE, HEARD_TITLE]
    assert heads[7:-1] == [TITLES[k] for k in STUDIES] and heads[-1] == "Appendix: method"
    charts = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert len(charts) >= 15
    for c in charts:
        assert c.endswith(".svg") and (out / c).is_file()
    assert f"Seed: {SEED}" in text and "Deals: 200" in text


def test_pdf_pages_and_metadata(built):
    out, _ = built
    data = (out / "report.pdf").read_bytes()
    doc = json.loads((out / "report.json").read_text())
    assert data.startswith(b"%PDF")
    pages = len(re.findall(rb"/Type /Page\b", data))
    assert pages == doc["pages"]
    assert 2 + len(STUDIES) + 1 <= pages <= 60  # title, cheat sheet, studies, appendix
    assert b"What the cards are worth in Kaiser" in data  # the Title metadata
    assert b"D:20231114" in data  # CreationDate from SOURCE_DATE_EPOCH


def test_glossary_and_nt_scoring_in_markdown(built):
    """Every term the report uses is defined once, after the cheat sheet;
    every piece of NT advice states the rules' NT scoring."""
    out, _ = built
    text = (out / "report.md").read_text(encoding="utf-8")
    glossary = text.split(f"## {GLOSSARY_TITLE}")[1].split("\n## ")[0]
    for term in ("Double dummy (DD)", "Table play", "PIMC", "Declarer", "Partner, LHO, RHO", "Kaiser count", "Trump by rule",
                 "Settled, ?", "Kept, traded, depends on the play", "Rule codes", "NT, no trump"):
        assert f"**{term}" in glossary, term
    for rule in ("longest", "strongest", "longest-strength"):
        assert rule in glossary
    nt = "no trump scores double, a made NT bid scores twice the points taken and a failed one loses twice the bid"
    assert nt in glossary
    more = _section(text, "Cheat sheet, continued")
    assert nt in more.split("### When to bid no trump")[1]  # beside the NT lines
    assert nt in _section(text, "Cheat sheet: at the table")  # the table card's grid
    trump_nt = text.split(f"## {TITLES['trump-and-nt']}")[1].split("\n## ")[0]
    assert nt in trump_nt


def test_subset_of_studies(results_dir, tmp_path):
    out = tmp_path / "sub"
    res = CliRunner().invoke(main, ["report", "--from", str(results_dir), "--out", str(out),
                                    "--studies", "lead,bid-odds", "--quiet"])
    assert res.exit_code == 0, res.output
    doc = json.loads((out / "report.json").read_text())
    assert doc["studies"] == ["bid-odds", "lead"]
    assert not (out / "five-hearts").exists()
    text = (out / "report.md").read_text(encoding="utf-8")
    assert "The lead" in text and TITLES["trump-and-nt"] not in text


def test_no_cheat_sheet_without_its_studies(results_dir, tmp_path):
    """Studies with nothing for the cheat sheet: no cheat-sheet section."""
    out = tmp_path / "bare"
    res = CliRunner().invoke(main, ["report", "--from", str(results_dir), "--out", str(out),
                                    "--studies", "bid-odds", "--quiet"])
    assert res.exit_code == 0, res.output
    text = (out / "report.md").read_text(encoding="utf-8")
    heads = re.findall(r"^## (.+)$", text, flags=re.M)
    assert heads == ["Contents", GLOSSARY_TITLE, ADVICE_TITLE, TITLES["bid-odds"], "Appendix: method"]
    assert "Cheat sheet" not in text and not (out / "tables" / "cheat-what-to-bid.csv").exists()


def test_bad_studies_refused(results_dir, tmp_path):
    res = CliRunner().invoke(main, ["report", "--from", str(results_dir), "--out", str(tmp_path / "x"),
                                    "--studies", "bid-odds,no-such"])
    assert res.exit_code == 2
    assert "no-such" in res.output and "bidding-chart" in res.output
    assert not (tmp_path / "x" / "report.pdf").exists()


def test_unreadable_from_refused(tmp_path):
    res = CliRunner().invoke(main, ["report", "--from", str(tmp_path / "missing"), "--out", str(tmp_path / "x")])
    assert res.exit_code == 2 and "missing" in res.output
    junk = tmp_path / "junk"
    junk.mkdir()
    (junk / "part-000000.parquet").write_text("not parquet")
    res = CliRunner().invoke(main, ["report", "--from", str(junk), "--out", str(tmp_path / "y")])
    assert res.exit_code == 2 and "Error" in res.output
    assert not (tmp_path / "y" / "report.pdf").exists()


def test_from_with_deals_refused(results_dir, tmp_path):
    res = CliRunner().invoke(main, ["report", "--from", str(results_dir), "--deals", "200"])
    assert res.exit_code == 2 and "--from" in res.output


def test_helpers():
    assert parse_studies(None) == list(STUDIES)
    assert parse_studies("lead, BID_ODDS") == ["bid-odds", "lead"]
    with pytest.raises(StudyError, match="nope"):
        parse_studies("nope")
    assert ranges([6, 7, 8, 10, 12, 11]) == "6–8, 10–12"
    assert ci(-0.001, -0.3, 0.2) == "0.00 [-0.30, 0.20]"
    assert pct(0.5, 0.4, 0.6, 0) == "50 [40, 60]"
    assert ci(float("nan"), 1, 2) == "-"


def test_too_few_deals_refused(tmp_path):
    res = CliRunner().invoke(main, ["report", "--deals", "10", "--out", str(tmp_path / "x")])
    assert res.exit_code == 2 and "100<=x<=" in res.output  # --help shows the same range
    assert not (tmp_path / "x" / "results").exists()


@pytest.mark.parametrize("keep", [True, False])
def test_the_report_names_its_results_where_they_are_kept(tmp_path, monkeypatch, keep):
    """The deals simulated into OUT/results are kept and named; with
    --no-keep-results (``make sample``) they are removed and the report says
    so instead of naming a directory that is gone.  (The studies are
    replaced by a stand-in: only where the results go is tested.)"""
    from kaiser_sim.report import make

    seen = {}

    class Built:
        out = None

    def build(data, stage, *args, **kwargs):
        seen["source"] = data.source
        return Built()

    monkeypatch.setattr(make, "build_report", build)  # where make_report finds them
    monkeypatch.setattr(make, "write_report", lambda r: {"seconds": {}, "pages": 1, "deals": 100, "seed": 1})
    out = tmp_path / "rep"
    args = ["report", "--deals", 100, "--seed", 1, "--workers", 1, "--out", out, "-q"]
    result = CliRunner().invoke(main, [str(a) for a in args + ([] if keep else ["--no-keep-results"])])
    assert result.exit_code == 0, result.output
    assert (out / "results").is_dir() == keep
    if keep:
        assert seen["source"] == str(out / "results")
    else:
        assert seen["source"].startswith("not kept (--no-keep-results)") and str(out) not in seen["source"]


# --- issue 29: the preview and the edition; words that agree with the numbers -----------------------


def _section(text: str, title: str) -> str:
    return text.split(f"## {title}")[1].split("\n## ")[0]


def test_the_preview_says_so_and_names_the_edition(built):
    """Without --edition the title page's first words say the report is a
    preview and where the edition is; report.json records which it is."""
    from kaiser_sim.report import EDITION_PATH

    out, _ = built
    text = (out / "report.md").read_text(encoding="utf-8")
    title = text.split("### The questions")[0]
    assert "Preview" in title and EDITION_PATH in title and f"{N_DEALS:,} deals" in title
    assert json.loads((out / "report.json").read_text())["edition"] is False


def test_the_edition_does_not_call_itself_a_preview(results_dir, tmp_path):
    out = tmp_path / "ed"
    res = CliRunner().invoke(main, ["report", "--from", str(results_dir), "--out", str(out), "--studies", "lead",
                                    "--edition", "--quiet"])
    assert res.exit_code == 0, res.output
    text = (out / "report.md").read_text(encoding="utf-8")
    assert "preview" not in text.lower()
    assert "This is the edition" in text.split("### The questions")[0]
    assert json.loads((out / "report.json").read_text())["edition"] is True
    assert "--edition" in CliRunner().invoke(main, ["report", "--help"]).output


def test_special_card_sections_state_the_n_of_each_part(built):
    """The 5H and 3S sections' n is the run's deals, which part (b) uses;
    parts (a) and (c) re-solve the first --max-resolve of them."""
    out, _ = built
    text = (out / "report.md").read_text(encoding="utf-8")
    for key in ("five-hearts", "three-spades"):
        sec = _section(text, TITLES[key])
        assert f"n = {N_DEALS:,} deals, seed {SEED}; (a) and (c) re-solve the first 8 of them, (b) uses all " \
               f"{N_DEALS:,};" in sec
        observed = pd.read_csv(out / "tables" / f"{key}-worth-observed.csv", dtype=str)
        assert set(observed["deals"]) == {f"{N_DEALS:,}"}
        kept = pd.read_csv(out / "tables" / f"{key}-kept.csv", dtype=str)
        assert int(kept["deals"].iloc[0].replace(",", "")) <= 8


def test_cheat_sheet_nt_lines_are_in_the_grids_measure_and_agree_with_their_table(built):
    """The no-trump lines of the cheat sheet are in the measure of the
    what-to-bid grid above them (table play), say they compare NT with a
    plain bid rather than that NT pays, and give the verdicts of the
    study's table-play table level by level."""
    out, _ = built
    text = (out / "report.md").read_text(encoding="utf-8")
    cheat = _section(text, "Cheat sheet, continued")
    grid_head = re.search(r"### How high to bid \((table play|double dummy)", _section(text, "Cheat sheet: at the "
                                                                                      "table")).group(1)
    nt_head = re.search(r"### When to bid no trump rather than a plain bid \((.+)\)", cheat).group(1)
    assert grid_head == nt_head == "table play"
    assert "Any hand" not in cheat and "no NT bid pays, whatever these lines say" in cheat
    table = pd.read_csv(out / "tables" / "trump-and-nt-nt-vs-trump-table-play.csv", dtype=str)
    for label, aces in (("All hands, on average", "all"), ("0 aces", "0 aces"), ("1 ace", "1 ace")):
        line = re.search(rf"^- {label}: (.+)$", cheat, flags=re.M)
        assert line, label
        rows = table[table["aces"] == aces]
        nt_levels = [int(lv) for lv, v in zip(rows["level"], rows["verdict"]) if v == "NT"]
        said = re.search(r"NT beats a plain bid at ([\d–, ]+)", line.group(1))
        assert (ranges(nt_levels) if nt_levels else None) == (said.group(1).strip() if said else None), label


def test_a_row_where_no_bid_pays_has_pass_as_its_best_bid():
    """A chart cell whose plain and NT limits are both 'pass' prints 'pass'
    as its best bid (not the least-losing bid), and no score for it."""
    from kaiser_sim.studies.bidding_chart import _chart_rows

    ch = pd.DataFrame([
        {"strength": "4.5-5", "trump_len": "2", "n": 117, "n_select": 59, "n_report": 58, "bid_up_to": "pass", "bid_up_to_sure": "pass",
         "nt_up_to": "pass", "best_bid": "6NT", "expected": 0.28, "lo": -1.33, "hi": 1.89, "p_make": 0.44},
        {"strength": "5.5-6", "trump_len": "3", "n": 1266, "n_select": 633, "n_report": 633, "bid_up_to": "7", "bid_up_to_sure": "6",
         "nt_up_to": "6NT", "best_bid": "6", "expected": 1.66, "lo": 1.36, "hi": 1.97, "p_make": 0.54}])
    rows = _chart_rows(ch)
    assert rows["best bid"].tolist() == ["pass", "6"]
    assert rows["its score"].tolist()[0] == "-" and rows["its score"].tolist()[1].startswith("1.66")
    # "n" is the cell's hands (the limits); "its n" the odd-deal hands the best bid is measured on
    assert rows["n"].tolist() == ["117", "1,266"] and rows["its n"].tolist() == ["58", "633"]


def test_hand_eval_prints_the_kaiser_count_used_everywhere(built):
    """The hand-evaluation table sets this run's fit beside the one Kaiser
    count of the report (the strength axis), not a rounding of its own."""
    from kaiser_sim.hands import KAISER_COUNT

    out, _ = built
    t = pd.read_csv(out / "tables" / "hand-eval-kaiser-count.csv", dtype=str)
    assert "rounded" not in t.columns
    assert {f: float(v) for f, v in zip(t["feature"], t["Kaiser count"])} == \
        {f: KAISER_COUNT.get(f, 0.0) for f in t["feature"]}
    assert set(KAISER_COUNT) <= set(t["feature"])


def test_special_cards_put_in_a_players_words(built):
    """Part (c) says what the side pays or keeps of the card's points, as a
    positive amount, and a minus against partner is explained."""
    out, _ = built
    text = (out / "report.md").read_text(encoding="utf-8")
    cheat = _section(text, "Cheat sheet, continued")
    assert re.search(r"dealt the 3♠, your side pays \d+\.\d+ \[", cheat)
    assert re.search(r"dealt the 5♥, your side keeps \d+\.\d+ \[", cheat)
    assert "keeps -" not in text and "keeps −" not in text and "of its own -3" not in text
    assert "When you declare, the 5♥ in your hand rather than in your partner's:" in cheat


# --- every number of the text from a table of the same run (issue 43, item 5) ------------------------------

#: a number as the report prints it: 1,234 / -0.57 / +5.3 / 62%
_NUMBER = re.compile(r"(?<![\w.,\-−+])[-−+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w])")
#: the numbers prose may carry without a table: the rules' and the method's constants, each with its reason
_ALLOWED = {
    **{str(k): "the rules' small counts: cards, tricks, suits, bids 6-12, points of a hand, the 5♥'s 5 and the "
       "3♠'s 3, counts of the table card" for k in range(0, 13)},
    "20": "leaders x strains of a re-solved deal (4 x 5)", "30": "the smallest cell printed (MIN_CELL)",
    "15": "the bidding chart's smallest half-cell", "32": "cards of the deck", "45": "the 45 rule (S4)",
    "52": "the score the game is played to", "50": "an even match, 50%", "64": "the game's target in some presets",
    "95": "the intervals' level", "93": "the coverage test's range", "97": "the coverage test's range",
    "100": "per cent", "0.05": "the boundary of '≈' (BOUNDARY)", "2.5": "the count's 2.5-point steps",
    "100,000": "the Kaiser count's fit: seed 1's first 100,000 deals (a constant of the shipped fit)",
    "99,999": "the Kaiser count's fit: deals 0-99,999", "4,000": "kaiser-sim study listening's default matches",
    "1,000": "the play studies' deals (DEFAULT_PLAY_DEALS)",
    "2,000": "the hand evaluation's held-out deals (its holdout_deals default)",
    "16,000": "the shipped listening table's build (its provenance)",
    "24,000": "the shipped bidding population's build: its solved deals (its provenance)",
    "20261203": "the shipped bidding population's build: its seed (its provenance)",
}
#: sections whose numbers are the shipped models' provenance, printed as stored with the model, not the run's
_PROVENANCE = ("Appendix: method",)


def _prose_numbers(text: str):
    """``[(section, number, line)]`` of every number in the Markdown's prose
    (not its tables, chart links, CSV links, dates or times)."""
    section, out = "", []
    for line in text.splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
        if line.startswith(("|", "![")) or "CSV: [" in line or not line.strip():
            continue
        line = re.sub(r"\d{4}-\d\d-\d\d( \d\d:\d\d)?", " ", line)  # dates and times
        line = re.sub(r"[\w.\-/]+\.(csv|pdf|md|json|toml)\b", " ", line)  # file names
        line = re.sub(r"--[\w-]+ [\w.,-]+", " ", line)  # a command's options: the run's own recipe
        out += [(section, m, line) for m in _NUMBER.findall(line)]
    return out


def _table_tokens(text: str) -> set:
    """Every number printed in the Markdown's tables (sign dropped), and each
    rounded to fewer decimals: a sentence may round a table's figure (the
    rules of thumb print one decimal where the table prints two: -7.42
    [-8.23, -6.61] in the table reads -7.4 [-8.2, -6.6]), nothing else."""
    tokens = set()
    for line in text.splitlines():
        if line.startswith("|"):
            tokens |= {t.lstrip("+-−") for t in _NUMBER.findall(line)}
    return tokens | {r for t in tokens if "," not in t and "." in t
                     for d in range(1, len(t.split(".")[1])) for r in _roundings(t, d)}


def _roundings(t: str, d: int) -> set:
    """``t`` (a printed decimal) rounded to ``d`` decimals; both neighbours
    when the dropped digits are a 5 and zeros, where the figure it was
    printed from may have been on either side (a table's 0.615 was printed
    from 0.6146 or 0.6154: a sentence reads 0.61 or 0.62)."""
    from decimal import ROUND_DOWN, ROUND_UP, Decimal

    q = Decimal(1).scaleb(-d)
    x = Decimal(t)
    dropped = t.split(".")[1][d:]
    if dropped.rstrip("0") == "5":
        return {str(x.quantize(q, rounding=ROUND_DOWN)), str(x.quantize(q, rounding=ROUND_UP))}
    return {f"{float(t):.{d}f}"}


def test_every_number_of_the_text_is_in_a_table_of_the_run(built):
    """Each number in a sentence is printed in a table of the same report
    (its Markdown tables, token for token), or is an allowed constant with
    its reason; the appendix's model provenance aside."""
    out, _ = built
    text = (out / "report.md").read_text(encoding="utf-8")
    inputs = json.loads((out / "report.json").read_text(encoding="utf-8"))
    # the run's own inputs (the title page): its deals, seed and sizes are the run's, printed from report.json
    tokens = {f"{int(inputs[k]):,}" for k in ("deals", "seed", "max_resolve", "worked_deals") if k in inputs}
    tokens |= {str(inputs["rules"].get(k)) for k in ("target", "min_bid")}
    tokens |= _table_tokens(text)
    seen = {s for s, _, _ in _prose_numbers(text)}
    assert "Worked hands" in " ".join(seen) or len(seen) > 5  # the scan sees the sections
    missing = sorted({(s, n, line[:120]) for s, n, line in _prose_numbers(text)
                      if n.lstrip("+-−") not in tokens and n.lstrip("+-−") not in _ALLOWED
                      and not s.startswith(_PROVENANCE)})
    assert not missing, "numbers typed into the text or computed outside every table:\n" + "\n".join(
        f"{s}: {n}   ({line})" for s, n, line in missing)


def test_the_number_scan_can_fail():
    """The scan finds a typed number (the test above could fail)."""
    text = "## A section\n\n| a |\n|---|\n| 0.61 [0.59, 0.63] |\n\nabout 0.7 of a point, or 0.61 [0.59, 0.63]\n"
    found = [n for _, n, _ in _prose_numbers(text)]
    assert found == ["0.7", "0.61", "0.59", "0.63"]
    # the table's 0.61 may read 0.6 in a sentence, never 0.7
    assert {"0.6", "0.61", "0.59"} <= _table_tokens(text) and "0.7" not in _table_tokens(text)


def test_an_estimate_stays_strictly_inside_its_printed_interval():
    assert ci(0.97, 0.94, 1.004, 1) == "0.97 [0.94, 1.00]"  # 1.0 [0.9, 1.0] would print it on its end
    assert ci(0.6, 0.5, 0.7, 1) == "0.6 [0.5, 0.7]"
    for x, lo, hi in ((1.2345, 1.2001, 1.2399), (62.46, 61.1, 62.51), (-0.049, -0.4, -0.0449)):
        s = ci(x, lo, hi, 1)
        est, a, b = (float(v) for v in re.findall(r"-?\d+\.?\d*", s))
        assert a < est < b or (a == est == b), s


def test_every_column_of_estimates_keeps_one_precision(built):
    """Issue 43, item 6: in every table of the report, the estimates of a
    column (``x [lo, hi]``) print one number of decimals (percentages and
    points apart: a column that mixes them says so in its header)."""
    from report_columns import mixed_precision_columns

    out, _ = built
    assert not (mixed := mixed_precision_columns((out / "report.md").read_text(encoding="utf-8"))), mixed


def test_frame_prints_a_column_at_one_precision():
    from kaiser_sim.studies.blocks import ci, frame, pct, signed_ci

    df = frame([{"a": ci(6.7355, 6.7346, 6.7364), "b": pct(0.5, 0.4, 0.6), "c": signed_ci(0.5, 0.42, 0.58)},
                {"a": ci(7.72, 7.61, 7.83), "b": "·", "c": signed_ci(-0.2, -0.3, -0.1)},
                {"a": "0 (the same)", "b": pct(0.123, 0.12, 0.126), "c": signed_ci(1.25, 1.2, 1.3, 1)}])
    assert df["a"].tolist() == ["6.7355 [6.7346, 6.7364]", "7.7200 [7.6100, 7.8300]", "0 (the same)"]
    assert df["b"].tolist() == ["50.0 [40.0, 60.0]", "·", "12.3 [12.0, 12.6]"]
    assert df["c"].tolist() == ["+0.50 [0.42, 0.58]", "-0.20 [-0.30, -0.10]", "+1.25 [1.20, 1.30]"]


def test_a_column_keeps_one_precision():
    from kaiser_sim.studies.blocks import ci_column

    cells = ci_column([(0.62, 0.61, 0.63), (0.075, 0.067, 0.084), (0.003, 0.0, 0.006)], 0, 100.0)
    decimals = {len(c.split(" ")[0].split(".")[1]) if "." in c.split(" ")[0] else 0 for c in cells}
    assert cells[1] == "7.5 [6.7, 8.4]" and decimals == {1}, cells
