"""Every rules preset and option in the commands made for the table:
``kaiser-sim hand`` (the advisor), ``kaiser-sim match`` (the match engine)
and the weak-hand redeal of ``kaiser-sim simulate``.

Tiny sizes only: a kitty value is a search over the declarer's discards.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

import kaiser_sim
from kaiser_sim.runs import results as res
from kaiser_sim.strategy.advisor import advise, advisor_deals
from kaiser_sim.cards import parse_hand, popcount
from kaiser_sim.cli import main
from kaiser_sim.deal import deal_batch
from kaiser_sim.strategy.match import MatchError, play_matches, round_seed
from kaiser_sim.rules import PRESETS, Rules
from kaiser_sim.runs.simulate import RunSpec, SimulateError, simulate
from kaiser_sim.deal import deal_for_rules, weak_hands
from kaiser_sim.game.values import (
    contract_values,
    cover3_points,
    kitty_dd_value,
    strain_values,
)

STANDARD = Rules.preset("standard")
#: a hand for each preset's deck and hand size
HANDS = {"kitty-4": "AK93.5.AK.-", "kitty-34": "AK73.75.AK.-"}
HAND = "AK93.5.AK.8"
#: rules options beyond the presets
OPTIONS = {
    "low-choice": STANDARD.replace(low_nt="choice", label="low-choice"),
    "cover3": STANDARD.replace(cover3=True, label="cover3"),
    "solo": STANDARD.replace(kaiser_outright="solo", label="solo"),
    "quads": STANDARD.replace(weak_redeal="weak+quads", label="quads"),
    "low-specials": Rules.preset("low-nt").replace(low_specials_lowest=True, label="low-specials"),
}


def hand_cli(*args):
    return CliRunner().invoke(main, ["hand", *[str(a) for a in args]])


# --- kaiser-sim hand ----------------------------------------------------------------------------


@pytest.mark.parametrize("preset", list(PRESETS))
def test_hand_every_preset(preset):
    hand = HANDS.get(preset, HAND)
    r = hand_cli(hand, "-n", 6, "--seed", 1, "--rules", preset, "--format", "json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    rules = Rules.preset(preset)
    assert d["rules"]["label"] == preset and d["deals"] == 6
    assert list(d["strains"]) == (["S", "H", "D", "C", "N", "L"] if rules.low_nt != "off" else
                                  ["S", "H", "D", "C", "N"])
    assert d["play"]["used"] == "table"  # every preset has its table-play model
    assert d["play"]["provenance"]["rules"]["kitty"] == rules.kitty
    if rules.low_nt == "bid":
        assert "6NT-low" in [b["bid"] for b in d["bids"]]
    text = hand_cli(hand, "-n", 4, "--seed", 1, "--rules", preset)
    assert text.exit_code == 0 and "Recommended:" in text.stdout


def test_hand_kitty_values_are_the_declarers_best_discard():
    rules = Rules.preset("kitty-4")
    a = advise(HANDS["kitty-4"], seat="E", n=4, seed=3, rules=rules)
    deals, kitties = advisor_deals(int(parse_hand(HANDS["kitty-4"])), 1, 4, 3, rules, kitties=True)
    assert {popcount(h) for h in deals.ravel()} == {7} and all(popcount(k) == 4 for k in kitties)
    for i in range(4):
        for s in range(5):
            assert a.values[i, s] == kitty_dd_value(deals[i], kitties[i], 1, s, rules)
    assert any(t.startswith("Kitty (k1)") for t in a.notes)
    assert a.specials is None and any("not measured with a kitty" in t for t in a.notes)
    assert any("dealt uniformly" in t and "25 cards" in t for t in a.notes)


def test_hand_kitty_default_deals_and_refused_hand_size():
    r = hand_cli(HAND, "--rules", "kitty-4")
    assert r.exit_code == 2 and "a Kaiser hand has 7" in r.stderr
    from kaiser_sim.strategy.advisor import DEFAULT_DEALS, KITTY_DEALS

    assert (DEFAULT_DEALS, KITTY_DEALS) == (2000, 500)


def test_hand_low_nt_is_its_own_strain_and_bid():
    rules = Rules.preset("low-nt")
    low_hand = "98.5.T9.987"
    # 100 deals: with fewer, no bid is clearly worth more than passing, and the advisor then passes
    a = advise(low_hand, n=100, seed=2, rules=rules)
    deals = advisor_deals(int(parse_hand(low_hand)), 0, 100, 2, rules)
    assert np.array_equal(a.values, strain_values(deals, None, 0, rules))
    b = a.bids.set_index("bid")
    assert b.loc["7NT-low", "strain"] == "L" and b.loc["7NT", "strain"] == "N"
    assert a.recommendation.strain == "L"  # a hand of low cards: low no trump
    assert a.specials is not None and a.specials.strain == "L"
    assert "LNT" in a.to_text() and "7NT-low" in a.to_text()


def test_hand_low_nt_choice_plays_nt_bids_high_or_low():
    a = advise("98.5.T9.987", n=10, seed=2, rules=OPTIONS["low-choice"], specials=False)
    b = a.bids.set_index("bid")
    assert "7NT-low" not in b.index and b.loc["7NT", "strain"] == "L"
    assert not np.isnan(b.loc["7NT", "exp_N"]) and not np.isnan(b.loc["7NT", "exp_L"])


def test_hand_cover3_scores_the_declaring_side_with_cover_3():
    rules = OPTIONS["cover3"]
    a = advise(HAND, n=8, seed=5, rules=rules, specials=False)
    deals = advisor_deals(int(parse_hand(HAND)), 0, 8, 5, rules)
    pts = strain_values(deals, None, 0, rules, "points")
    trk = strain_values(deals, None, 0, rules, "tricks")
    assert np.array_equal(a.values, cover3_points(pts, trk))
    assert a.play.used == "table" and a.play.provenance["rules"]["cover3"]
    assert any(t.startswith("Cover 3") for t in a.notes)


def test_cover3_points():
    # 3 tricks or more: the points; fewer: the tricks, or -3 with the 3S
    assert cover3_points(8, 3) == 8 and cover3_points(7, 2) == 2 and cover3_points(-1, 2) == -3
    assert cover3_points(4, 2) == -3  # 2 tricks + 5H - 3S
    assert list(cover3_points(np.array([0, 6, 1]), np.array([0, 1, 1]))) == [0, 1, 1]


def test_hand_solo_kaiser_and_passing_cards():
    a = advise("AKQJ.A.AK.A", n=6, seed=1, rules=OPTIONS["solo"], specials=False)
    assert "12NT" not in list(a.bids["bid"]) and any(t.startswith("Solo Kaiser") for t in a.notes)
    p = advise(HAND, n=6, seed=1, rules=STANDARD.replace(pass_cards=2), specials=False)
    assert any(t.startswith("Passing cards (2 a partner) is not modelled") for t in p.notes)


def test_hand_weak_redeal_quads():
    rules = OPTIONS["quads"]
    hand = int(parse_hand("AK93.5.AK.8"))
    deals = advisor_deals(hand, 0, 300, 4, rules)
    plain = deal_batch(300, 4, fixed={0: hand})
    assert not weak_hands(rules, deals)[:, 1:].any() and weak_hands(rules, plain)[:, 1:].any()
    same = ~weak_hands(rules, plain)[:, 1:].any(axis=1)
    assert np.array_equal(deals[same], plain[same])  # only weak deals are redealt


# --- kaiser-sim match ----------------------------------------------------------------------------


def _replay(r):
    from test_match import replay

    replay(r)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_match_every_preset(preset):
    res_ = CliRunner().invoke(main, ["match", "-a", "ev", "-b", "cautious", "-n", "2", "--seed", "3", "-q",
                                     "--rules", preset, "--format", "json"])
    assert res_.exit_code == 0, res_.output
    s = json.loads(res_.stdout)["summary"]
    rules = Rules.preset(preset)
    assert s["matches"] == 2 and s["unfinished"] == 0
    plain = rules.kitty == "none" and rules.low_nt == "off"
    assert s["engine"] == "table"  # every preset has its table-play model
    assert (s["rules_note"] == "") == plain  # (the make model's note: it knows the standard game only)


@pytest.mark.parametrize("name", ["kitty-4", "kitty-34", "low-nt", *OPTIONS])
def test_match_variants_replay_and_use_the_variant_values(name):
    rules = OPTIONS.get(name) or Rules.preset(name)
    seed = 3
    r = play_matches("ev", "score-aware", 2, seed=seed, rules=rules, engine="dd")
    assert (r.matches["winner"] >= 0).all()
    _replay(r)
    h = r.hands[r.hands["declarer"] >= 0].head(4)
    for row in h.itertuples():
        deals, kits = deal_for_rules(1, round_seed(seed, row.hand), rules, start=row.match // 2, redeal_weak=True)
        decl, dfn = contract_values(deals, kits, [row.declarer], [row.strain], rules)
        assert row.raw == decl[0]
        if "def_raw" in r.hands.columns:
            assert row.def_raw == dfn[0]
    if rules.low_nt == "bid":
        low = r.hands["bid"].str.endswith("NT-low")
        assert (r.hands.loc[low, "strain"] == 5).all()
    if rules.kaiser_outright == "solo":
        assert not r.hands["bid"].isin(["12NT"]).any() and "no policy bids 12NT" in r.summary()["rules_note"]


def test_match_kitty_defenders_take_what_is_left_in_play():
    rules = Rules.preset("kitty-4").replace(kitty_discard_specials="yes")
    r = play_matches("ev", "ev", 2, seed=1, rules=rules)
    h = r.hands[r.hands["declarer"] >= 0]
    total = h["raw"] + h["def_raw"]
    assert total.isin([9, 4, 12, 7]).all()  # 7 tricks + 2, less a discarded 5H (5) or 3S (-3)


def test_match_weak_redeal_means_no_weak_hand_is_bid():
    from kaiser_sim.strategy.policies import Policy

    class Recorder(Policy):
        name = "recorder"

        def __init__(self):
            self.hands = []

        def bid(self, view):
            self.hands.extend(int(h) for h in view.hands)
            return np.full(len(view), -1, dtype=np.int16) if view.calls.shape[1] < 3 else \
                np.full(len(view), 0, dtype=np.int16)

    rules = OPTIONS["quads"]
    rec = Recorder()
    play_matches(rec, rec, 12, seed=2, rules=rules, max_hands=30)
    hands = np.array(rec.hands, dtype=np.uint64).reshape(-1, 1)
    assert len(hands) > 300 and not weak_hands(rules, np.hstack([hands] * 4)).any()
    off = Recorder()
    play_matches(off, off, 12, seed=2, rules=rules.replace(weak_redeal="off"), max_hands=30)
    h_off = np.array(off.hands, dtype=np.uint64).reshape(-1, 1)
    assert weak_hands(rules, np.hstack([h_off] * 4)).any()  # without the redeal, weak hands are played


def test_match_refuses_passing_cards_on_the_command_line():
    r = CliRunner().invoke(main, ["match", "-a", "ev", "-b", "ev", "-n", "2", "--rule", "pass_cards=2"])
    assert r.exit_code == 2 and "pass_cards=2" in r.stderr and "strategy" in r.stderr
    with pytest.raises(MatchError):
        play_matches("ev", "ev", 2, rules=STANDARD.replace(pass_cards=1))


# --- simulate: the weak-hand redeal --------------------------------------------------------------


QUADS = OPTIONS["quads"]


def test_simulate_redeal_is_deterministic_and_recorded(tmp_path):
    simulate(tmp_path / "a", 120, 4, rules=QUADS, workers=1, chunk_size=40, mode="tricks")
    simulate(tmp_path / "b", 120, 4, rules=QUADS, workers=1, chunk_size=17, mode="tricks")
    a, b = (kaiser_sim.load_results(tmp_path / k) for k in "ab")
    assert a.drop(columns=[]).equals(b)
    deals, _, redeals = deal_for_rules(120, 4, QUADS, redeal_weak=True, return_redeals=True)
    assert np.array_equal(res.hands_array(a), deals) and redeals.sum() > 0
    assert not weak_hands(QUADS, deals).any()
    plain = deal_batch(120, 4)
    kept = redeals == 0
    assert np.array_equal(deals[kept], plain[kept])  # only the weak deals changed
    meta = res.read_metadata(tmp_path / "a")
    assert meta["redeal"]["rule"] == "weak+quads" and "first acceptable" in meta["redeal"]["method"]
    info = res.info(tmp_path / "a")
    assert info["redeals"] == res.info(tmp_path / "b")["redeals"] == int(redeals.sum())
    assert "redeal    weak-hand redeal (weak+quads)" in res.info_text(info)
    s = simulate(tmp_path / "c", 40, 4, rules=QUADS, workers=1, mode="tricks")
    assert s.redeals == int(redeals[:40].sum())
    # resuming keeps the rule; a run made before the redeal (no 'redeal' in its metadata) is not redealt
    assert RunSpec.from_metadata(meta).redeal is True
    old = {k: v for k, v in meta.items() if k != "redeal"}
    assert RunSpec.from_metadata(old).redeal is False


def test_simulate_without_the_redeal_is_unchanged(tmp_path):
    off = STANDARD.replace(weak_redeal="off")
    simulate(tmp_path / "off", 30, 2, rules=off, workers=1, mode="tricks", chunk_size=30)
    df = kaiser_sim.load_results(tmp_path / "off")
    assert np.array_equal(res.hands_array(df), deal_batch(30, 2))
    assert "redeal" not in res.read_metadata(tmp_path / "off") and "redeals" not in res.info(tmp_path / "off")
    assert RunSpec(2, 30, 30, "tricks", off).metadata() == res.read_metadata(tmp_path / "off") | {
        "version": RunSpec(2, 30, 30, "tricks", off).metadata()["version"]}


def test_simulate_refuses_fixed_cards_that_are_always_redealt(tmp_path):
    with pytest.raises(SimulateError, match="fixed cards of N make a hand the rules redeal"):
        simulate(tmp_path / "x", 5, 1, fixed=["N=T98.98.T9.T"], workers=1)
    with pytest.raises(SimulateError, match="all four 10s"):
        simulate(tmp_path / "y", 5, 1, rules=QUADS, fixed=["E=T.T.T.T"], workers=1)
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()
    # with the redeal off the same fixed cards are a study like any other
    simulate(tmp_path / "z", 3, 1, rules=STANDARD.replace(weak_redeal="off"), fixed=["N=T98.98.T9.T"], workers=1,
             mode="tricks")


def test_simulate_metadata_redeal_is_checked():
    meta = RunSpec(1, 10, 10, "tricks", QUADS, redeal=True).metadata()
    res.validate_metadata(meta)
    with pytest.raises(res.ResultsError, match="'redeal'"):
        res.validate_metadata(meta | {"redeal": {"rule": "weak"}})
    off = RunSpec(1, 10, 10, "tricks", STANDARD.replace(weak_redeal="off")).metadata()
    with pytest.raises(res.ResultsError, match="weak_redeal=off"):
        res.validate_metadata(off | {"redeal": {"rule": "weak"}})


def test_simulate_cli_says_the_redeals(tmp_path):
    r = CliRunner().invoke(main, ["simulate", "-n", "60", "--seed", "4", "--out", str(tmp_path / "s"), "-w", "1",
                                  "--mode", "tricks", "--rule", "weak_redeal=weak+quads"])
    assert r.exit_code == 0, r.output
    i = CliRunner().invoke(main, ["info", str(tmp_path / "s")])
    assert "weak-hand redeal (weak+quads)" in i.stdout
