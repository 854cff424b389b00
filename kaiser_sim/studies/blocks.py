"""What a study contributes to the printed report, renderer-neutral.

A study module builds its report section and its cheat-sheet lines from
three kinds of block, which the report (:mod:`kaiser_sim.report`) renders
the same way into PDF and Markdown:

- :class:`Text`: a paragraph, a note, a bullet, a heading or a glossary
  entry (a term and its definition);
- :class:`Table`: a table of strings printed as is (and written as
  ``tables/<name>.csv``);
- :class:`Chart`: one of the study's charts (PNG and SVG).

A study's ``section(tables)`` returns ``(blocks, meaning, charts)``: its
blocks in print order, what the numbers mean (sentences for the report's
summary) and the names of the charts it shows.

The formatting helpers print every estimate with its 95% interval
(:func:`ci`, :func:`pct`, ...).  This module imports neither the report nor
any study: the layers run one way (report -> studies -> blocks).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd


@dataclass
class Text:
    text: str
    style: str = "body"  # body | note | bullet | heading | callout (boxed) | box (framed lines, one a \n) | term (a glossary entry: ``term`` defined by ``text``)
    term: str = ""


@dataclass
class Table:
    name: str  # file stem under tables/
    title: str
    df: pd.DataFrame  # strings, printed as is
    note: str = ""
    size: float = 8.5  # largest font size in the PDF (pt)


@dataclass
class Chart:
    path: str  # relative to the report directory, without extension
    title: str


# --- formatting -------------------------------------------------------------------------------


def ok(*xs) -> bool:
    """True when no value is None or NaN."""
    return all(x is not None and not (isinstance(x, float) and math.isnan(x)) for x in xs)


#: at most this many decimals more than asked for, to keep a narrow interval from reading "[0.4, 0.4]"
EXTRA_DIGITS = 2


def _decimals(text: str) -> int:
    """The decimals of a printed estimate's first number."""
    head = text.split(" ")[0]
    return len(head.split(".")[1]) if "." in head else 0


def ci_digits(x, lo, hi, digits: int = 2, scale: float = 1.0) -> int:
    """The decimals :func:`ci` prints ``x [lo, hi]`` at (``digits`` or up to
    :data:`EXTRA_DIGITS` more)."""
    return _decimals(ci(x, lo, hi, digits, scale))


def ci_column(cells, digits: int = 2, scale: float = 1.0) -> list[str]:
    """``[(x, lo, hi), ...]`` -> the cells of one column, all at the same
    decimals: the most any cell needs under :func:`ci`'s rule
    (:func:`one_precision`; a column whose precision changes from row to
    row reads as a change of unit)."""
    return one_precision([ci(*c, digits=digits, scale=scale) if ok(c[0]) else "-" for c in cells])


class Estimate(str):
    """A printed estimate with its interval (what :func:`ci`, :func:`pct` and
    :func:`signed_ci` return) that remembers its numbers, so that a table
    can print its whole column at one precision (:func:`frame`).  It is the
    string it prints wherever a string goes (a sentence, a CSV cell)."""

    def __new__(cls, text: str, x, lo, hi, scale: float, signed: bool):
        out = str.__new__(cls, text)
        out.values, out.scale, out.signed = (x, lo, hi), scale, signed
        return out

    @property
    def decimals(self) -> int:
        return _decimals(self)

    def at(self, digits: int) -> str:
        """The same estimate printed at ``digits`` decimals (or more where
        :func:`ci`'s rule needs them)."""
        return (signed_ci if self.signed else ci)(*self.values, digits=digits, scale=self.scale)


def one_precision(cells: list) -> list:
    """One column's cells with its :class:`Estimate` cells reprinted at the
    most decimals any of them has (the estimates of one unit, a percentage
    or points, apart from each other; other cells as they are): a column
    whose precision changes from row to row reads as a change of unit."""
    out = list(cells)
    groups: dict = {}
    for i, c in enumerate(out):
        if isinstance(c, Estimate):
            groups.setdefault(c.scale, []).append(i)
    for rows in groups.values():
        d = max(out[i].decimals for i in rows)
        for i in rows:
            if out[i].decimals != d:
                out[i] = out[i].at(d)
    return out


