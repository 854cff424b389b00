"""Study 7, the lead: what is being on lead worth?

Same deal, same strain: the declaring side's double-dummy points with the
declarer on lead (as in Kaiser) against the same side's points when the
next seat clockwise (the declarer's left-hand opponent) leads instead.
The second value is ``10 - points(LHO on lead)`` (the sides' points add to
10).  No re-solve: both values are in every results row.

``lead value = points(declarer leads) - points(LHO leads)``, for the
strain named by the trump rule, for no trump, and for every strain;
paired means with 95% intervals, its distribution, and the change in
the make probability of each bid (paired difference of indicators).  The
four declarer hands of a deal are not independent: every interval is
clustered by deal (cluster-robust standard error over deals,
:func:`kaiser_sim.stats.cluster_mean_ci`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..rules import Rules
from .blocks import Table, Text, ci, count, frame, num
from ..runs.results import RunResults
from .common import (definition, DEFAULT_TRUMP_RULE, TRUMP_RULE, NT, STRAINS, declarer_frame, integer_axis, legend, levels_of, mean_row,
                     new_figure, run_points, run_info, StudyTables, tag)

KEY = "lead"
TITLE = "The value of the lead"
QUESTION = "What is it worth to be on lead?"
METHOD = (
    "The same deal and strain solved twice: with the declarer on lead and with its left-hand opponent "
    "on lead. The difference is the value of the lead to the declaring side.")
#: the parameters of run(), declared (kaiser_sim.studies.params)
PARAMETERS = (TRUMP_RULE,)
#: the default definition (deals, seed, rules, parameters), which ``kaiser-sim study NAME`` runs;
#: analyses/lead.toml is written from it and PARAMETERS (make analyses; a test keeps them equal)
DEFINITION = definition(KEY, "The value of the lead",
                        params={"trump_rule": "longest-strength"})


def lead_values(results, rules: Rules, trump_rule: str = DEFAULT_TRUMP_RULE):
    """``(on_lead, lho_leads, strain_kind)``: (4n, 5) arrays of the declaring
    side's points with the declarer on lead and with its LHO on lead."""
    pts, other = run_points(results, rules)  # (n, 4, 5) each: the leader's side's points, the other side's
    on = pts.reshape(-1, 5)
    lho = np.roll(other, -1, axis=1).reshape(-1, 5)  # seat L's row gets leader L+1
    return on, lho


def run(run_results: RunResults, rules, trump_rule: str = DEFAULT_TRUMP_RULE) -> StudyTables:
    results = run_results.frame
    d = declarer_frame(results, rules, trump_rule)
    on, lho = lead_values(results, rules)
    idx = np.arange(len(d))
    trump = d["trump"].to_numpy()
    views = {"trump by rule": (on[idx, trump], lho[idx, trump]), "NT": (on[:, NT], lho[:, NT])}
    for s, key in enumerate(STRAINS[:4]):
        views[f"{key} trump (any hand)"] = (on[:, s], lho[:, s])
    deal = d["deal"].to_numpy()
    rows, dist, make = [], [], []
    levels = levels_of(rules)
    for view, (a, b) in views.items():
        diff = a - b
        rows.append({"strain": view, **mean_row(diff, deal), "mean_on_lead": a.mean(), "mean_lho_leads": b.mean(),
                     "share_gain": (diff > 0).mean(), "share_loss": (diff < 0).mean()})
        if view in ("trump by rule", "NT"):
            vals, counts = np.unique(diff, return_counts=True)
            dist += [{"strain": view, "lead_value": int(v), "count": int(c), "share": c / diff.size}
                     for v, c in zip(vals, counts)]
            for lv in levels:
                m = mean_row((a >= lv).astype(float) - (b >= lv).astype(float), deal)
                make.append({"strain": view, "bid": lv, "p_on_lead": (a >= lv).mean(), "p_lho_leads": (b >= lv).mean(),
                        "change": m["mean"], "lo": m["lo"], "hi": m["hi"], "n": m["n"]})
    summary = pd.DataFrame(rows)
    tables = StudyTables({"summary": summary, "distribution": pd.DataFrame(dist), "make_change": pd.DataFrame(make)})
    tables.meta("summary").note = (
        "lead value = declaring side's DD points with the declarer on lead minus with its "
        "left-hand opponent on lead, same deal and strain; n = declarer hands (4 per deal); 95% "
        "intervals clustered by deal")
    return tag(tables, run_info(run_results, rules), "declarer on lead vs its left-hand opponent on lead")


def plot(tables) -> dict:
    dist = tables["distribution"]
    foot = tables.meta("summary").footer
    fig, ax = new_figure("Value of the lead: declarer on lead minus LHO on lead",
                         "lead value (points of the declaring side)", "share of declarer hands, %", foot,
                         intervals=False)
    width = 0.4
    for i, (view, g) in enumerate(dist.groupby("strain", sort=False)):
        ax.bar(g["lead_value"] + (i - 0.5) * width, 100 * g["share"], width=width, label=view)
    integer_axis(ax.xaxis)
    legend(ax)
    figs = {"lead_value": fig}
    mc = tables["make_change"]
    fig, ax = new_figure("Change in make probability from having the lead", "bid",
                         "P(make | on lead) - P(make | LHO leads), percentage points", foot)
    for view, g in mc.groupby("strain", sort=False):
        ax.errorbar(g["bid"], 100 * g["change"], yerr=[100 * (g["change"] - g["lo"]), 100 * (g["hi"] - g["change"])],
                    marker="o", capsize=3, label=view)
    ax.axhline(0, color="0.5", linewidth=0.8)
    integer_axis(ax.xaxis)
    legend(ax)
    figs["lead_make_change"] = fig
    return figs


# --- the report -------------------------------------------------------------------------------


def section(tables) -> tuple[list, list[str], list[str]]:
    """This study's report section, as :mod:`~kaiser_sim.studies.blocks` describes."""
    t, key = tables, KEY
    s = t["summary"]
    rows = [{"strain": r["strain"], "n": count(r["n"]), "lead value, points": ci(r["mean"], r["lo"], r["hi"], 2),
             "gains %": num(100 * r["share_gain"], 1), "loses %": num(100 * r["share_loss"], 1)} for _, r in s.iterrows()]
    m = t["make_change"]
    mrows = [{"strain": r["strain"], "bid": str(r["bid"]), "P(make) on lead %": num(100 * r["p_on_lead"], 1),
              "LHO on lead %": num(100 * r["p_lho_leads"], 1),
              "change, % points": ci(r["change"], r["lo"], r["hi"], 1, 100)} for _, r in m.iterrows()]
    blocks = [Table(f"{key}-summary", "The value of the lead to the declaring side", frame(rows)),
              Table(f"{key}-make-change", "Make probability with and without the lead", frame(mrows))]
    text = []
    r = s[s["strain"] == "trump by rule"]
    if len(r):
        r = r.iloc[0]
        text.append(f"Having the lead is worth {ci(r['mean'], r['lo'], r['hi'], 2)} points to the declaring side in "
                    "the trump it names.")
    return blocks, text, ["lead_value", "lead_make_change"]


def cheat_sheet(tables) -> list:
    """The cheat sheet's line on the lead: what being on lead is worth."""
    s = tables["summary"]
    r = s[s["strain"] == "trump by rule"]
    if not len(r):
        return []
    r = r.iloc[0]
    return [Text("The lead", "heading"),
            Text(f"Being on lead is worth {ci(r['mean'], r['lo'], r['hi'], 2)} points to the "
                 "declaring side, in the trump it names (double dummy).", "bullet")]
