"""Study 8, the match: how the score should change the bid.

Unlike the other studies this one plays whole matches
(:func:`kaiser_sim.strategy.match.play_matches`: double-dummy play of each contract,
the policies of :mod:`kaiser_sim.strategy.policies` bidding from their own hand and
the score) instead of reading a results dataset; its n is the number of
matches (per pair of policies) and its seed the seed of the matches.

Tables:

- ``round_robin``: every pair of ``policies``, ``matches`` matches each
  (duplicate by default: in pairs on the same cards, each policy on each
  side once; ``duplicate=false``: every match its own cards): the win rate
  of the first policy (Wilson 95%) and its edge over 50% (the mean pair
  score - 1/2, 95%), hands per match, the score margin (95%), how the
  winners went out, and ``duplicate`` saying which was played;
- ``standings``: each policy's win rate over all its matches;
- ``win_by_state``: P(win the match) from the score at the start of a hand,
  (our, their) scores in buckets, over every hand of the round robin from
  both sides' point of view (Wilson 95% clustered by card set, below),
  next to the win probability of the score-aware policy's model
  (:func:`kaiser_sim.strategy.policies.win_table`);
- ``bid_vs_state``: for ``hands`` random hands of the first speaker, the
  highest bid the score-aware policy would make (the match-win
  maximising bid under its model) against the highest bid with a positive
  expected hand score (the ``ev`` policy), over a grid of (our, their)
  scores: the mean difference in bid level ("bid more / less than the hand
  says") and the share of hands that would bid at all;
- ``rules_effect``: the same comparison and a score-aware vs ev match run
  under the rules as given, without the 45 rule (``bid_out=none``) and
  with target 32 (the bid-out threshold moved with it, as in the ``short``
  preset).

Intervals: a match is one row of ``round_robin``, but not an independent
one: in duplicate matches ``2k`` and ``2k+1`` of a pair of policies are
played on the same cards (sides swapped), and every pair of policies plays
the same card sets (one seed), so card set ``k`` (``cards``, the match
number // 2 within its pair of policies; the match number itself when not
duplicate) is the independent unit.  The round-robin and
``rules_effect`` intervals are clustered by pair of matches
(:meth:`kaiser_sim.strategy.match.MatchResults.summary`), ``standings`` (a policy's
matches against every opponent, on the same card sets) and
``win_by_state`` (every hand of every match, both sides) by card set, so
the hands of one match, the two matches of a pair and the matches of
other policies on the same cards all count as one cluster
(:func:`kaiser_sim.studies.common.share_row`).  ``bid_vs_state`` has one
row per random hand: its intervals are iid.

What the bidders expect (parameter ``play``): by default (``"table"``) the
policies' make-probabilities, the score-aware policy's win-probability
model and the ``model`` column of ``win_by_state`` are those of table play
(the shipped make model, double dummy, composed with the table-play model:
:mod:`kaiser_sim.strategy.policies`); ``play="dd"`` gives the double-dummy ones.
Every rules set reads the table-play model shipped for its game (a kitty,
low no trump, cover 3: :func:`kaiser_sim.strategy.table_play.load_model`); only a
model that cannot be read makes the policies fall back to DD (the tables'
``run`` attributes record the play used and why).

How the contracts are scored (parameter ``engine``): ``"auto"`` (default)
draws the declaring side's points from the table-play model given the
contract's double-dummy points where the model holds for the rules
(``"table"``), else plays them double dummy (``"dd"``), as
:func:`kaiser_sim.strategy.match.play_matches`; the tables' notes and footers say
which was used.  Bidders that expect table play then meet table-play
outcomes; with ``engine="dd"`` they meet double-dummy ones (about a bid more
than they expect).

Caveats: the make-probabilities are the shipped models' (:mod:`kaiser_sim.strategy.make_model`,
:mod:`kaiser_sim.strategy.table_play`); the score-aware policy's model of a hand's
outcome is approximate (see :func:`kaiser_sim.strategy.policies.win_table`).
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from .. import config
from ..runs.output_dir import source_date_epoch
from ..strategy.match import ENGINES
from ..strategy.measure import MEASURES
from ..strategy.policies import POLICIES
from ..config import MAX_SEED
from .common import StudyTables, bottom_margin, definition, footer, mean_row, new_figure, share_row
from .params import Param

KEY = "match"

DEFAULT_POLICIES = ("ev", "cautious", "aggressive", "score-aware", "rank-squared", "trump-heuristic")
#: the parameters the studies that play matches share (this one and listening)
MATCH_SEED = Param("seed", int, config.STUDY_SEED, "seeds the matches (kaiser-sim study passes the definition's "
                   "seed, which --seed sets).", low=0, high=MAX_SEED)
PLAY = Param("play", str, "table", "what the policies' make-probabilities expect: table play or double dummy.",
             choices=MEASURES, fold_case=True)
ENGINE = Param("engine", str, "auto", "how the contracts are scored: auto (table play where its model holds for "
               "the rules, else double dummy), table or dd.", choices=ENGINES, fold_case=True)
DUPLICATE = Param("duplicate", bool, True, "play duplicate: each deal sequence twice with the partnerships swapped, "
                  "the pair of matches the independent unit (false: every match its own cards).")
#: the parameters of run(), declared (kaiser_sim.studies.params)
PARAMETERS = (
    Param("matches", int, 400, "matches per pair of policies, in pairs on the same cards.", low=1,
          high=config.MATCH_MAX_COUNT),
    MATCH_SEED,
    Param("policies", list, DEFAULT_POLICIES, "the bidding policies of the round robin (kaiser-sim match).",
          choices=tuple(POLICIES), min_items=2),
    Param("hands", int, 2000, "random first-speaker hands for the bid-versus-score grid.", low=1,
          high=config.HAND_MAX_DEALS),
    Param("grid_step", int, 5, "points between the grid's rows and columns.", low=1, high=config.RULES_MAX_TARGET),
    Param("rules_matches", int, None, "score-aware against ev matches per rules variant.", low=1,
          high=config.MATCH_MAX_COUNT, unset="matches"),
    PLAY,
    ENGINE,
    DUPLICATE,
)
#: the default definition (deals, seed, rules, parameters), which ``kaiser-sim study NAME`` runs;
#: analyses/match.toml is written from it and PARAMETERS (make analyses; a test keeps them equal)
DEFINITION = definition(KEY, "How the score should change the bid: policies over whole matches",
                        params={"matches": 400,
                                "policies": ["ev", "cautious", "aggressive", "score-aware", "rank-squared", "trump-heuristic"],
                                "hands": 2000,
                                "grid_step": 5,
                                "rules_matches": 1000}, deals=None)

#: score buckets of ``win_by_state`` (label, lowest, highest)
SCORE_BUCKETS = (("<0", -999, -1), ("0-9", 0, 9), ("10-19", 10, 19), ("20-29", 20, 29), ("30-39", 30, 39),
                 ("40-44", 40, 44), ("45-51", 45, 51))


def _label(values, buckets):
    from .common import bucket

    return bucket(values, buckets)


def limits(policy, hands, ours, theirs, rules) -> tuple[np.ndarray, np.ndarray]:
    """``(level, bids)`` for the first speaker: the level of the highest bid
    ``policy`` would still make if the auction stood just below it (0 if
    none), and whether it would open at all, at score (ours, theirs)."""
    from ..strategy.policies import ScoreAwarePolicy, hand_values, ladder_arrays

    lad = ladder_arrays(rules)
    n = len(hands)
    if isinstance(policy, ScoreAwarePolicy):
        from ..strategy.policies import BidView

        view = BidView(hands, np.zeros((n, 0), dtype=np.int16), np.zeros(n, dtype=np.int64), np.full(n, 3),
                       np.tile([ours, theirs], (n, 1)), np.full(n, rules.target), rules)
        values, _, pass_value = policy.values(view)
        good = values > pass_value[:, None] + 1e-9
    else:
        ev, _, _, _ = hand_values(hands, rules, play=policy.play)
        good = ev > policy.margin
    top = np.where(good.any(axis=1), good.shape[1] - 1 - np.argmax(good[:, ::-1], axis=1), -1)
    level = np.where(top >= 0, lad.levels[np.maximum(top, 0)], 0)
    return level, good.any(axis=1)


def _short(rules):
    """``rules`` with target 32 and the bid-out rule moved with it (as the
    ``short`` preset: the same distance below the target)."""
    thr = rules.bid_out_threshold
    out = "none" if thr is None else str(32 - (rules.target - thr))
    return rules.with_overrides(["target=32", f"bid_out={out}"])


def bid_grid(rules, hands, step: int = 5, play: str = "table") -> pd.DataFrame:
    """``bid_vs_state`` rows over the (ours, theirs) grid 0, step, .. < target
    (the policies expecting ``play``)."""
    from ..strategy.policies import get_policy

    sa, ev = get_policy("score-aware", play), get_policy("ev", play)
    ev_level, ev_bids = limits(ev, hands, 0, 0, rules)  # the hand EV does not depend on the score
    rows = []
    for ours in range(0, rules.target, step):
        for theirs in range(0, rules.target, step):
            level, bids = limits(sa, hands, ours, theirs, rules)
            d = mean_row(level - ev_level)
            rows.append({"ours": ours, "theirs": theirs, "hands": len(hands), "diff": d["mean"], "diff_lo": d["lo"],
                         "diff_hi": d["hi"], "more": float((level > ev_level).mean()),
                         "less": float((level < ev_level).mean()), "bid_share": float(bids.mean()),
                         "ev_bid_share": float(ev_bids.mean()), "mean_level": float(level.mean()),
                         "ev_mean_level": float(ev_level.mean())})
    return pd.DataFrame(rows)


def _win_by_state(hands_log: pd.DataFrame, matches: pd.DataFrame, rules, play: str = "table") -> pd.DataFrame:
    """``win_by_state`` rows; the intervals are clustered by the card set of
    each hand's match (``matches["cards"]``; without that column by match):
    module doc."""
    from ..strategy.policies import win_table

    w = win_table(rules, play=play)
    by_match = matches.set_index("match")
    win_side = by_match["winner"]
    unit = by_match["cards"] if "cards" in by_match else pd.Series(by_match.index, index=by_match.index)
    cluster = unit.reindex(hands_log["match"]).to_numpy()
    parts = []
    for side in (0, 1):
        ours = hands_log["ns_before" if side == 0 else "ew_before"].to_numpy()
        theirs = hands_log["ew_before" if side == 0 else "ns_before"].to_numpy()
        won = win_side.reindex(hands_log["match"]).to_numpy() == side
        parts.append(pd.DataFrame({"ours": _label(ours, SCORE_BUCKETS), "theirs": _label(theirs, SCORE_BUCKETS),
                                   "won": won, "model": w.win(ours, theirs), "cluster": cluster}))
    d = pd.concat(parts, ignore_index=True)
    rows = []
    for (o, t), g in d.groupby(["ours", "theirs"], observed=True):
        rows.append({"ours": o, "theirs": t, **share_row(g["won"].to_numpy(), g["cluster"].to_numpy()),
                     "clusters": int(g["cluster"].nunique()), "model": float(g["model"].mean())})
    return pd.DataFrame(rows)


def check_play_and_engine(play, engine, rules) -> tuple[str, str, str]:
    """A match-playing study's ``play`` and ``engine`` parameters checked
    against ``rules``: ``(play, engine used, its note)``.  A bad parameter is
    :class:`StudyError` naming it; rules the match engine does not play are
    its :class:`~kaiser_sim.strategy.match.MatchError`, as it is."""
    from ..strategy.match import ENGINES, check_rules, engine_for
    from ..strategy.policies import PLAYS
    from . import StudyError

    if not isinstance(play, str) or play.strip().lower() not in PLAYS:
        raise StudyError(f"parameter play must be one of {', '.join(PLAYS)}; got {play!r}")
    if not isinstance(engine, str) or engine.strip().lower() not in ENGINES:
        raise StudyError(f"parameter engine must be one of {', '.join(ENGINES)}; got {engine!r}")
    check_rules(rules)
    engine_used, engine_note, _ = engine_for(engine, rules)
    return play.strip().lower(), engine_used, engine_note


def run(results, rules, matches: int = 400, seed: int = config.STUDY_SEED, policies=DEFAULT_POLICIES, hands: int = 2000,
        grid_step: int = 5, rules_matches: int | None = None, play: str = "table",
        engine: str = "auto", duplicate: bool = True) -> StudyTables:
    """Play the round robin and build the tables (module doc).  ``results``
    is not used (this study plays matches); ``play``: what the policies'
    make-probabilities expect, ``"table"`` or ``"dd"``; ``engine``: how the
    contracts are scored, ``"auto"``, ``"table"`` or ``"dd"``; ``duplicate``:
    pairs of matches on the same cards (module doc) or every match its own."""
    from ..deal import deal_batch
    from ..strategy.match import play_matches
    from ..strategy.policies import POLICIES, play_note, play_used
    from . import StudyError

    policies = [policies] if isinstance(policies, str) else list(policies)
    # refuse bad parameters before any play (the CLI turns StudyError into exit status 2; the
    # runner's check_params has already refused bad numbers)
    unknown = [p for p in policies if p not in POLICIES]
    if unknown or len(policies) < 2:
        raise StudyError(f"parameter policies needs at least two of {', '.join(POLICIES)}; got {policies}")
    play, engine_used, engine_note = check_play_and_engine(play, engine, rules)
    rr, logs, mats = [], [], []
    for k, (a, b) in enumerate(itertools.combinations(policies, 2)):
        r = play_matches(a, b, matches, seed, rules, play=play, engine=engine, duplicate=duplicate)
        rr.append(r.summary())
        logs.append(r.hands.assign(match=r.hands["match"] + k * matches))
        # cards: the card set of the match (the same for both matches of a pair and every pair of policies)
        mats.append(r.matches.assign(match=r.matches["match"] + k * matches, cards=r.units(),
                                     policy_a=a, policy_b=b))
    round_robin = pd.DataFrame(rr)
    if source_date_epoch() is not None:  # reproducible outputs: no wall-clock column (as report.json, study.json)
        round_robin = round_robin.drop(columns=["seconds"], errors="ignore")
    allm = pd.concat(mats, ignore_index=True)
    st = []
    for p in policies:
        as_a, as_b = allm[allm["policy_a"] == p], allm[allm["policy_b"] == p]
        won = np.concatenate([as_a["a_won"].to_numpy(bool),
                              (~as_b["a_won"].to_numpy(bool)) & (as_b["winner"].to_numpy() >= 0)])
        cards = np.concatenate([as_a["cards"].to_numpy(), as_b["cards"].to_numpy()])
        st.append({"policy": p, **share_row(won, cards)})
    standings = pd.DataFrame(st).sort_values("p", ascending=False, ignore_index=True)
    win_by_state = _win_by_state(pd.concat(logs, ignore_index=True), allm, rules, play)

    sample = deal_batch(hands, seed + 1)[:, 0]
    grid = bid_grid(rules, sample, grid_step, play)

    variants = {"as given": rules, "no 45 rule": rules.with_overrides(["bid_out=none"]),
                "target 32": _short(rules)}
    eff = []
    for name, r_ in variants.items():
        m = play_matches("score-aware", "ev", rules_matches or matches, seed, r_, play=play, engine=engine,
                         duplicate=duplicate).summary()
        g = bid_grid(r_, sample[: max(1, hands // 4)], max(grid_step, 10), play)
        eff.append({"rules": name, "matches": m["matches"], "duplicate": m["duplicate"], "score_aware_win": m["a_win_rate"],
                    "lo": m["a_win_lo"], "hi": m["a_win_hi"], "hands_mean": m["hands_mean"],
                    "won_defending": (m["a_out_defending"] + m["b_out_defending"]) / m["matches"],
                    "bid_diff_mean": float(g["diff"].mean()), "bid_diff_max": float(g["diff"].max()),
                    "bid_diff_min": float(g["diff"].min())})
    rules_effect = pd.DataFrame(eff)

    info = {"n": int(len(allm)), "seed": seed, "rules": getattr(rules, "label", str(rules)), "play": play,
            "play_used": play_used(rules, play), "play_note": play_note(rules, play), "engine": engine_used,
            "engine_note": engine_note, "duplicate": bool(duplicate)}
    tables = StudyTables({"round_robin": round_robin, "standings": standings, "win_by_state": win_by_state,
                          "bid_vs_state": grid, "rules_effect": rules_effect})
    expect = {"table": "table play", "dd": "double dummy"}[info["play_used"]]
    scored = {"table": "scored in table play (points drawn from the table-play model)",
              "dd": "played double dummy"}[engine_used]
    dup = ("duplicate: pairs of matches on the same cards, sides swapped, the pair the independent unit"
           if duplicate else "not duplicate: every match its own cards")
    tables.meta("round_robin").note = (
        f"{matches} matches per pair of policies ({dup}); "
        f"the policies bid expecting {expect}, the contracts are {scored}; "
        "a_win_rate with its Wilson 95% interval, edge = mean pair score - 1/2 (95%), "
        "board_net = A's hand score - B's a board (both seatings / 2; a hand when not "
        "duplicate; 95%); "
        "margin = A's score - B's at the end; intervals clustered by "
        + ("pair of matches (the same cards)" if duplicate else "match")
        + (f"; warning: {info['play_note']}" if info["play_note"] else ""))
    tables.meta("standings").note = (
        "each policy's wins over all its round-robin matches (Wilson 95%, clustered by card "
        "set: its matches against every opponent are played on the same cards)")
    tables.meta("win_by_state").note = (
        "P(the side wins the match) from the score at the start of a hand, every hand of "
        "the round robin from both sides; model = the score-aware policy's estimate "
        "(kaiser_sim.strategy.policies.win_table); Wilson 95% intervals clustered by card set (the hands of "
        "a match, the two matches of a pair and other policies' matches on the same "
        "cards move together; clusters = independent card sets behind the cell)")
    tables.meta("bid_vs_state").note = (
        f"{hands} random first-speaker hands; diff = level of the highest bid the score-aware "
        "policy would make - level of the highest bid with a positive expected hand score (ev); "
        "0 = no bid; more / less = share of hands bidding higher / lower")
    tables.meta("rules_effect").note = (
        f"score-aware vs ev under each rules variant ({'duplicate' if duplicate else 'not duplicate'}; "
        "Wilson 95%); bid_diff: the "
        "bid_vs_state difference averaged / max / min over a coarser grid")
    for name in tables:
        meta = tables.meta(name)
        meta.run = dict(info)
        meta.footer = (footer(info, f"{matches} matches a pair{', duplicate' if duplicate else ', not duplicate'}"
                              f", bids expecting {expect}")
                       .replace(" deals,", " matches,").replace("; double dummy;", f"; contracts {scored};")
                       .replace("clustered by deal", "clustered by card set"))
    return tables


def _cells(ax, z, cmap, vmin, vmax):
    """A grid of coloured cells centred on integer positions (vector patches,
    no image); NaN cells left blank."""
    rows, cols = z.shape
    mesh = ax.pcolormesh(np.arange(cols + 1) - 0.5, np.arange(rows + 1) - 0.5, np.ma.masked_invalid(z), cmap=cmap,
                         vmin=vmin, vmax=vmax)
    ax.set_xlim(-0.5, cols - 0.5)
    ax.set_ylim(-0.5, rows - 0.5)
    return mesh


def plot(tables) -> dict:
    figs = {}
    grid = tables["bid_vs_state"]
    foot = tables.meta("bid_vs_state").footer
    xs = sorted(grid["theirs"].unique())
    ys = sorted(grid["ours"].unique())
    z = grid.pivot(index="ours", columns="theirs", values="diff").reindex(index=ys, columns=xs).to_numpy()
    fig, ax = new_figure("Bid more or less than the hand says? (score-aware - hand-EV bid)", "their score",
                         "our score", foot, figsize=(8, 7))
    ax.grid(False)
    lim = max(0.5, float(np.nanmax(np.abs(z))))
    im = _cells(ax, z, "RdBu", -lim, lim)
    ax.set_xticks(range(len(xs)), xs)
    ax.set_yticks(range(len(ys)), ys)
    for i in range(len(ys)):
        for j in range(len(xs)):
            ax.text(j, i, f"{z[i, j]:+.1f}", ha="center", va="center", fontsize=7,
                    color="w" if abs(z[i, j]) > 0.6 * lim else "k")
    fig.colorbar(im, ax=ax, label="mean bid level difference (blue: bid more, red: bid less)").solids.set_rasterized(False)
    figs["bid_vs_state"] = fig

    st = tables["standings"]
    fig, ax = new_figure("Round robin: share of matches won", "policy", "matches won", tables.meta("standings").footer)
    x = np.arange(len(st))
    ax.bar(x, st["p"], yerr=[st["p"] - st["lo"], st["hi"] - st["p"]], capsize=4)
    ax.axhline(0.5, color="0.5", linewidth=0.8)
    ax.set_xticks(x, st["policy"], rotation=20)
    fig.subplots_adjust(bottom=bottom_margin(fig, 0.9))  # the slanted policy names
    figs["standings"] = fig

    w = tables["win_by_state"]
    labels = [b[0] for b in SCORE_BUCKETS]
    z = np.full((len(labels), len(labels)), np.nan)
    for _, r in w.iterrows():
        z[labels.index(str(r["ours"])), labels.index(str(r["theirs"]))] = r["p"]
    fig, ax = new_figure("P(win the match) from the score at the start of a hand", "their score", "our score",
                         tables.meta("win_by_state").footer, figsize=(8, 7))
    ax.grid(False)
    im = _cells(ax, z, "viridis", 0, 1)
    ax.set_xticks(range(len(labels)), labels)
    ax.set_yticks(range(len(labels)), labels)
    for i in range(len(labels)):
        for j in range(len(labels)):
            if not np.isnan(z[i, j]):
                ax.text(j, i, f"{z[i, j]:.2f}", ha="center", va="center", fontsize=7, color="w")
    fig.colorbar(im, ax=ax, label="share of these positions whose side won").solids.set_rasterized(False)
    figs["win_by_state"] = fig
    return figs


__all__ = ["run", "plot", "limits", "bid_grid", "KEY", "DEFINITION", "PARAMETERS", "PLAY", "ENGINE",
           "MATCH_SEED", "DUPLICATE"]
