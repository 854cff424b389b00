"""The studies: structure, invariants, and one number of each recomputed
independently of the study code (plain Python over the results columns or
direct solver calls).

The fixture solves a small seeded set of deals once (``results_frame``:
deal_batch + dd_table into the results schema); the re-solving studies use
a handful of deals (``max_resolve``).
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from kaiser_sim import dd
from kaiser_sim.cards import FIVE_HEARTS, THREE_SPADES, cards_of, card_rank, card_suit, parse_hand
from kaiser_sim.cli import main
from kaiser_sim.deal import deal_batch
from kaiser_sim.rules import STANDARD, get_preset
from kaiser_sim.studies import STUDIES, StudyError, get_study
from kaiser_sim.studies import bid_odds, bidding_chart, hand_eval, lead, specials, trump_and_nt
from kaiser_sim.runs.results import RunResults
from kaiser_sim.studies.common import results_frame, trump_by_rule
from kaiser_sim.studies.runner import ANALYSES_DIR, definition_for, load_definition, to_markdown

N_DEALS = 80
SEED = 11
RULES = get_preset("standard")
HCP = {8: 4, 7: 3, 6: 2, 5: 1}


@pytest.fixture(scope="module")
def results():
    return results_frame(deal_batch(N_DEALS, SEED))


@pytest.fixture(scope="module")
def run_results(results):
    """The fixture's deals as a run's results (what a study reads): the frame and its seed."""
    return RunResults(results, {"seed": SEED, "deals": N_DEALS, "mode": "points"})


def _hand_cards(mask):
    return [(card_suit(c), card_rank(c)) for c in cards_of(mask)]


def _naive_trump(mask, rule="longest-strength"):
    cards = _hand_cards(mask)
    length = [sum(1 for s, _ in cards if s == suit) for suit in range(4)]
    pts = [sum(HCP.get(r, 0) for s, r in cards if s == suit) for suit in range(4)]
    key = {"longest": lambda s: (length[s],), "strongest": lambda s: (pts[s], length[s]),
           "longest-strength": lambda s: (length[s], pts[s])}[rule]
    best = max(key(s) for s in range(4))
    return next(s for s in range(4) if key(s) == best)


def _naive_kaiser_count(mask, trump):
    """The printable Kaiser count written out card by card (the studies' strength axis)."""
    count = 0.5
    for suit, rank in _hand_cards(mask):
        if suit == trump:
            count += 1 + {8: 2, 7: 1, 6: 0.5}.get(rank, 0)
        else:
            count += {8: 1, 7: 0.5}.get(rank, 0)
    count += 0.5 if mask >> FIVE_HEARTS & 1 else 0
    count += 1.5 if mask >> THREE_SPADES & 1 else 0
    return count


def test_strength_is_the_kaiser_count(results):
    from kaiser_sim.studies.common import declarer_frame

    d = declarer_frame(results, STANDARD)
    want = [_naive_kaiser_count(int(h), _naive_trump(int(h))) for h in d["hand"]]
    assert d["strength"].tolist() == want
    assert d["hcp"].tolist() == [sum(HCP.get(r, 0) for _, r in _hand_cards(int(h))) for h in d["hand"]]


def _pts(results, i, leader, strain):
    return int(results[f"pts_{'NESW'[leader]}_{['S', 'H', 'D', 'C', 'NT'][strain]}"].iloc[i])


# --- framework --------------------------------------------------------------------------------


def test_registry_and_definitions():
    for name in STUDIES:
        mod = get_study(name)
        assert callable(mod.run) and callable(mod.plot)
        d = load_definition(ANALYSES_DIR / f"{name}.toml")
        assert d.study == name and d.deals > 0 and d.make_rules() == RULES
    with pytest.raises(StudyError):
        get_study("no-such-study")
    assert definition_for("lead").study == "lead"


def test_bad_definition(tmp_path):
    bad = tmp_path / "x.toml"
    bad.write_text('study = "lead"\nbogus = 1\n')
    with pytest.raises(StudyError, match="bogus"):
        load_definition(bad)
    bad.write_text("study = \n")
    with pytest.raises(StudyError, match="TOML"):
        load_definition(bad)


def test_markdown():
    md = to_markdown(pd.DataFrame({"a": [1, 2], "p": [0.123456, np.nan], "ok": [True, False]}))
    assert md.splitlines()[0] == "| a | p | ok |"
    assert "| 1 | 0.1235 | yes |" in md and "| 2 |  | no |" in md


# --- 1 bid odds -------------------------------------------------------------------------------


def _check_make_table(df, group_cols):
    assert (df["lo"] <= df["p"] + 1e-12).all() and (df["p"] <= df["hi"] + 1e-12).all()
    for _, g in df.groupby(group_cols, observed=True):
        assert np.all(np.diff(g.sort_values("bid")["p"].to_numpy()) <= 1e-12)  # falls as b rises


def test_bid_odds(results, run_results):
    t = bid_odds.run(run_results, RULES)
    make = t["make"]
    assert set(make["bid"]) == set(range(6, 13)) and (make["n"] == 4 * N_DEALS).all()
    _check_make_table(make, ["method"])
    _check_make_table(t["by_strength"], ["strength_bucket", "method"])
    _check_make_table(t["by_trump_length"], ["length_bucket", "method"])
    p = make.pivot(index="bid", columns="method", values="p")
    assert (p["best in hindsight (upper bound)"] >= p["trump by rule"]).all()
    assert (p["best in hindsight (upper bound)"] >= p["NT"]).all()
    # independent recount: NT makes 8
    k = sum(_pts(results, i, L, 4) >= 8 for i in range(N_DEALS) for L in range(4))
    row = make[(make["method"] == "NT") & (make["bid"] == 8)].iloc[0]
    assert row["k"] == k
    # trump by rule makes 7, trump from a naive rule
    hands = results[["hand_N", "hand_E", "hand_S", "hand_W"]].to_numpy(dtype=np.uint64)
    k7 = sum(_pts(results, i, L, _naive_trump(int(hands[i, L]))) >= 7 for i in range(N_DEALS) for L in range(4))
    assert make[(make["method"] == "trump by rule") & (make["bid"] == 7)]["k"].iloc[0] == k7
    figs = bid_odds.plot(t)
    assert all(f.axes[0].get_title() and f.axes[0].get_xlabel() for f in figs.values())
    assert all("n=" in f.texts[0].get_text() and "seed=11" in f.texts[0].get_text() for f in figs.values())


def test_bid_odds_five_hearts_table_keeps_one_precision_a_column(run_results):
    """Issue 43, item 6: the 5H table stacks table-play rows (wide intervals)
    over double-dummy rows (narrow ones); each bid's column prints one number
    of decimals over both (the edition printed 63.8 [63.3, 64.3] above
    72.23 [72.14, 72.32])."""
    from kaiser_sim.studies.blocks import Table

    t = bid_odds.run(run_results, RULES)
    five = t["by_five_hearts"].copy()
    assert {"trump by rule", "trump by rule, table play"} <= set(five["method"])
    wide = five["method"] == "trump by rule, table play"
    half = np.where(wide, 0.005, 0.0004)  # a table-play interval of 1 point of %, a double-dummy one of 0.08
    five["lo"], five["hi"] = five["p"] - half, five["p"] + half
    t["by_five_hearts"] = five
    blocks, _, _ = bid_odds.section(t)
    df = next(b.df for b in blocks if isinstance(b, Table) and b.name.endswith("-by-five-hearts"))
    assert list(df["measure"]).count("double dummy") == list(df["measure"]).count("table play") > 0
    for col in [c for c in df.columns if c.startswith("bid ")]:
        decimals = {len(c.split(" ")[0].partition(".")[2]) for c in df[col] if c != "-"}
        assert len(decimals) == 1, (col, list(df[col]))


def test_intervals_narrow_as_n_grows(run_results):
    small = bid_odds.run(run_results.first(20), RULES)["make"]
    big = bid_odds.run(run_results, RULES)["make"]
    w_small = (small["hi"] - small["lo"]).to_numpy()
    w_big = (big["hi"] - big["lo"]).to_numpy()
    assert w_big.mean() < w_small.mean()


def test_trump_rules_match_naive(results):
    hands = results[["hand_N", "hand_E", "hand_S", "hand_W"]].to_numpy(dtype=np.uint64).ravel()
    for rule in ("longest", "strongest", "longest-strength"):
        got = trump_by_rule(hands, rule)
        assert [int(x) for x in got] == [_naive_trump(int(h), rule) for h in hands]


# --- 3 bidding chart --------------------------------------------------------------------------


def test_bidding_chart(results, run_results):
    t = bidding_chart.run(run_results, RULES, min_cell=2)
    ex = t["expected"]
    assert (ex["lo"] <= ex["expected"] + 1e-9).all() and (ex["expected"] <= ex["hi"] + 1e-9).all()
    # expected score of plain bids cannot rise with the level (per hand it never does)
    for _, g in ex[~ex["bid"].str.endswith("NT")].groupby(["strength", "trump_len"], observed=True):
        assert np.all(np.diff(g["expected"].to_numpy()) <= 1e-9)
    # independent recompute of one cell: bid 7 and 7NT, hands with Kaiser count 6.5-7 and 3 trumps
    hands = results[["hand_N", "hand_E", "hand_S", "hand_W"]].to_numpy(dtype=np.uint64)
    s7, s7nt = [], []
    for i in range(N_DEALS):
        for L in range(4):
            h = int(hands[i, L])
            cards = _hand_cards(h)
            tr = _naive_trump(h)
            if 6.5 <= _naive_kaiser_count(h, tr) <= 7 and sum(1 for s, _ in cards if s == tr) == 3:
                raw = _pts(results, i, L, tr)
                s7.append(raw if raw >= 7 else -7)
                nt = _pts(results, i, L, 4)
                s7nt.append(2 * nt if nt >= 7 else -14)
    cell = ex[(ex["strength"] == "6.5-7") & (ex["trump_len"] == "3")]
    assert len(s7) > 0
    assert cell[cell["bid"] == "7"]["n"].iloc[0] == len(s7)
    assert cell[cell["bid"] == "7"]["expected"].iloc[0] == pytest.approx(np.mean(s7))
    assert cell[cell["bid"] == "7NT"]["expected"].iloc[0] == pytest.approx(np.mean(s7nt))
    # the headline grid is table play (the shipped model holds for the standard rules), DD beside it
    assert set(bidding_chart.plot(t)) == {"what_to_bid", "what_to_bid_dd", "expected_by_bid"}


def test_crossing():
    assert bidding_chart.crossing([0, 1, 2], [0.2, 0.4, 0.8], 0.5) == pytest.approx(1.25)
    assert np.isnan(bidding_chart.crossing([0, 1], [0.1, 0.2], 0.5))


# --- 4 / 5 the 5H and the 3S ------------------------------------------------------------------


def test_move_card_keeps_lengths():
    deals = deal_batch(50, 3)
    for card in (FIVE_HEARTS, THREE_SPADES):
        holder = specials.holder_of(deals, card)
        same, ok = specials.move_card(deals, card, holder)
        assert ok.all() and (same == deals).all()  # to itself: nothing changes
        for off in (1, 2, 3):
            new, ok = specials.move_card(deals, card, (holder + off) % 4)
            assert (new[~ok] == deals[~ok]).all()
            assert (np.bitwise_or.reduce(new, axis=1) == np.bitwise_or.reduce(deals, axis=1)).all()
            for s in range(4):
                assert (np.bitwise_count((new >> np.uint64(16 * s)) & np.uint64(0xFFFF))
                        == np.bitwise_count((deals >> np.uint64(16 * s)) & np.uint64(0xFFFF))).all()
            moved = specials.holder_of(new, card)
            assert (moved[ok] == ((holder + off) % 4)[ok]).all()


def test_self_swap_is_zero(results):
    summary, make, _, rec = specials.counterfactual(results, RULES, FIVE_HEARTS, receivers=("self",), max_resolve=6)
    assert (summary["mean"] == 0).all() and (summary["no_suit"] == 0).all()
    assert (make["change"] == 0).all() and (rec["worth"] == 0).all()


def test_like_for_like_swap_moves_only_the_special_status():
    deals = deal_batch(200, 5)
    for card in (FIVE_HEARTS, THREE_SPADES):
        holder = specials.holder_of(deals, card)
        for off in (1, 2, 3):
            to = (holder + off) % 4
            kind = specials.swap_kind(deals, card, to)
            new, ok = specials.move_card(deals, card, to)
            like = kind == specials.LIKE
            assert (ok == (kind != "no suit")).all()
            assert like.any() and (kind == specials.HONOUR).any() and (kind == specials.SPOT).any()
            for i in np.nonzero(like)[0]:
                back = int(deals[i, to[i]]) & ~int(new[i, to[i]])  # the card the receiver gave back
                assert bin(back).count("1") == 1 and card_suit(back.bit_length() - 1) == card >> 4
                # the next card up: no card in play ranks between it and the special card
                rank = card_rank(back.bit_length() - 1)
                in_play = [card_rank(c) for c in cards_of(int(np.bitwise_or.reduce(deals[i])))
                           if card_suit(c) == card >> 4 and c != card]
                assert rank == min(in_play)
                # every hand keeps its suit lengths and its honours (J or higher)
                for seat in range(4):
                    old_c, new_c = _hand_cards(int(deals[i, seat])), _hand_cards(int(new[i, seat]))
                    assert sorted(s for s, _ in old_c) == sorted(s for s, _ in new_c)
                    assert sorted(c for c in old_c if c[1] >= 5) == sorted(c for c in new_c if c[1] >= 5)


def test_swap_on_a_hand_made_endgame():
    # Two cards each, hearts trump (N's longest) and no trump alike.  As dealt,
    # N (AH 5H) on lead takes 1 point: whatever N leads first, E wins a heart
    # and with it the 5H.  Swapped like for like with E (LHO, lowest heart
    # 8H): N holds AH 8H, E 5H 9H, and E can do no better than drop the 5H
    # under the ace: NS take 6.  Holding the 5H is worth 1 - 6 = -5 to N's
    # side here, with N declaring.
    deal = _parse_deal("N:-.A5.-.- -.98.-.- AK.-.-.- QJ.-.-.-")
    frame = results_frame(deal[None, :])
    summary, _, _, rec = specials.counterfactual(frame, RULES, FIVE_HEARTS, receivers=("LHO",), max_resolve=1)
    row = rec[(rec["role"] == "you declare") & (rec["strain"] == "NT")].iloc[0]
    assert (row["with_card"], row["without_card"], row["worth"]) == (1, 6, -5)
    row = rec[(rec["role"] == "you declare") & (rec["strain"] == "trump by rule")].iloc[0]
    assert row["worth"] == -5 and row["swap"] == specials.LIKE


def _parse_deal(text):
    from kaiser_sim.cards import parse_deal

    return np.asarray(parse_deal(text), dtype=np.uint64)


def test_five_hearts_counterfactual_recomputed(results):
    m = 12
    summary, _, _, _ = specials.counterfactual(results, RULES, FIVE_HEARTS, receivers=("partner",), max_resolve=m)
    hands = results[["hand_N", "hand_E", "hand_S", "hand_W"]].to_numpy(dtype=np.uint64)
    worth = {specials.LIKE: [], specials.SPOT: [], specials.HONOUR: []}
    for i in range(m):
        h = [int(x) for x in hands[i]]
        holder = next(s for s in range(4) if h[s] >> FIVE_HEARTS & 1)
        part = (holder + 2) % 4
        hearts = [c for c in cards_of(h[part]) if card_suit(c) == 1]
        if not hearts:
            continue
        low = min(hearts, key=card_rank)
        new = list(h)
        new[holder] = h[holder] & ~(1 << FIVE_HEARTS) | (1 << low)
        new[part] = h[part] & ~(1 << low) | (1 << FIVE_HEARTS)
        after = dd.solve(np.array(new, dtype=np.uint64), holder, 4)
        in_play = [card_rank(c) for c in cards_of(h[0] | h[1] | h[2] | h[3]) if card_suit(c) == 1 and c != FIVE_HEARTS]
        kind = (specials.LIKE if card_rank(low) == min(in_play)
                else specials.SPOT if card_rank(low) <= 4 else specials.HONOUR)
        worth[kind].append(_pts(results, i, holder, 4) - after)
    for kind, values in worth.items():
        got = summary[(summary["strain"] == "NT") & (summary["role"] == "you declare") & (summary["swap"] == kind)]
        if values:
            assert got.iloc[0]["n"] == len(values) and got.iloc[0]["mean"] == pytest.approx(np.mean(values))


@pytest.mark.parametrize("card,col", [(FIVE_HEARTS, "has5h"), (THREE_SPADES, "has3s")])
def test_observed_worth_recomputed(results, card, col):
    # independent: the declarer frame's trump-by-rule points, declarer holding the card or not
    from kaiser_sim.studies.common import declarer_frame, share_row  # noqa: F401

    obs = specials.observed(results, RULES, card)
    d = declarer_frame(results, STANDARD)
    want = d.loc[d[col], "trump_pts"].mean() - d.loc[~d[col], "trump_pts"].mean()
    got = obs[(obs["role"] == "you declare") & (obs["strain"] == "trump by rule")
              & (obs["receiver"] == specials.ANY_OTHER)].iloc[0]
    assert got["mean"] == pytest.approx(want) and got["lo"] < want < got["hi"]
    assert got["n_with"] == N_DEALS and got["n_without"] == 3 * N_DEALS and got["deals"] == N_DEALS


@pytest.mark.parametrize("study,card,lo,hi", [("five-hearts", FIVE_HEARTS, 0, 5), ("three-spades", THREE_SPADES, -3, 0)])
def test_specials_study(results, study, card, lo, hi, run_results):
    t = get_study(study).run(run_results, RULES, max_resolve=4)
    cf = t["counterfactual"]
    assert cf["deals"].max() <= 4
    assert set(cf["receiver"]) == {"partner", "LHO", "RHO", specials.ANY_OTHER}
    assert set(cf["role"]) <= set(specials.ROLES)
    # each deal gives one 'you declare' row a receiver, two 'you defend' rows
    dec = cf[(cf["role"] == "you declare") & (cf["receiver"] != specials.ANY_OTHER)]
    assert (dec["n"] == dec["deals"]).all()
    # the footers name the n the estimates used: 4 re-solved deals, the observed view all deals
    assert "n=4 deals" in t.meta("counterfactual").footer and f"n={N_DEALS} deals" in t.meta("observed").footer
    rec = specials.worth_records(results, RULES, card, max_resolve=4)
    assert len(rec) == 4 * 20 and rec["worth"].between(lo, hi).all()
    ov = t["worth_overall"].iloc[0]
    assert ov["lo"] <= ov["mean"] <= ov["hi"] and ov["n"] == 80 and ov["deals"] == 4
    # independent: deal 0, the holder on lead in no trump, worth = points - points with the card counting 0
    h = results[["hand_N", "hand_E", "hand_S", "hand_W"]].to_numpy(dtype=np.uint64)[0]
    holder = next(s for s in range(4) if int(h[s]) >> card & 1)
    key = "five" if card == FIVE_HEARTS else "three"
    want = dd.solve(h, holder, 4) - dd.solve(h, holder, 4, **{key: np.uint64(0)})
    got = rec[(rec["deal"] == 0) & (rec["role"] == "declarer") & (rec["strain_kind"] == "NT")]["worth"]
    assert list(got) == [want]
    assert set(get_study(study).plot(t)) == {"swing", "mean_change", "worth_distribution"}


# --- 6 trump and NT ---------------------------------------------------------------------------


def test_trump_and_nt(results, run_results):
    t = trump_and_nt.run(run_results, RULES, min_cell=1)
    tr = t["trump_rules"].set_index("rule")
    assert ((tr["picks_lo"] <= tr["picks_best"]) & (tr["picks_best"] <= tr["picks_hi"])).all()
    assert (tr["loss"] >= 0).all()
    hands = results[["hand_N", "hand_E", "hand_S", "hand_W"]].to_numpy(dtype=np.uint64)
    picks = losses = 0
    nt_wins = 0
    for i in range(N_DEALS):
        for L in range(4):
            suits = [_pts(results, i, L, s) for s in range(4)]
            got = suits[_naive_trump(int(hands[i, L]), "longest")]
            picks += got == max(suits)
            losses += max(suits) - got
            nt_wins += _pts(results, i, L, 4) > max(suits)
    assert tr.loc["longest", "picks_best"] == pytest.approx(picks / (4 * N_DEALS))
    assert tr.loc["longest", "loss"] == pytest.approx(losses / (4 * N_DEALS))
    assert t["nt_beats_trump"].iloc[0]["k"] == nt_wins
    assert len(trump_and_nt.plot(t)) == 3


# --- 7 the lead -------------------------------------------------------------------------------


def test_lead(results, run_results):
    t = lead.run(run_results, RULES)
    s = t["summary"].set_index("strain")
    vals = [_pts(results, i, L, 4) - (10 - _pts(results, i, (L + 1) % 4, 4)) for i in range(N_DEALS) for L in range(4)]
    assert s.loc["NT", "mean"] == pytest.approx(np.mean(vals))
    assert s.loc["NT", "lo"] <= s.loc["NT", "mean"] <= s.loc["NT", "hi"]
    d = t["distribution"]
    assert d.groupby("strain")["share"].sum().to_numpy() == pytest.approx(1.0)
    assert len(lead.plot(t)) == 2


# --- 2 hand evaluation ------------------------------------------------------------------------


def test_heuristics_golden():
    h = np.array([parse_hand("AK93.5.AK.8")], dtype=np.uint64)
    assert hand_eval.heuristic(h, np.array([0]))[0] == 3 * 4 + 4 + 3 + 3 + 2 - 2
    assert hand_eval.rank_squared(h)[0] == pytest.approx((14**2 + 13**2 + 9**2 + 3**2 + 5**2 + 14**2 + 13**2 + 8**2) / 100)


def test_hand_eval(results, run_results):
    t = hand_eval.run(run_results, RULES, n_boot=20)
    c = t["comparison"]
    assert len(c) == 10 and (c["r2"] <= 1).all() and (c["mae"] >= 0).all()
    assert set(c["measure"]) == {"high-card count", "rank squared", "trump heuristic", "printable Kaiser count",
                                 "fitted Kaiser count"}
    assert (c["n_test"] == 4 * (results["deal"] % 5 == 0).sum()).all()
    k = t["kaiser_count"]
    assert set(k["feature"]) == set(hand_eval.FEATURES)
    assert ((k["lo"] <= k["points"]) & (k["points"] <= k["hi"])).all()
    assert len(hand_eval.plot(t)) == 2


# --- the command ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    from kaiser_sim.runs.simulate import simulate

    path = tmp_path_factory.mktemp("runs") / "r"
    simulate(path, 12, 5, workers=1)
    return path


def test_cli_study_from_results(dataset, tmp_path):
    out = tmp_path / "lead"
    r = CliRunner().invoke(main, ["study", "lead", "--from", str(dataset), "--out", str(out)])
    assert r.exit_code == 0, r.output
    files = {p.name for p in out.iterdir()}
    assert {"summary.csv", "summary.md", "lead_value.png", "lead_value.svg", "study.json"} <= files
    doc = json.loads((out / "study.json").read_text())
    assert doc["study"] == "lead" and doc["n"] == 12 and doc["seed"] == 5 and doc["version"]
    assert doc["rules"]["label"] == "standard"


def test_cli_study_param_and_toml(dataset, tmp_path):
    toml = tmp_path / "fh.toml"
    toml.write_text('study = "five-hearts"\ndeals = 10\nseed = 2\n[params]\nmax_resolve = 2\n')
    out = tmp_path / "fh"
    r = CliRunner().invoke(main, ["study", str(toml), "--from", str(dataset), "--out", str(out),
                                  "--param", "receivers=['LHO']"])
    assert r.exit_code == 0, r.output
    cf = pd.read_csv(out / "counterfactual.csv")
    assert set(cf["receiver"]) == {"LHO"} and cf["n"].max() <= 2


def test_cli_study_errors(tmp_path):
    r = CliRunner().invoke(main, ["study", "nope", "--out", str(tmp_path)])
    assert r.exit_code == 2 and "unknown study" in r.output
    r = CliRunner().invoke(main, ["study", "lead", "--param", "bogus=1", "--from", str(tmp_path), "--out", str(tmp_path)])
    assert r.exit_code == 2
    assert CliRunner().invoke(main, ["study", "--help"]).exit_code == 0


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


@pytest.mark.parametrize("name", ["bid-odds", "bidding-chart", "trump-and-nt", "hand-eval", "lead"])
def test_tiny_runs_keep_their_tables_and_charts(name, run_results):
    """A run too small for any breakdown cell (every cell under min_cell)
    still gives every table, with its columns, and every chart."""
    study = get_study(name)
    full = study.run(run_results, RULES)
    tiny = study.run(run_results.first(3), RULES)
    assert set(tiny) == set(full)
    for key, df in tiny.items():
        assert set(df.columns) == set(full[key].columns), key
    assert set(study.plot(tiny)) == set(study.plot(full))


@pytest.mark.parametrize("study,param", [
    ("bid-odds", "trump_rule=zzz"), ("bid-odds", "min_cell=abc"), ("bid-odds", "min_cell=-5"),
    ("bid-odds", "min_cell=true"), ("hand-eval", "holdout_every=0"), ("hand-eval", "n_boot=-1"),
    ("five-hearts", "max_resolve=0"), ("five-hearts", "receivers=['nobody']"), ("five-hearts", "receivers=[]"),
    ("three-spades", "max_resolve=-3"), ("lead", "trump_rule=1"), ("trump-and-nt", "min_cell=x"),
    ("dd-bias", "samples=0"), ("dd-bias", "max_deals=0"), ("dd-bias", "mixed=1"), ("match", "matches=0"),
    ("match", "policies=['ev']"), ("match", "policies=['ev','zzz']"),
])
def test_bad_parameter_values_are_refused(study, param, tmp_path):
    """Each refused before any work, with the parameter named, exit status 2."""
    out = tmp_path / "o"
    args = ["study", study, "--param", param, "--out", str(out), "--quiet"]
    if study != "match":
        args += ["--deals", "2"]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2, r.output
    assert param.split("=")[0] in r.output
    assert not out.exists() or not any(out.iterdir())


def test_same_inputs_give_byte_identical_outputs(dataset, tmp_path):
    """Tables and charts (CSV, Markdown, PNG, SVG) do not change from one run
    to the next: no dates, no random element ids (study.json also records
    paths and timings)."""
    outs = []
    for k in range(2):
        out = tmp_path / f"o{k}"
        r = CliRunner().invoke(main, ["study", "trump-and-nt", "--from", str(dataset), "--out", str(out), "--quiet"])
        assert r.exit_code == 0, r.output
        outs.append(out)
    files = sorted(p.name for p in outs[0].iterdir() if p.name != "study.json")
    assert any(f.endswith(".svg") for f in files) and any(f.endswith(".png") for f in files)
    for name in files:
        assert (outs[0] / name).read_bytes() == (outs[1] / name).read_bytes(), name
