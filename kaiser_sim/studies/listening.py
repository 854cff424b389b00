"""The listening policy against every other: whole matches, win rates with
95% intervals, and where it wins and loses (by seat, by score).

Like the match study this one plays matches
(:func:`kaiser_sim.strategy.match.play_matches`) instead of reading a results
dataset: ``matches`` matches of ``policy`` (default ``listening``,
:class:`kaiser_sim.strategy.policies.ListeningPolicy`) against each of ``opponents``,
in pairs on the same cards (each policy holds each card set once), the
same card sets for every opponent (one seed).

How many matches (the power calculation): a win rate near 50% from ``m``
matches has a standard error of about ``0.5 / sqrt(m)`` (less when the two
matches of a pair on the same cards cancel, as duplicate play intends), so
telling an edge of ``d`` from none at 95% with 80% power needs ``m = (1.96
+ 0.84)^2 x 0.25 / d^2`` matches: 4,000 (the default) for ``d`` = 2.2
points, the size of the differences between the better policies in the
match study's round robin.  The printed report plays :func:`report_params`:
one match an opponent per 20 of its deals, at most 8,000 (the preview's 4,000
deals: 200, intervals about +-7 points, only large edges show; the edition's
million: 8,000, intervals within about +-1 point, the headline's width);
``kaiser-sim study listening`` plays the default.

Tables:

- ``win_rates``: per opponent, the listening policy's win rate (Wilson 95%,
  clustered by pair of matches on the same cards), hands per match and the
  final score margin (95%), and the edge over 50%;
- ``by_seat``: per opponent and seat (the listening side deals, so speaks
  2nd and 4th; or the opponents deal, so it speaks 1st and 3rd): hands, the
  listening side's mean net per hand (its hand score minus the opponents',
  95% clustered by card set), the share of hands it declares and the share
  of its contracts made;
- ``by_score``: per opponent and the listening side's score at the start of
  the hand (bands): the same net per hand, and the share of those hands
  whose match it went on to win;
- ``rounds``: the rounds of the table's iteration
  (:mod:`kaiser_sim.strategy.listening`), each round's share of passes, plain bids
  and NT bids by position and its largest change.

A hand's net is ``(ours after - ours before) - (theirs after - theirs
before)`` as the match engine scored it (table play drawn from the
table-play model by default).  The card set (the match number // 2, the
same for every opponent) is the cluster of every interval of the hands.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .. import config
from ..runs.output_dir import source_date_epoch
from ..strategy.policies import POLICIES
from ..strategy.table_play import seeds_text
from .common import StudyTables, TableMeta, bucket, definition, footer, legend, mean_row, new_figure, share_row
from .match import ENGINE, MATCH_SEED, PLAY
from .params import Param

KEY = "listening"
TITLE = "A bidder that listens"
QUESTION = "Does a bidder that listens to the calls win more matches?"
METHOD = ("The listening policy makes, in each position, the call (pass, the cheapest plain or NT bid, one step above "
          "each, the dealer's match) with the highest mean net value (its side's hand score minus the opponents', at "
          "0-0) on simulated deals where the same calls were heard and its hand was like this one, the other players "
          "bidding like the bidding population (its best response). "
          "It plays whole matches against every other policy, in pairs on the same cards with the sides swapped; "
          "the number of matches comes from a power calculation (module doc).")
#: the policies it plays against by default: every other
DEFAULT_OPPONENTS = ("ev", "cautious", "aggressive", "score-aware", "rank-squared", "trump-heuristic")
#: the parameters of run(), declared (kaiser_sim.studies.params)
PARAMETERS = (
    Param("matches", int, 4000, "matches against each opponent, in pairs on the same cards (4,000: the power to "
          "tell a 2-point edge from none: kaiser_sim/studies/listening.py; the printed report plays fewer).", low=1,
          high=config.MATCH_MAX_COUNT),
    MATCH_SEED,
    Param("policy", str, "listening", "the policy under study.", choices=tuple(POLICIES)),
    Param("opponents", list, DEFAULT_OPPONENTS, "the policies it plays against, one after the other.",
          choices=tuple(POLICIES)),
    PLAY,
    ENGINE,
)
#: the default definition (deals, seed, rules, parameters), which ``kaiser-sim study NAME`` runs;
#: analyses/listening.toml is written from it and PARAMETERS (make analyses; a test keeps them equal)
DEFINITION = definition(KEY, "The listening policy against every other: win rates, by seat and by score",
                        params={"matches": 4000, "policy": "listening",
                                "opponents": ["ev", "cautious", "aggressive", "score-aware", "rank-squared",
                                              "trump-heuristic"]}, deals=None)
#: the printed report plays one match an opponent per this many of its deals, at most
#: REPORT_MAX_MATCHES (its default 4,000 deals: 200, the preview must stay short; the edition's million:
#: 8,000, about 5 minutes for six opponents, win rates within about +-1 point)
REPORT_DEALS_A_MATCH = 20
REPORT_MAX_MATCHES = 8000


def report_params(deals: int) -> dict:
    """The parameters the printed report runs this study with, for a report of ``deals`` deals."""
    m = min(REPORT_MAX_MATCHES, max(4, deals // REPORT_DEALS_A_MATCH))
    return {"matches": int(2 * (m // 2))}  # whole pairs of matches on the same cards
#: the listening side's score at the start of a hand (label, lowest, highest)
SCORE_BANDS = (("below 0", -999, -1), ("0-19", 0, 19), ("20-34", 20, 34), ("35-44", 35, 44), ("45 and up", 45, 999))
SEATS = ("listening side deals", "opponents deal")


def _hand_rows(r) -> pd.DataFrame:
    """One row per hand of the matches ``r`` from policy A's side: ``cards``,
    ``deals`` (A's side deals), ``net``, ``ours`` (A's score before),
    ``declares``, ``made``, ``won`` (A won that match)."""
    h = r.hands
    m = r.matches.set_index("match")
    side = m["a_side"].reindex(h["match"]).to_numpy()
    ns_d = (h["ns"] - h["ns_before"]).to_numpy()
    ew_d = (h["ew"] - h["ew_before"]).to_numpy()
    net = np.where(side == 0, ns_d - ew_d, ew_d - ns_d)
    ours = np.where(side == 0, h["ns_before"].to_numpy(), h["ew_before"].to_numpy())
    decl = h["declarer"].to_numpy()
    declares = (decl >= 0) & ((decl & 1) == side)
    return pd.DataFrame({"cards": h["match"].to_numpy() // 2, "deals": (h["dealer"].to_numpy() & 1) == side,
                         "net": net.astype(float), "ours": ours, "declares": declares,
                         "made": h["made"].to_numpy(bool), "won": m["a_won"].reindex(h["match"]).to_numpy(bool)})


def run(results, rules, matches: int = 4000, seed: int = config.STUDY_SEED, policy: str = "listening",
        opponents=DEFAULT_OPPONENTS,
        play: str = "table", engine: str = "auto") -> StudyTables:
    """Play the matches and build the tables (module doc).  ``results`` is
    not used (this study plays matches)."""
    from ..strategy.match import play_matches
    from .match import check_play_and_engine
    from ..strategy.policies import POLICIES, ListeningPolicy, get_policy, listening_note, play_used
    from . import StudyError

    opponents = [opponents] if isinstance(opponents, str) else list(opponents)
    bad = [p for p in [policy, *opponents] if p not in POLICIES]
    if bad or not opponents:
        raise StudyError(f"parameters policy and opponents must name policies of {', '.join(POLICIES)}; got "
                         f"{[policy, *opponents]}")
    play, engine_used, engine_note = check_play_and_engine(play, engine, rules)
    me = get_policy(policy, play)
    note = listening_note(rules, play) if isinstance(me, ListeningPolicy) else ""
    wr, seat_rows, score_rows, pooled = [], [], [], []
    for opp in opponents:
        r = play_matches(policy, opp, matches, seed, rules, play=play, engine=engine)
        s = r.summary()
        wr.append({"opponent": opp, "matches": s["matches"], "wins": s["a_wins"], "p": s["a_win_rate"],
                   "lo": s["a_win_lo"], "hi": s["a_win_hi"], "edge": s["a_win_rate"] - 0.5,
                   "margin": s["margin_mean"], "margin_lo": s["margin_lo"], "margin_hi": s["margin_hi"],
                   "hands": s["hands_mean"],
                   # the wall-clock time, unless the outputs are to be reproducible (SOURCE_DATE_EPOCH)
                   **({"seconds": s["seconds"]} if source_date_epoch() is None else {})})
        rows = _hand_rows(r).assign(opponent=opp)
        pooled.append(rows)
        for si, sname in enumerate(SEATS):
            g = rows[rows["deals"] == (si == 0)]
            net = mean_row(g["net"].to_numpy(), g["cards"].to_numpy())
            dec = share_row(g["declares"].to_numpy(), g["cards"].to_numpy())
            mine = g[g["declares"]]
            made = share_row(mine["made"].to_numpy(), mine["cards"].to_numpy())
            seat_rows.append({"opponent": opp, "seat": sname, "hands": len(g), "net": net["mean"],
                              "net_lo": net["lo"], "net_hi": net["hi"], "declares": dec["p"], "declares_lo": dec["lo"],
                              "declares_hi": dec["hi"], "made": made["p"], "made_lo": made["lo"],
                              "made_hi": made["hi"]})
        band = np.asarray(bucket(rows["ours"].to_numpy(), SCORE_BANDS))
        for label, *_ in SCORE_BANDS:
            g = rows[band == label]
            if not len(g):
                continue
            net = mean_row(g["net"].to_numpy(), g["cards"].to_numpy())
            won = share_row(g["won"].to_numpy(), g["cards"].to_numpy())
            score_rows.append({"opponent": opp, "score": label, "hands": len(g), "net": net["mean"],
                               "net_lo": net["lo"], "net_hi": net["hi"], "won": won["p"], "won_lo": won["lo"],
                               "won_hi": won["hi"]})
    win_rates = pd.DataFrame(wr)
    by_seat = pd.DataFrame(seat_rows)
    by_score = pd.DataFrame(score_rows)
    rounds, rounds_meta = _rounds(me, rules)
    tables = StudyTables({"win_rates": win_rates, "by_seat": by_seat, "by_score": by_score})
    tables.add("rounds", rounds, rounds_meta)
    info = {"n": int(matches) * len(opponents), "seed": seed, "rules": getattr(rules, "label", str(rules)),
            "play": play, "play_used": play_used(rules, play), "engine": engine_used, "engine_note": engine_note,
            "listening_note": note, "matches": int(matches), "policy": policy}
    scored = {"table": "scored in table play (points drawn from the table-play model)",
              "dd": "played double dummy"}[engine_used]
    warn = f"; warning: {note}" if note else ""
    tables.meta("win_rates").note = (
        f"{matches:,} matches against each opponent (pairs on the same cards, sides swapped; "
        f"the same card sets for every opponent); contracts {scored}; win rate with its Wilson "
        "95% interval clustered by pair of matches; margin = the final score difference" + warn)
    tables.meta("by_seat").note = (
        "every hand of the matches: net = the listening side's hand score minus the opponents'; "
        "declares = share of hands its side declared; made = share of its contracts made; 95% "
        "intervals clustered by card set")
    tables.meta("by_score").note = (
        "every hand by the listening side's score at its start: net per hand and the share of "
        "those hands whose match it won; 95% intervals clustered by card set")
    rounds_meta.note = (
        "the rounds of the listening table's iteration (kaiser_sim.strategy.listening): round r's others bid "
        "like round r-1's policy; shares of the calls in each position, self-play on the table's "
        "deals; change = the largest move of a call's share from the round before"
        + _table_model_words(rounds_meta.extra.get("table_model")))
    measure = {"table": "contracts in table play (PIMC model)", "dd": "double dummy"}[engine_used]
    for name in tables:
        meta = tables.meta(name)
        meta.run = dict(info)
        meta.footer = (footer(info, f"{matches:,} matches an opponent")
                       .replace(" deals,", " matches,").replace("; double dummy;", f"; {measure};")
                       .replace("clustered by deal", "clustered by card set"))
    return tables


def _rounds(policy, rules) -> tuple[pd.DataFrame, TableMeta]:
    """The rounds of the table ``policy`` reads (empty for another policy,
    or where no table applies), and the table's metadata: (``extra``)
    whether it ``converged``, its ``deals``, ``tolerance`` and
    ``table_model``."""
    from ..strategy.policies import ListeningPolicy

    cols = ["round", "others", "change"] + [f"pos {k + 1} {c}" for k in range(4) for c in ("pass", "bid", "NT")]
    table = policy.table_for(rules) if isinstance(policy, ListeningPolicy) else None
    if table is None:
        return pd.DataFrame(columns=cols), TableMeta()
    calls = table.info.get("calls", [])
    nt = np.array(["NT" in c for c in calls[1:]], dtype=bool)
    out = []
    for r in table.info.get("rounds", []):
        sh = np.asarray(r["shares"])
        row = {"round": r["round"], "others": r["others"], "change": r.get("change")}
        for k in range(4):
            row[f"pos {k + 1} pass"] = sh[k, 0]
            row[f"pos {k + 1} bid"] = sh[k, 1:][~nt].sum()
            row[f"pos {k + 1} NT"] = sh[k, 1:][nt].sum()
        out.append(row)
    return pd.DataFrame(out, columns=cols), TableMeta(extra={
        "converged": bool(table.info.get("converged")), "deals": int(table.info.get("deals", 0)),
        "tolerance": table.info.get("tolerance"), "table_model": table.info.get("table_model"),
        "start": (table.info.get("start") or {}).get("policy", "ev")})


def _table_model_words(table_model) -> str:
    """``"; its table play through the table-play model of 80,000 played deals
    (seeds 101 and 103)"`` for a table that records its model, else ``""``."""
    if not table_model or not table_model.get("deals"):
        return ""
    return (f"; its table play through the table-play model of {int(table_model['deals']):,} played deals "
            f"({seeds_text(table_model)})")