def ci(x, lo, hi, digits: int = 2, scale: float = 1.0) -> str:
    """``1.23 [1.10, 1.36]``: an estimate with its 95% interval, at
    ``digits`` decimals, or at up to :data:`EXTRA_DIGITS` more where an
    interval of some width would otherwise print its two ends alike
    (``0.4 [0.4, 0.4]`` reads as a certainty: ``0.41 [0.38, 0.44]``) or an
    estimate strictly inside its interval on one of its ends (``1.0 [0.9,
    1.0]``: ``0.97 [0.94, 1.00]``)."""
    if not ok(x):
        return "-"
    def f(v, d):
        t = f"{scale * v:.{d}f}"
        return t[1:] if t.startswith("-") and not t.strip("-0.") else t  # no "-0.0"

    if not ok(lo, hi):
        return f(x, digits)
    def unclear(d):
        # the two ends printed alike, or the estimate printed on an end it lies strictly inside of
        return lo < hi and (f(lo, d) == f(hi, d) or (lo < x < hi and f(x, d) in (f(lo, d), f(hi, d))))

    d = digits
    while d < digits + EXTRA_DIGITS and unclear(d):
        d += 1
    return Estimate(f"{f(x, d)} [{f(lo, d)}, {f(hi, d)}]", x, lo, hi, scale, False)


def signed_ci(x, lo, hi, digits: int = 2, scale: float = 1.0) -> str:
    """``+1.23 [1.10, 1.36]``: :func:`ci` with the estimate's sign always
    shown (a worth or a change)."""
    s = ci(x, lo, hi, digits, scale)
    if not isinstance(s, Estimate):
        return s
    zero = not s.split(" ")[0].strip("-0.")  # rounds to 0: no sign
    return Estimate(s if s.startswith("-") or zero else "+" + s, x, lo, hi, scale, True)


def pct(p, lo, hi, digits: int = 1) -> str:
    """A proportion as a percentage with its interval."""
    return ci(p, lo, hi, digits, 100.0)


def num(x, digits: int = 2) -> str:
    return "-" if not ok(x) else f"{x:.{digits}f}"


def count(n) -> str:
    return "-" if not ok(n) else f"{int(n):,}"


def scoring(rules) -> dict:
    """What the report's words on scoring need from a rules value (kept in
    a study's tables' metadata as ``extra["scoring"]``): how no trump and made bids
    score."""
    return {"nt_scoring": getattr(rules, "nt_scoring", "double"), "made_scores": getattr(rules, "made_scores", "raw")}


def nt_scoring_words(s: dict | None) -> str:
    """The rules' no-trump scoring in a sentence (``s``: :func:`scoring`, or
    a rules ``to_dict()``); "" when unknown.  Every piece of NT advice in
    the report states it: the advice depends on it."""
    if not s or "nt_scoring" not in s:
        return ""
    taken = "the bid" if s.get("made_scores") == "bid" else "the points taken"
    mode = s["nt_scoring"]
    if mode == "double":
        return (f"NT scoring under these rules: no trump scores double, a made NT bid scores twice {taken} and a "
                "failed one loses twice the bid.")
    if mode == "double-made":
        return (f"NT scoring under these rules: a made NT bid scores double (twice {taken}), a failed one loses the "
                "bid once.")
    return "NT scoring under these rules: no trump is not doubled, an NT bid scores like a trump bid."


def frame(rows: list[dict]) -> pd.DataFrame:
    """Rows of printed cells as a table of strings (a placeholder column when
    empty), each column's estimates at one precision (:func:`one_precision`)."""
    df = pd.DataFrame(rows)
    if not len(df):
        return pd.DataFrame({"(no rows)": []})
    for k in df.columns:
        cells = [r.get(k) for r in rows]
        even = one_precision(cells)
        if any(a is not b for a, b in zip(even, cells)):  # only the reprinted cells change
            df[k] = [c if c is not b else v for c, b, v in zip(even, cells, df[k].tolist())]
    return df.astype(str)


def ranges(levels) -> str:
    """``[6, 7, 8, 10]`` -> ``"6-8, 10"``."""
    out, run = [], []
    for lv in sorted(levels):
        if run and lv != run[-1] + 1:
            out.append(run)
            run = []
        run.append(lv)
    if run:
        out.append(run)
    return ", ".join(f"{r[0]}" if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in out)


__all__ = ["ci_digits", "ci_column", "Estimate", "one_precision", "Text", "Table", "Chart", "ok", "ci", "signed_ci", "pct", "num", "count", "frame", "ranges", "scoring",
           "nt_scoring_words"]
