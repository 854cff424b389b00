"""Does a report meet the edition's bar (issue 29)?  Settled limits and headline widths.

Reads a written report (default ``reports/sample``) and prints:

- the cheat sheet's what-to-bid limits (plain and NT, every filled cell):
  how many are settled, and why the others are not (``?`` too few hands,
  ``≈`` a bid on the boundary, ``*`` the table-play model's own error);
- every headline number, that is each ``x [lo, hi]`` of the cheat sheet and
  of each section's "What the numbers mean" paragraph in ``report.md``,
  with its half-width, against the bar: at most 0.1 points, or 1 percentage
  point for a percentage.  The ones over it are listed with their sentence.
"""

from __future__ import annotations

import csv
import re
import sys
from pathlib import Path

import common

#: a limit's mark in the cheat sheet (kaiser_sim.studies.bidding_chart.UNSETTLED_MARKS)
MARKS = {"?": "too few hands", "≈": "on the boundary", "*": "the table-play model's error"}
_INTERVAL = re.compile(r"([+-−]?\d+(?:\.\d+)?) \[([+-−]?\d+(?:\.\d+)?), ([+-−]?\d+(?:\.\d+)?)\](%?)")
POINTS_BAR, PP_BAR = 0.1, 1.0


def limits(csv_path: Path) -> list[tuple[str, str, str, str]]:
    """``[(count, trumps, plain or NT, mark)]`` of the what-to-bid grid's filled cells."""
    out = []
    with open(csv_path, encoding="utf-8") as f:
        rows = list(csv.reader(f))
    head = rows[0]
    for row in rows[1:]:
        for col, cell in zip(head[1:], row[1:]):
            if not col.endswith("trumps") or cell.strip() in ("·", "", "impossible"):
                continue  # the count columns, cells no hand can reach, cells short of hands
            # a table card cell holds one limit; a grid of an older report 'plain / NT'
            parts = cell.split("/")
            for kind, part in zip(("plain", "NT") if len(parts) == 2 else ("limit",), parts):
                part = part.strip()
                out.append((row[0], col, kind, part[-1] if part and part[-1] in MARKS else ""))
    return out


def _num(s: str) -> float:
    return float(s.replace("−", "-"))


def headline_sentences(report_md: str) -> list[tuple[str, str]]:
    """``[(section, sentence)]`` of the cheat sheet's lines and every "What the numbers mean." paragraph."""
    out, section, in_cheat = [], "", False
    for line in report_md.splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
            in_cheat = section.lower().startswith("cheat sheet")
            continue
        text = None
        if line.startswith("What the numbers mean."):
            text = line[len("What the numbers mean."):]
        elif in_cheat and line.startswith("- "):
            text = line[2:]
        if text:
            out += [(section, s.strip()) for s in re.split(r"(?<=[.;:])\s+(?=[A-Z(])", text) if _INTERVAL.search(s)]
    return out


def headlines(report_md: str) -> list[dict]:
    """Every interval of :func:`headline_sentences`: value, bounds, half-width, unit, over the bar or not."""
    rows = []
    for section, sentence in headline_sentences(report_md):
        for m in _INTERVAL.finditer(sentence):
            value, lo, hi = (_num(m.group(i)) for i in (1, 2, 3))
            # a percentage, or a difference of percentages ("an edge of ... points over an even match")
            pct = m.group(4) == "%" or sentence[m.end():].startswith(" points over an even match")
            half = (hi - lo) / 2
            unit = "R²" if "R²" in sentence[max(0, m.start() - 4):m.start()] else ("pp" if pct else "points")
            bar = PP_BAR if unit == "pp" else (0.01 if unit == "R²" else POINTS_BAR)
            rows.append({"section": section, "value": value, "lo": lo, "hi": hi, "half": half, "unit": unit,
                         "over": half > bar + 1e-9, "sentence": sentence})
    return rows


#: the words a page uses to say why some of its intervals are wider than the bar
_WIDER = "are wider than"


def width_notes(report_md: str) -> dict[str, str]:
    """``{section: sentence}``: the sentence of each section that says why
    some of its intervals are wider than the rest ("... are wider than ...")."""
    out, section = {}, ""
    for line in report_md.splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
            continue
        said = [t for t in re.split(r"(?<=\.)\s+(?=[A-Z])", line.strip(" _")) if _WIDER in t]
        if said and section not in out:
            out[section] = said[0]
    return out


def markdown(report: Path) -> str:
    lines = [f"# The edition's bar: `{report}`", ""]
    cells = limits(report / "tables" / "cheat-what-to-bid.csv")
    settled = sum(1 for c in cells if not c[3])
    lines += ["## The cheat sheet's limits", "",
              f"Settled: {settled} of {len(cells)} limits ({100 * settled / max(len(cells), 1):.0f}%), plain and NT, "
              "every filled cell.", ""]
    for mark, why in MARKS.items():
        which = [f"{c[0]} with {c[1]} ({c[2]})" for c in cells if c[3] == mark]
        if which:
            lines.append(f"- `{mark}` {why}: {len(which)}: {', '.join(which)}")
    text = (report / "report.md").read_text(encoding="utf-8")
    rows, notes = headlines(text), width_notes(text)
    over = [r for r in rows if r["over"]]
    explained = [r for r in over if r["section"] in notes]
    lines += ["", "## Headline numbers", "",
              f"{len(rows)} intervals in the cheat sheet's lines and the sections' 'What the numbers mean'; "
              f"{len(rows) - len(over)} within ±{POINTS_BAR} points or ±{PP_BAR} percentage point, {len(over)} over, "
              f"{len(explained)} of those with a note on their page saying why (the last column):", ""]
    if over:
        lines += ["| section | estimate | half-width | sentence | why (the page's note) |", "|---|---|---|---|---|"]
        lines += [f"| {r['section']} | {r['value']:g} [{r['lo']:g}, {r['hi']:g}] | ±{r['half']:.2f} {r['unit']} | "
                  f"{r['sentence'][:160]} | {notes.get(r['section'], 'none')[:200]} |" for r in over]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    p = common.parser(__doc__, "edition_check")
    p.add_argument("--report", type=Path, default=Path("reports/sample"), help="the written report's folder")
    args = p.parse_args(argv)
    if not (args.report / "report.md").exists():
        p.error(f"{args.report}: no report.md (write a report there first)")
    common.write_result(args.out, markdown(args.report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