def plot(tables) -> dict:
    figs = {}
    w = tables["win_rates"]
    fig, ax = new_figure("The listening policy's share of matches won, by opponent", "opponent", "matches won",
                         tables.meta("win_rates").footer)
    x = np.arange(len(w))
    if len(w):
        ax.bar(x, w["p"], yerr=[w["p"] - w["lo"], w["hi"] - w["p"]], capsize=4)
    ax.axhline(0.5, color="0.5", linewidth=0.8)
    ax.set_xticks(x, w["opponent"], rotation=20)
    fig.subplots_adjust(bottom=0.24)
    figs["listening_win_rates"] = fig
    s = tables["by_score"]
    fig, ax = new_figure("Net per hand by the listening side's score at the start of the hand", "its score",
                         "net per hand (its score - theirs)", tables.meta("by_score").footer)
    labels = [b[0] for b in SCORE_BANDS]
    for i, (opp, g) in enumerate(s.groupby("opponent", sort=False)):
        xs = np.array([labels.index(v) for v in g["score"]]) + (i - len(set(s["opponent"])) / 2) * 0.06
        ax.errorbar(xs, g["net"], yerr=[g["net"] - g["net_lo"], g["net_hi"] - g["net"]], marker="o", capsize=2,
                    linestyle="-", label=f"vs {opp}")
    ax.axhline(0, color="0.5", linewidth=0.8)
    ax.set_xticks(range(len(labels)), labels)
    if len(s):
        legend(ax)
    figs["listening_by_score"] = fig
    return figs


