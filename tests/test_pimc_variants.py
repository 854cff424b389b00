"""PIMC play under every rules variant (``kaiser_sim.dd.pimc`` with rules):
the kitty taken up and discarded, the discard hidden from the other seats,
low no trump on reversed ranks, cover 3.  Checked against a referee written
here from the rules (docs/rules.md: follow suit, the highest card of the led
suit or the highest trump wins; in low no trump the lowest card of the led
suit), against the double-dummy solver (four DD players realise the rules'
double-dummy value) and against exact enumeration (the sampling).  Tiny
sizes: a few deals, small K."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from kaiser_sim.cards import FIVE_HEARTS, THREE_SPADES, cards_of
from kaiser_sim.dd import pimc
from kaiser_sim.deal import deal_for_rules
from kaiser_sim.game import contract_values, pimc_discard, play_deals
from kaiser_sim.rules import STANDARD
from kaiser_sim.rules import Rules

VARIANTS = {
    "kitty-34": Rules.preset("kitty-34"),
    "kitty-4": Rules.preset("kitty-4"),
    "low-nt": Rules.preset("low-nt"),
    "low-specials": Rules.preset("low-nt").replace(low_specials_lowest=True, label="low-specials"),
    "cover3": Rules.preset("standard").replace(cover3=True, label="cover3"),
    "kitty-4-specials": Rules.preset("kitty-4").replace(kitty_discard_points="declarer", label="k4-declarer"),
}


def _contracts(rules, n):
    dec = np.arange(n) % 4
    strains = np.array([0, 4, 5 if rules.low_nt != "off" else 1, 5 if rules.low_nt != "off" else 2])[np.arange(n) % 4]
    return dec, strains


def _winner(cards, leader, strain, rules):
    """The referee: the seat that wins a trick (``cards`` from the leader)."""
    led = cards[0] >> 4

    def key(c):
        suit, rank = c >> 4, c & 15
        if strain == 5:  # low no trump: the lowest card of the led suit wins
            if suit != led:
                return -1
            special = c in (FIVE_HEARTS, THREE_SPADES)
            if rules.low_specials_lowest and special:
                return 0  # stays the lowest of its suit: loses to every card
            return 100 - rank
        if strain < 4 and suit == strain:
            return 200 + rank
        return rank if suit == led else -1

    best = max(range(4), key=lambda j: key(cards[j]))
    return (leader + best) % 4


@pytest.mark.parametrize("name", list(VARIANTS))
def test_pimc_play_is_legal_and_scored_by_the_rules(name):
    rules = VARIANTS[name]
    n = 4
    deals, kitties = deal_for_rules(n, 11, rules)
    dec, strains = _contracts(rules, n)
    r = play_deals(deals, dec, strains, samples=3, seed=4, rules=rules, kitties=kitties)
    for i in range(n):
        h = [int(x) for x in deals[i]]
        d = int(dec[i])
        disc = int(r.discards[i])
        if rules.kitty != "none":
            kit = int(kitties[i])
            assert bin(disc).count("1") == rules.kitty_size  # as many cards as the kitty
            assert disc & ~(h[d] | kit) == 0  # from the declarer's hand with the kitty taken up
            if not rules.may_discard_specials:
                assert not disc >> FIVE_HEARTS & 1 and not disc >> THREE_SPADES & 1
            h[d] = (h[d] | kit) & ~disc
        else:
            assert disc == 0
        leader, ns, decl_tricks, decl_3s = d, 0, 0, False
        plays = [int(c) for c in r.plays[i]]
        assert len(plays) == 4 * rules.tricks
        for t in range(rules.tricks):
            cards = plays[4 * t:4 * t + 4]
            led = cards[0] >> 4
            for j, c in enumerate(cards):
                p = (leader + j) % 4
                assert h[p] >> c & 1, (name, i, t, c)  # a card the player holds
                follows = any(x >> 4 == led for x in cards_of(h[p]))
                assert c >> 4 == led or not follows  # follows suit when it can
                h[p] &= ~(1 << c)
            w = _winner(cards, leader, int(strains[i]), rules)
            pts = 1 + (5 if FIVE_HEARTS in cards else 0) - (3 if THREE_SPADES in cards else 0)
            ns += pts if w % 2 == 0 else 0
            assert int(r.trick_ns[i, t]) == (pts if w % 2 == 0 else 0)
            if w % 2 == d % 2:
                decl_tricks += 1
                decl_3s |= THREE_SPADES in cards
            leader = w
        assert ns == int(r.ns[i])
        in_play = [c for c in (FIVE_HEARTS, THREE_SPADES) if not (disc >> c & 1) and (
            (int(deals[i][0] | deals[i][1] | deals[i][2] | deals[i][3]) | int(kitties[i])) >> c & 1)]
        total = rules.tricks + (5 if FIVE_HEARTS in in_play else 0) - (3 if THREE_SPADES in in_play else 0)
        decl = ns if d % 2 == 0 else total - ns
        if rules.cover3 and decl_tricks < 3:
            decl = -3 if decl_3s else decl_tricks
        if rules.kitty_discard_points == "declarer":
            decl += (5 if disc >> FIVE_HEARTS & 1 else 0) - (3 if disc >> THREE_SPADES & 1 else 0)
        assert decl == int(r.declarer_points[i]) and decl_tricks == int(r.declarer_tricks[i])


@pytest.mark.parametrize("name", ["kitty-34", "kitty-4", "low-nt", "low-specials", "kitty-4-specials"])
def test_double_dummy_players_realise_the_rules_double_dummy_value(name):
    """Four DD players (the DD declarer discards best) take exactly the
    value :func:`contract_values` solves under the rules."""
    rules = VARIANTS[name]
    n = 4
    deals, kitties = deal_for_rules(n, 12, rules)
    dec, strains = _contracts(rules, n)
    r = play_deals(deals, dec, strains, declarer="dd", defenders="dd", rules=rules, kitties=kitties)
    assert np.array_equal(r.declarer_points, contract_values(deals, kitties, dec, strains, rules)[0])


def test_low_nt_needs_rules_that_play_it_and_a_kitty_needs_the_kitties():
    deals, kitties = deal_for_rules(1, 1, VARIANTS["kitty-4"])
    with pytest.raises(ValueError, match="kitt"):
        play_deals(deals, [0], [0], samples=2, rules=VARIANTS["kitty-4"])
    d32 = deal_for_rules(1, 1, Rules.preset("standard"))[0]
    with pytest.raises(ValueError, match="low NT"):
        play_deals(d32, [0], [5], samples=2, rules=STANDARD)


def test_sampling_with_a_hidden_discard_is_uniform():
    """A seat that has not seen the declarer's discard: the unseen cards go to
    the three other hands and the discard, every consistent layout alike."""
    seat = 1
    unknown = sum(1 << c for c in (8, 7, 6, 24, 23, 40, 41))  # 3 spades, 2 hearts, 2 diamonds
    sizes = np.array([2, 2, 2, 1])  # N 2, S 2, W 1, and 2 cards discarded
    voids = np.array([0, 0, 1, 0])  # S void in spades
    cards = cards_of(unknown)
    layouts = []
    for assign in itertools.product((0, 2, 3, 9), repeat=len(cards)):  # 9: the discard
        if [assign.count(q) for q in (0, 2, 3, 9)] != [2, 2, 1, 2]:
            continue
        if any(q == 2 and c >> 4 == 0 for c, q in zip(cards, assign)):
            continue
        layouts.append(assign)
    n = 30000
    out = pimc.sample_hands(seat, 1 << 32, unknown, sizes, voids, n=n, seed=5, hidden=2)
    counts = Counter(tuple(next((q for q in (0, 2, 3) if int(h[q]) >> c & 1), 9) for c in cards) for h in out)
    assert set(counts) == set(layouts)
    expected = n / len(layouts)
    chi2 = sum((counts[lay] - expected) ** 2 / expected for lay in layouts)
    dof = len(layouts) - 1
    assert chi2 < dof + 5 * np.sqrt(2 * dof), (chi2, dof)


def test_discard_candidates_are_the_lowest_cards_of_each_suit():
    hand = sum(1 << c for c in (8, 5, 3, 0, 24, 16, 21, 40, 33))  # S A J 9 3S, H A 5H T, D A, C 8
    for k, specials in ((2, False), (3, True), (4, True)):
        got = set(pimc.discard_candidates(hand, k, 1 << FIVE_HEARTS, 1 << THREE_SPADES, specials))
        want = set()
        for combo in itertools.combinations(cards_of(hand), k):
            ok = True
            for c in combo:
                if c in (FIVE_HEARTS, THREE_SPADES):
                    ok &= specials
                    continue
                # every card of its suit below it (other than a special) is thrown too
                lower = [x for x in cards_of(hand) if x >> 4 == c >> 4 and x < c and x not in (FIVE_HEARTS,
                                                                                             THREE_SPADES)]
                ok &= all(x in combo for x in lower)
            if ok:
                want.add(sum(1 << c for c in combo))
        assert got == want, k


def test_the_discard_is_seeded_and_hidden_from_the_other_seats():
    rules = VARIANTS["kitty-34"]
    deals, kitties = deal_for_rules(2, 21, rules)
    a = play_deals(deals, [0, 1], [4, 0], samples=3, seed=8, rules=rules, kitties=kitties)
    b = play_deals(deals[1:], [1], [0], samples=3, seed=8, start=1, rules=rules, kitties=kitties[1:])
    assert np.array_equal(a.plays[1], b.plays[0]) and a.discards[1] == b.discards[0]  # deal i plays the same alone
    d = pimc_discard(deals[0], kitties[0], 0, 4, rules, samples=4, seed=8, index=0)
    assert d == pimc_discard(deals[0], kitties[0], 0, 4, rules, samples=4, seed=8, index=0)


# --- the commands that play: simulate --play, the dd-bias study ------------------------------------------


@pytest.mark.parametrize("name", ["kitty-34", "low-nt", "cover3"])
def test_simulate_play_and_dd_bias_under_a_variant(tmp_path, name):
    """``simulate --play`` and the dd-bias study play the variant: the played
    columns match :func:`play_deals` under the rules, the DD column the
    rules' double-dummy value of the contract."""
    from kaiser_sim.runs.simulate import simulate
    from kaiser_sim.runs.results import load_run
    from kaiser_sim.runs.spec import play_contracts
    from kaiser_sim.studies import get_study

    rules = VARIANTS[name]
    n = 6
    simulate(tmp_path / "run", n, 31, rules=rules, samples=2, workers=1)
    run_results = load_run(tmp_path / "run")
    df = run_results.frame
    hands = df[["hand_N", "hand_E", "hand_S", "hand_W"]].to_numpy(dtype=np.uint64)
    kitties = deal_for_rules(n, 31, rules, redeal_weak=True)[1]
    dec, strains = play_contracts(hands, df["deal"].to_numpy(), rules)
    assert np.array_equal(df["play_strain"], strains)
    if rules.low_nt != "off":
        assert (strains == 5).any()
    r = play_deals(hands, dec, strains, samples=2, seed=31, rules=rules, kitties=kitties)
    assert np.array_equal(df["play_pts"], r.declarer_points)
    assert np.array_equal(df["play_dd"], contract_values(hands, kitties, dec, strains, rules)[0])
    tables = get_study("dd-bias").run(run_results, rules, samples=2, min_cell=2)
    deals = tables["deals"]
    assert tables["difference"].iloc[0]["n"] == n and np.array_equal(deals["diff"], deals["pimc"] - deals["dd"])


def test_table_play_model_command_builds_a_variant_model(tmp_path):
    """``kaiser-sim table-play-model --rules PRESET`` fits that game's model,
    with its rules and rebuild command in the provenance; --runs (simulate
    runs of the standard game) is refused before any deal is played."""
    from click.testing import CliRunner

    from kaiser_sim.cli import main
    from kaiser_sim.strategy.table_play import TablePlayModel, play_key

    out = tmp_path / "m.json"
    args = ["table-play-model", "--rules", "low-nt", "--deals", "100", "--holdout", "100", "-k", "1", "-q"]
    r = CliRunner().invoke(main, [*args, "--out", str(out), "--runs", str(tmp_path / "runs")])
    assert r.exit_code == 2 and "--runs" in r.output and not out.exists()
    r = CliRunner().invoke(main, [*args, "--out", str(out)])
    assert r.exit_code == 0, r.output
    m = TablePlayModel.load(out)
    assert m.play_key() == play_key(VARIANTS["low-nt"]) and m.provenance["deals"] == 100
    assert m.provenance["rebuild"].startswith("kaiser-sim table-play-model --rules low-nt --deals 100")
    assert m.joint.sum() == 100 and m.validation["heldout"] and "low_nt" in m.validation
