"""The PIMC player (``kaiser_sim.dd.pimc``): sampling that respects what a seat
knows, PIMC = double dummy when nothing is hidden, double-dummy players
realise the double-dummy value, legal and reproducible play."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from kaiser_sim.cards import DECK_32, SUIT_MASK, cards_of
from kaiser_sim.dd import api, bits, midtrick, pimc
from kaiser_sim.deal import deal_batch
from kaiser_sim.game import play_deals
from kaiser_sim.rules import STANDARD
from kaiser_sim.studies.common import trump_by_rule

K = 20


def _suits(mask: int) -> set[int]:
    return {c >> 4 for c in cards_of(mask)}


# --- sampling ------------------------------------------------------------------------------------


def _random_knowledge(rng):
    """A random mid-play state seen from one seat: (seat, own, unknown,
    sizes, voids, true hands) with voids taken from the true hands (a seat
    is only ever marked void in a suit it does not hold)."""
    deal = deal_batch(1, int(rng.integers(1 << 30)))[0]
    gone = int(rng.integers(0, 7))  # tricks already played
    h = [int(x) for x in deal]
    for _ in range(gone):
        for s in range(4):
            cs = cards_of(h[s])
            h[s] ^= 1 << int(rng.choice(cs))
    seat = int(rng.integers(4))
    played_now = int(rng.integers(0, 4))  # seats after ``seat`` that already played this trick
    for i in range(1, played_now + 1):
        q = (seat - i) % 4
        h[q] ^= 1 << int(rng.choice(cards_of(h[q])))
    voids = np.zeros(4, dtype=np.int64)
    for q in range(4):
        if q != seat:
            for s in range(4):
                if not h[q] & int(SUIT_MASK[s]) and rng.random() < 0.7:
                    voids[q] |= 1 << s
    unknown = (h[0] | h[1] | h[2] | h[3]) & ~h[seat]
    sizes = np.array([bin(x).count("1") for x in h], dtype=np.int64)
    return seat, h[seat], unknown, sizes, voids, h


def test_samples_respect_knowledge():
    rng = np.random.default_rng(71)
    for t in range(60):
        seat, own, unknown, sizes, voids, true = _random_knowledge(rng)
        out = pimc.sample_hands(seat, own, unknown, sizes, voids, n=50, seed=t)
        played = int(DECK_32) & ~(true[0] | true[1] | true[2] | true[3])
        for hands in out:
            hs = [int(x) for x in hands]
            assert hs[seat] == own
            others = [q for q in range(4) if q != seat]
            assert sum(hs[q] for q in others) == unknown  # every unseen card, once, and nothing else
            for a, b in itertools.combinations(others, 2):
                assert hs[a] & hs[b] == 0
            for q in others:
                assert bin(hs[q]).count("1") == sizes[q]
                assert hs[q] & played == 0  # never a played card
                assert not any(voids[q] >> s & 1 for s in _suits(hs[q]))  # never a suit it showed out of


def test_sampling_is_uniform_over_consistent_layouts():
    # 6 unseen cards (3 spades, 2 hearts, 1 diamond) to E, S, W, 2 each; E void in spades
    seat = 0
    unknown = sum(1 << c for c in (8, 7, 6, 24, 23, 40))
    sizes = np.array([2, 2, 2, 2])
    voids = np.array([0, 1, 0, 0])
    cards = cards_of(unknown)
    layouts = []
    for assign in itertools.product((1, 2, 3), repeat=6):
        if any(assign.count(q) != 2 for q in (1, 2, 3)):
            continue
        if any(q == 1 and c >> 4 == 0 for c, q in zip(cards, assign)):
            continue
        layouts.append(assign)
    n = 24000
    out = pimc.sample_hands(seat, 1 << 32, unknown, sizes, voids, n=n, seed=3)
    counts = Counter(tuple(next(q for q in (1, 2, 3) if int(h[q]) >> c & 1) for c in cards) for h in out)
    assert set(counts) == set(layouts)
    expected = n / len(layouts)
    chi2 = sum((counts[lay] - expected) ** 2 / expected for lay in layouts)
    dof = len(layouts) - 1
    assert chi2 < dof + 5 * np.sqrt(2 * dof), (chi2, dof)


def test_sampling_reproducible():
    rng = np.random.default_rng(72)
    seat, own, unknown, sizes, voids, _ = _random_knowledge(rng)
    a = pimc.sample_hands(seat, own, unknown, sizes, voids, n=10, seed=5, index=2)
    b = pimc.sample_hands(seat, own, unknown, sizes, voids, n=10, seed=5, index=2)
    c = pimc.sample_hands(seat, own, unknown, sizes, voids, n=10, seed=5, index=3)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c) or bin(unknown).count("1") <= 2


def test_impossible_knowledge_refused():
    with pytest.raises(ValueError):  # the only unseen card is a spade, E (the only one with room) void in spades
        pimc.sample_hands(0, 1 << 16, 1 << 8, [1, 1, 0, 0], [0, 1, 0, 0])


# --- PIMC = DD when nothing is hidden ----------------------------------------------------------------


def test_pimc_equals_dd_on_last_trick():
    rng = np.random.default_rng(73)
    for i in range(40):
        deal = deal_batch(1, 100 + i)[0]
        h = np.array([1 << int(rng.choice(cards_of(int(x)))) for x in deal], dtype=np.uint64)
        leader, strain = i % 4, i % 5
        ntrick = i % 4
        trick = []
        for j in range(ntrick):
            q = (leader + j) % 4
            trick.append(int(h[q]).bit_length() - 1)
            h[q] = np.uint64(0)
        card, means = pimc.pimc_scores(h, leader, strain, trick, samples=K, seed=i)
        dd = midtrick.score_cards(h, leader, strain, trick)
        assert card == max(dd, key=lambda c: (dd[c], -c))  # one card left: the same card
        if ntrick == 3:  # every other card on the table: nothing hidden, the same scores
            assert means == {c: float(v) for c, v in dd.items()}


def test_pimc_equals_dd_when_voids_pin_every_card():
    # two tricks left; East has shown out of hearts and clubs, West of
    # clubs, South of hearts: N knows where every card is
    h = midtrick._parse_partial_deal("N:-.-.AK.- K9.-.-.- -.-.-.AK -.QJ.-.-")
    voids = {"E": "HC", "S": "H", "W": "C"}
    for seed in range(3):
        card, means = pimc.pimc_scores(h, 0, 4, (), voids=voids, samples=K, seed=seed)
        dd = midtrick.score_cards(h, 0, 4, ())
        assert means == {c: float(v) for c, v in dd.items()}


# --- whole deals -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def deals():
    d = deal_batch(8, 74)
    dec = np.arange(8) % 4
    strains = trump_by_rule(d[np.arange(8), dec])
    strains[3] = 4
    return d, dec, strains


def test_dd_players_realise_the_dd_value(deals):
    d, dec, strains = deals
    r = play_deals(d, dec, strains, declarer="dd", defenders="dd", rules=STANDARD)
    assert np.array_equal(r.declarer_points, api.dd_contracts(d, dec, strains))


def test_pimc_against_dd_is_bounded_by_the_dd_value(deals):
    d, dec, strains = deals
    dd = api.dd_contracts(d, dec, strains)
    a = play_deals(d, dec, strains, declarer="pimc", defenders="dd", samples=6, seed=1, rules=STANDARD)
    b = play_deals(d, dec, strains, declarer="dd", defenders="pimc", samples=6, seed=1, rules=STANDARD)
    assert np.all(a.declarer_points <= dd)  # best defence seeing all cards: at most the DD value
    assert np.all(b.declarer_points >= dd)


def _check_legal(r):
    for i, deal in enumerate(r.deals):
        hands = [int(x) for x in deal]
        plays = [int(c) for c in r.plays[i]]
        assert sorted(plays) == sorted(c for x in hands for c in cards_of(x))
        leader = int(r.declarers[i])
        ns = 0
        for t in range(8):
            trick = plays[4 * t: 4 * t + 4]
            for j, c in enumerate(trick):
                q = (leader + j) % 4
                assert hands[q] >> c & 1
                if j:
                    led = trick[0] >> 4
                    assert c >> 4 == led or not hands[q] & (0xFFFF << (16 * led))
                hands[q] ^= 1 << c
            w = 0
            for j in range(1, 4):
                if bits.beats(trick[j], trick[w], int(r.strains[i])):
                    w = j
            winner = (leader + w) % 4
            pts = 1 + 5 * (16 in trick) - 3 * (0 in trick)
            assert r.trick_ns[i, t] == (pts if winner % 2 == 0 else 0)
            ns += r.trick_ns[i, t]
            leader = winner
        assert ns == r.ns[i]


def test_pimc_play_is_legal_and_reproducible(deals):
    d, dec, strains = deals
    r1 = play_deals(d, dec, strains, samples=K, seed=9, threads=1, rules=STANDARD)
    _check_legal(r1)
    r2 = play_deals(d, dec, strains, samples=K, seed=9, threads=2, rules=STANDARD)
    assert np.array_equal(r1.plays, r2.plays)
    part = play_deals(d[5:7], dec[5:7], strains[5:7], samples=K, seed=9, start=5, rules=STANDARD)
    assert np.array_equal(part.plays, r1.plays[5:7])
    assert np.all((r1.declarer_points >= -2) & (r1.declarer_points <= 12))


def test_pimc_play_unchanged_by_search_changes():
    # A PIMC player's choice hangs on exact double-dummy values (sums over
    # its samples, ties to the lowest card), so any search change that stays
    # exact plays these deals card for card as before.  Recorded with the
    # solver before the ladder (c7c906d^) and after the mid-trick search
    # (kaiser_sim.dd.search.search_mid); a change here means a value changed.
    import hashlib

    r = play_deals(deal_batch(8, 7), [0, 1, 2, 3, 0, 1, 2, 3], [0, 1, 2, 3, 4, 0, 1, 4], samples=6, seed=11, rules=STANDARD)
    assert r.ns.tolist() == [4, 2, 0, 8, 2, 11, 7, 1]
    assert hashlib.sha256(r.plays.astype(np.int8).tobytes()).hexdigest()[:16] == "d0cfa2944489562d"



def test_shared_lead_is_the_groups_first_deals_lead_and_changes_nothing_else():
    # One hand at S in every deal (the advisor's own play): the opening lead
    # is decided once a group, on the group's first deal's layouts, and
    # played in the group; every later turn is the deal's own, so the first
    # deal and every deal whose own lead was that card play card for card as
    # without the option.
    hand = deal_batch(1, 5)[0, 2]
    d = deal_batch(12, 3, fixed={2: int(hand)})
    for strain in (0, 4):
        own = play_deals(d, np.full(12, 2), np.full(12, strain), samples=6, seed=1, rules=STANDARD)
        shared = play_deals(d, np.full(12, 2), np.full(12, strain), samples=6, seed=1, rules=STANDARD,
                            lead_group=12)
        _check_legal(shared)
        lead = own.plays[0, 0]
        assert (own.plays[:, 0] != lead).any()  # the deals' own leads differ: sharing is seen
        assert (shared.plays[:, 0] == lead).all()
        same = own.plays[:, 0] == lead
        assert np.array_equal(shared.plays[same], own.plays[same])
        assert np.array_equal(shared.ns[same], own.ns[same])
        # groups of 4 (deals 0, 4, 8 lead their own cards)
        four = play_deals(d, np.full(12, 2), np.full(12, strain), samples=6, seed=1, rules=STANDARD, lead_group=4)
        assert (four.plays[:, 0] == np.repeat(own.plays[[0, 4, 8], 0], 4)).all()
        # deals that give the declarer other cards play as without the option
        other = deal_batch(12, 3)
        assert np.array_equal(play_deals(other, np.full(12, 2), np.full(12, strain), samples=6, seed=1, rules=STANDARD,
                                         lead_group=12).plays,
                              play_deals(other, np.full(12, 2), np.full(12, strain), samples=6, seed=1,
                                         rules=STANDARD).plays)

# --- the dd-bias study and the play command ---------------------------------------------------------------


def test_dd_bias_study_tables():
    from kaiser_sim.rules import get_preset
    from kaiser_sim.studies import get_study
    from kaiser_sim.studies.common import results_run

    run_results = results_run(deal_batch(24, 75), seed=75)
    res = run_results.frame
    study = get_study("dd-bias")
    tables = study.run(run_results, get_preset("standard"), samples=4, min_cell=3, mixed=True)
    deals = tables["deals"]
    assert (deals["pimc_vs_dd_defence"] <= deals["dd"]).all() and (deals["dd_vs_pimc_defence"] >= deals["dd"]).all()
    assert list(tables["decomposition"]["n"]) == [24, 24, 24]
    dec, strains = study.contracts(res)
    assert np.array_equal(deals["dd"].to_numpy(), api.dd_contracts(res[["hand_N", "hand_E", "hand_S", "hand_W"]]
                                                                        .to_numpy(dtype=np.uint64), dec, strains))
    assert np.array_equal(deals["diff"], deals["pimc"] - deals["dd"])
    overall = tables["difference"].iloc[0]
    assert overall["n"] == 24 and overall["mean"] == pytest.approx(deals["diff"].mean())
    make = tables["make"].set_index("bid")
    for b in range(6, 13):
        assert make.loc[b, "p_dd"] == pytest.approx((deals["dd"] >= b).mean())
        assert make.loc[b, "p_pimc"] == pytest.approx((deals["pimc"] >= b).mean())
    assert tables["distribution"]["k"].sum() == 24
    assert set(tables["specials"]["card"]) == {"5H", "3S"}
    figs = study.plot(tables)
    assert figs and all(f.axes[0].get_title() for f in figs.values())

    from kaiser_sim.report import parse_studies  # the report's opt-in section

    blocks, text, charts = study.section(tables)
    assert len(blocks) == 3 and text and set(charts) <= set(figs)
    assert "dd-bias" not in parse_studies(None) and parse_studies("lead,dd-bias") == ["lead", "dd-bias"]


def test_play_command():
    from click.testing import CliRunner

    from kaiser_sim.cli import main

    deal = "N:AQJ.KT.9.A8 9.AJ.KJ7.Q9 KT.Q5.8.KT7 83.98.AQT.J"
    runner = CliRunner()
    r = runner.invoke(main, ["play", deal, "--strain", "H", "--leader", "N", "--samples", "4", "--seed", "1"])
    assert r.exit_code == 0, r.output
    assert "Double dummy: N-S" in r.output and "Result: N-S" in r.output
    assert sum(1 for line in r.output.splitlines() if line[:5].strip().isdigit()) == 8
    r = runner.invoke(main, ["play", deal, "--strain", "N", "--leader", "E", "--declarer", "dd", "--defenders", "dd",
                             "--format", "json"])
    assert r.exit_code == 0, r.output
    import json

    doc = json.loads(r.output)
    assert doc["result"] == doc["dd"] == api.solve(deal, 1, 4)
    assert all(t["dd"] == doc["dd"] for t in doc["tricks"])  # DD players never give anything away
    r = runner.invoke(main, ["play", "N:AQJ.KT.9.A8", "--strain", "H", "--leader", "N"])
    assert r.exit_code == 2 and "invalid deal" in r.output
    assert runner.invoke(main, ["play", "--help"]).exit_code == 0