def section(tables) -> tuple[list, list[str], list[str]]:
    """This study's report section (:mod:`~kaiser_sim.studies.blocks`)."""
    from .blocks import Table, ci, count, frame, signed_ci

    w, st, sc, rd = tables["win_rates"], tables["by_seat"], tables["by_score"], tables["rounds"]
    wrows = [{"opponent": r["opponent"], "matches": count(r["matches"]), "won %": ci(r["p"], r["lo"], r["hi"], 1, 100),
              "final margin": signed_ci(r["margin"], r["margin_lo"], r["margin_hi"], 1),
              "hands a match": f"{r['hands']:.1f}"} for _, r in w.iterrows()]
    srows = [{"opponent": r["opponent"], "seat": r["seat"], "hands": count(r["hands"]),
              "net a hand": signed_ci(r["net"], r["net_lo"], r["net_hi"], 2),
              "declares %": ci(r["declares"], r["declares_lo"], r["declares_hi"], 1, 100),
              "made %": ci(r["made"], r["made_lo"], r["made_hi"], 1, 100)} for _, r in st.iterrows()]
    crows = [{"opponent": r["opponent"], "its score": r["score"], "hands": count(r["hands"]),
              "net a hand": signed_ci(r["net"], r["net_lo"], r["net_hi"], 2),
              "match won %": ci(r["won"], r["won_lo"], r["won_hi"], 1, 100)} for _, r in sc.iterrows()]
    blocks = [Table(f"{KEY}-win-rates", "The listening policy's win rate against each policy", frame(wrows),
                    tables.meta("win_rates").note),
              Table(f"{KEY}-by-seat", "Where it wins and loses: by seat", frame(srows),
                    tables.meta("by_seat").note),
              Table(f"{KEY}-by-score", "Where it wins and loses: by its score", frame(crows),
                    tables.meta("by_score").note)]
    if len(rd):
        rrows = [{"round": int(r["round"]), "others bid as": r["others"],
                  **{f"{k + 1}: pass/bid/NT %": f"{100 * r[f'pos {k + 1} pass']:.0f}/{100 * r[f'pos {k + 1} bid']:.0f}/"
                     f"{100 * r[f'pos {k + 1} NT']:.0f}" for k in range(4)},
                  "change": "-" if pd.isna(r["change"]) else f"{r['change']:.3f}"} for _, r in rd.iterrows()]
        blocks.append(Table(f"{KEY}-rounds", "How the table was built: the calls of each round, by position",
                            frame(rrows), tables.meta("rounds").note))
    return blocks, meaning(tables), ["listening_win_rates", "listening_by_score"]


def meaning(tables) -> list[str]:
    """What the numbers mean, in sentences for the report."""
    from .blocks import ci

    w, sc, rd = tables["win_rates"], tables["by_score"], tables["rounds"]
    out = []
    if len(w):
        info = tables.meta("win_rates").run
        ahead = w[w["lo"] > 0.5]["opponent"].tolist()
        behind = w[w["hi"] < 0.5]["opponent"].tolist()
        open_ = w[(w["lo"] <= 0.5) & (w["hi"] >= 0.5)]["opponent"].tolist()
        worst = w.loc[w["p"].idxmin()]
        out.append(f"Over {info.get('matches', 0):,} matches an opponent the listening policy wins more than half "
                   f"against {', '.join(ahead) or 'none'}, fewer against {', '.join(behind) or 'none'}"
                   + (f", and the intervals include 50% against {', '.join(open_)}" if open_ else "") + ".")
        # the win rate only (its table's figure): an 'edge of 0.0 points' beside hand scores read as Kaiser points
        out.append(f"Its hardest opponent here is {worst['opponent']}: {ci(worst['p'], worst['lo'], worst['hi'], 1, 100)}"
                   "% of matches won.")
        if info.get("matches", 0) < 1000:
            out.append("This is the report's short run: the intervals are wide; kaiser-sim study listening plays 4,000 "
                       "matches an opponent (a few minutes on 2 quiet cores), enough to tell a 2-point edge from none.")
    if len(sc):
        g = sc.groupby("score", sort=False).apply(lambda x: np.average(x["net"], weights=x["hands"]),
                                                  include_groups=False)
        if len(g):
            lo, hi = g.idxmin(), g.idxmax()
            # where, not how much: the pooled means are in no table (the by-score table is by opponent)
            out.append(f"By its score, its hands go worst at {lo} and best at {hi} (all opponents pooled). Its table values a hand at 0-0; from 45 on, where only a made bid "
                       "scores (the 45 rule), it bids as score-aware, and a hand's net there is not what decides the "
                       "match.")
    if len(rd):
        table = tables.meta("rounds").extra
        rounds = len(rd) - 1
        if table.get("start", "ev") != "ev":
            # built against a fixed bidding model: one best response, no rounds to converge
            out.append(f"The table ({table.get('deals', 0):,} deals) is the best response to the {table['start']} "
                       f"bidding model: the other seats bid by that model throughout, so one round makes it.")
        else:
            conv = "converged" if table.get("converged") else "had not converged"
            out.append(f"The table ({table.get('deals', 0):,} deals) {conv} after {rounds} round"
                       f"{'' if rounds == 1 else 's'} (the calls' shares moving less than {table.get('tolerance')} "
                       "from round to round).")
    return out


__all__ = ["KEY", "TITLE", "QUESTION", "METHOD", "DEFINITION", "PARAMETERS", "report_params", "run",
           "plot", "section", "meaning"]
