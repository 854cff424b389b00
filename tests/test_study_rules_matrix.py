"""Every study under every rules preset and option group (issue 44, item 2).

One small simulated run per rules set (module-scoped, shared by every study),
then:

- every study of ``kaiser-sim study --list`` runs on it, or refuses with its
  capability's one-line message (:mod:`kaiser_sim.strategy.capabilities`) and
  exit status 2, never a traceback;
- the 5H and 3S studies (:mod:`kaiser_sim.studies.specials`), whose re-solves
  must use the run's rules, keep three invariants under each rules set:

  * a card swapped with itself is worth exactly 0 (the "with" and "without"
    sides come from the same rules: before issue 44 the kitty presets gave
    nonzero worths here);
  * the like-for-like swap with partner is antisymmetric, exactly: swapping
    the card with partner's next card up turns deal D into D', and the worth
    of the card to the holder's side in D is minus its worth to the same side
    (now the partner holds it) in D', leader by leader.  It is not 0 deal by
    deal (the 5H's bonus goes to whoever wins the trick the 5H falls in, and
    the two partners play it in different tricks), but since D and D' are
    equally likely under every preset (seats are exchangeable), its mean
    over the roles is 0, as in the standard game;
  * the study's values agree with a direct solve of the contract through the
    rules-aware solver (:func:`kaiser_sim.game.contract_values`, an
    independent code path for both sides' points) on a few deals;
- under cover 3, the one accessor of a run's values
  (:func:`kaiser_sim.studies.common.run_points`) gives both sides' points as
  a direct solve through the door scores them, and a figure of every study
  that reads a run's values is recomputed from that direct solve.
"""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from kaiser_sim.cards import FIVE_HEARTS, THREE_SPADES
from kaiser_sim.cli import main
from kaiser_sim.game import contract_values, dd_table
from kaiser_sim.hands import trump_by_rule
from kaiser_sim.rules import get_preset, preset_names
from kaiser_sim.runs.results import load_run
from kaiser_sim.strategy.capabilities import CAPABILITIES, refusal
from kaiser_sim.studies import REGISTRY, study as declared
from kaiser_sim.studies import specials
from kaiser_sim.studies.common import StudyTables, hands_array, results_frame
from kaiser_sim.studies.runner import definition_for, run_study

STANDARD = get_preset("standard")
#: name -> (preset, overrides): every preset and the option groups no preset turns on
RULE_SETS = {**{name: (name, []) for name in preset_names()},
             "cover3": ("standard", ["cover3=true"]), "pass-cards": ("standard", ["pass_cards=2"])}
SEED = 5
#: deals of each run: a kitty is solved per deal in Python (about 0.4 s a deal), the rest in the parallel kernels
DEALS = {"kitty": 12, "other": 150}
#: re-solved deals of the 5H/3S studies
RESOLVE = {"kitty": 3, "other": 40}
#: small parameters for each study (the run's deals are few; the match studies play a match or two)
SMALL = {
    "bid-odds": {"min_cell": 1}, "bidding-chart": {"min_cell": 1}, "trump-and-nt": {"min_cell": 1},
    "auction": {"min_cell": 1}, "lead": {}, "five-hearts": {}, "three-spades": {},  # max_resolve: RESOLVE
    "hand-eval": {"holdout_deals": 0, "n_boot": 0},
    "dd-bias": {"samples": 2, "max_deals": 2, "min_cell": 1},
    "listening": {"matches": 1, "opponents": ["ev"]},
    "call-frequencies": {"deals": 100},
    "match": {"matches": 1, "policies": ["ev", "cautious"], "hands": 4, "grid_step": 50, "rules_matches": 1},
}
#: the study -> its capability in the table (the studies not listed play every rules set)
STUDY_CAPABILITY = {"listening": "match", "match": "match"}
#: the rules sets that change the deal or the play, run by default; the presets that change only the scoring
#: (tournament, no-45, short) and the PIMC study (dd-bias: its players compile on first use) run with -m slow
CHANGE_PLAY = ("standard", "kitty-34", "kitty-4", "low-nt", "cover3", "pass-cards")
SLOW_STUDIES = ("dd-bias",)


def _cells():
    for name in RULE_SETS:
        for study in SMALL:
            slow = name not in CHANGE_PLAY or study in SLOW_STUDIES
            yield pytest.param(name, study, id=f"{study}-{name}", marks=[pytest.mark.slow] if slow else [])


def rules_of(name: str):
    preset, overrides = RULE_SETS[name]
    return get_preset(preset).with_overrides(overrides)


def size(name: str, table) -> int:
    return table["kitty" if rules_of(name).kitty != "none" else "other"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """``runs(name) -> (path, RunResults)``: one small run per rules set, simulated on first use."""
    from kaiser_sim.runs.simulate import simulate

    made = {}

    def get(name):
        if name not in made:
            path = tmp_path_factory.mktemp("matrix") / name
            simulate(path, size(name, DEALS), SEED, mode="points", rules=rules_of(name), workers=1)
            made[name] = (path, load_run(path))
        return made[name]

    return get


def test_the_matrix_covers_every_study():
    assert set(SMALL) == {s.key for s in REGISTRY}
    assert set(STUDY_CAPABILITY.values()) <= set(CAPABILITIES)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


@pytest.mark.parametrize("name, study", list(_cells()))
def test_every_study_runs_or_refuses_in_one_line(runs, name, study, tmp_path):
    rules = rules_of(name)
    why = refusal(STUDY_CAPABILITY[study], rules) if study in STUDY_CAPABILITY else ""
    uses_results = declared(study).uses_results
    preset, overrides = RULE_SETS[name]
    params = dict(SMALL[study])
    if study in ("five-hearts", "three-spades"):
        params["max_resolve"] = size(name, RESOLVE)
    if why:  # refused: the table's message, exit status 2, nothing written
        args = ["study", study, "--rules", preset, *sum((["--rule", o] for o in overrides), []),
                "--out", str(tmp_path / "o"), "-q"]
        args += ["--from", str(runs(name)[0])] if uses_results else []
        for k, v in params.items():
            args += ["--param", f"{k}={v!r}".replace("'", '"')]
        r = CliRunner().invoke(main, args)
        assert r.exit_code == 2, r.output
        assert r.output.strip() == f"Error: {why}"
        assert not (tmp_path / "o").exists()
        return
    d = definition_for(study)
    d.params = params
    if uses_results:
        out = run_study(d, tmp_path / "o", results=runs(name)[1], rules=rules, write=False)
    else:
        out = run_study(d, tmp_path / "o", rules=rules, write=False)
    assert out.tables
    assert set(out.tables) <= set(declared(study).outputs), "a table its declaration does not name"


@pytest.mark.parametrize("study", [pytest.param(s, marks=[pytest.mark.slow] if s in SLOW_STUDIES else [])
                                   for s in SMALL])
def test_every_study_keeps_its_notes_and_footers_in_its_result_not_on_the_frames(runs, study, tmp_path):
    """Issue 44, item 5: a study's ``run`` gives a :class:`StudyTables`; each
    table's note, footer and run info are its ``meta(name)``, none on the
    DataFrame's ``attrs`` (which pandas copies or drops), and the files
    written print them (``NAME.md``: the note above the table, the footer
    under it)."""
    params = dict(SMALL[study])
    if study in ("five-hearts", "three-spades"):
        params["max_resolve"] = size("standard", RESOLVE)
    d = definition_for(study)
    d.params = params
    results = runs("standard")[1] if declared(study).uses_results else None
    out = run_study(d, tmp_path / "o", results=results, rules=STANDARD)
    tables = out.tables
    assert isinstance(tables, StudyTables)
    assert any(tables.meta(name).note for name in tables), "no table says what it holds"
    for name, df in tables.items():
        assert df.attrs == {}, name
        meta = tables.meta(name)
        assert meta.footer and meta.run["n"] > 0 and meta.run["rules"] == STANDARD.label, name
        text = (tmp_path / "o" / f"{name}.md").read_text(encoding="utf-8")
        assert f"_{meta.footer}_" in text and meta.note in text, name


def _direct(deal, kitty, leader: int, strain: int, holder: int, rules) -> int:
    """The holder's side's points in one contract, solved directly through the rules-aware door, cover 3
    included: a run's results hold the standard count under it, the studies' re-solves the points the sides
    score (before, the 5H/3S studies under cover 3 reported the standard count)."""
    decl, dfd = contract_values(deal[None, :], None if kitty is None else np.array([kitty]), [leader], [strain], rules)
    return int(decl[0] if (holder - leader) % 2 == 0 else dfd[0])


@pytest.mark.parametrize("name", list(RULE_SETS))
@pytest.mark.parametrize("card", [FIVE_HEARTS, THREE_SPADES], ids=["5H", "3S"])
def test_specials_invariants_under_the_rules(runs, name, card):
    rules = rules_of(name)
    if rules.pass_cards:
        pytest.skip("the 5H/3S studies read dealt hands; passing cards changes nothing they solve")
    results = runs(name)[1].frame
    m = size(name, RESOLVE)
    _, _, _, rec = specials.counterfactual(results, rules, card, receivers=("self", "partner"), max_resolve=m)

    # a card swapped with itself is worth exactly 0
    own = rec[rec["receiver"] == "self"]
    assert len(own) and (own["worth"] == 0).all()

    # the study's values agree with a direct solve through the door (two deals, every leader, trump by rule)
    sample = specials.sample_of(results, card, m)
    deals = hands_array(sample)
    kitties = specials.kitties_of(deals, rules)
    holder = specials.holder_of(deals, card)
    like = rec[(rec["receiver"] == "partner") & (rec["swap"] == specials.LIKE) & (rec["strain"] == "trump by rule")]
    checked = 0
    for i in range(len(sample)):
        rows = like[like["deal"] == sample["deal"].iloc[i]]
        if not len(rows) or checked == 2:
            continue
        checked += 1
        new, _ = specials.move_card(deals[i:i + 1], card, (holder[i:i + 1] + 2) % 4)
        kit = None if kitties is None else kitties[i]
        for _, r in rows.iterrows():
            L = int(r["leader"])
            assert r["with_card"] == _direct(deals[i], kit, L, int(trump_by_rule(deals[i:i + 1, L], "longest-strength")[0]),
                                             holder[i], rules)
            assert r["without_card"] == _direct(new[0], kit, L, int(trump_by_rule(new[:, L], "longest-strength")[0]),
                                                holder[i], rules)

    # the like-for-like swap with partner is antisymmetric: D -> D' and back, the same side, leader by leader
    if not len(like):
        return
    ids = like["deal"].unique()
    pos = np.flatnonzero(np.isin(sample["deal"].to_numpy(), ids))
    swapped, _ = specials.move_card(deals[pos], card, (holder[pos] + 2) % 4)
    kit = None if kitties is None else kitties[pos]
    pts = dd_table(swapped, rules, "points", kitties=kit)[:, :, :5]
    back = results_frame(swapped, points=pts)
    back["deal"] = sample["deal"].to_numpy()[pos]
    _, _, _, rec2 = specials.counterfactual(back, rules, card, receivers=("partner",), max_resolve=len(pos))
    rec2 = rec2[rec2["swap"] == specials.LIKE]
    key = ["deal", "leader", "strain"]
    a = rec[(rec["receiver"] == "partner") & (rec["swap"] == specials.LIKE)].set_index(key)["worth"]
    b = rec2.set_index(key)["worth"].reindex(a.index)
    assert len(a) and not b.isna().any()
    assert (a + b == 0).all()  # trump named by rule: the same from the two hands (the 5H/3S and the 8 count alike)


# --- cover 3: every study reads the points the sides score -------------------------------------------------


@pytest.fixture(scope="module")
def cover3_direct(runs):
    """``(leader's side, other side)`` (n, 4, 5) of the cover-3 run's deals: every leader and strain solved
    through the door one contract at a time (:func:`kaiser_sim.game.contract_values`, cover 3 scored), not
    read from the run."""
    deals = hands_array(runs("cover3")[1].frame)
    n = deals.shape[0]
    decl, dfd = contract_values(deals[np.repeat(np.arange(n), 20)], None, np.tile(np.repeat(np.arange(4), 5), n),
                                np.tile(np.arange(5), 4 * n), rules_of("cover3"))
    return decl.reshape(n, 4, 5), dfd.reshape(n, 4, 5)


@pytest.mark.parametrize("stored", ["points", "both"])
def test_a_runs_values_under_cover3_are_the_doors(runs, cover3_direct, stored):
    """The one accessor (:func:`kaiser_sim.studies.common.run_points`) gives both sides' points as a direct
    solve scores them under cover 3, from a points run (the tricks solved again) and from a run holding its
    tricks (``--mode both``, as a study's own run under cover 3); the standard count differs on some."""
    from kaiser_sim.runs.results import value_column
    from kaiser_sim.studies.common import points_array, run_points

    rules = rules_of("cover3")
    frame = runs("cover3")[1].frame.copy()
    if stored == "both":
        trk = dd_table(hands_array(frame), rules, "tricks")
        for L in range(4):
            for s in range(5):
                frame[value_column("tricks", L, s)] = trk[:, L, s].astype(np.int8)
    lead, other = run_points(frame, rules)
    assert np.array_equal(lead, cover3_direct[0]) and np.array_equal(other, cover3_direct[1])
    assert (points_array(frame, STANDARD) != lead).any()  # the run's standard count is not cover 3's


#: the studies that read a run's values; under cover 3 a figure of each from the direct solve
COVER3_STUDIES = ("bid-odds", "bidding-chart", "hand-eval", "lead", "trump-and-nt", "five-hearts", "three-spades",
                  "auction")


@pytest.mark.parametrize("study", COVER3_STUDIES)
def test_every_study_under_cover3_agrees_with_a_direct_solve(runs, cover3_direct, study, tmp_path):
    """Before, these studies read the run's standard count under cover 3 (a side with fewer than 3 tricks
    keeps its tricks and the 5H); each figure below is recomputed from :func:`cover3_direct`.  The auction
    study's values are its call chart's, computed under cover 3 from both sides' points (its figures are
    recomputed hand by hand in tests/test_cover3_auction.py).  Each figure but the auction's failed on the
    code before the accessor (it read the standard count)."""
    from kaiser_sim.studies.common import hand_score

    rules = rules_of("cover3")
    run = runs("cover3")[1]
    deals = hands_array(run.frame)
    n = deals.shape[0]
    lead, other = cover3_direct
    rows, seats = np.arange(n)[:, None], np.arange(4)[None, :]
    trump = trump_by_rule(deals, "longest-strength")  # (n, 4): each seat's trump as declarer
    trump_pts = lead[rows, seats, trump]  # the declaring side's points, trump by rule
    params = dict(SMALL[study])
    if study in ("five-hearts", "three-spades"):
        params["max_resolve"] = size("cover3", RESOLVE)
    d = definition_for(study)
    d.params = params
    out = run_study(d, tmp_path / "o", results=run, rules=rules, write=False).tables
    if study == "bid-odds":
        make = out["make"]
        for b in (rules.min_bid, 8):
            r = make[(make["method"] == "trump by rule") & (make["bid"] == b)].iloc[0]
            assert (r["k"], r["n"]) == ((trump_pts >= b).sum(), 4 * n)
    elif study == "bidding-chart":
        t = out["expected_by_strength"]
        for bid, nt, pts in (("6", False, trump_pts), ("8", False, trump_pts), ("8NT", True, lead[:, :, 4])):
            g = t[t["bid"] == bid]
            assert g["n"].sum() == 4 * n
            assert (g["n"] * g["mean"]).sum() == pytest.approx(hand_score(rules, int(bid[0]), nt, pts.ravel()).sum())
    elif study == "hand-eval":
        r = out["count_calibration"].set_index("count_band").loc["all"]
        assert r["n"] == 4 * n and r["points_mean"] == pytest.approx(trump_pts.mean())
    elif study == "lead":
        r = out["summary"].set_index("strain").loc["trump by rule"]
        lho = other[rows, (seats + 1) % 4, trump]  # the declaring side's points with its left-hand opponent on lead
        assert r["mean_on_lead"] == pytest.approx(trump_pts.mean()) and r["mean_lho_leads"] == pytest.approx(lho.mean())
    elif study == "trump-and-nt":
        r = out["trump_rules"].set_index("rule").loc["longest-strength"]
        assert r["mean_points"] == pytest.approx(trump_pts.mean())
    elif study in ("five-hearts", "three-spades"):
        card = FIVE_HEARTS if study == "five-hearts" else THREE_SPADES
        holder = specials.holder_of(deals, card)
        i = np.flatnonzero(holder >= 0)
        obs = out["observed"]
        pick = obs[(obs["receiver"] == "partner") & (obs["strain"] == "NT")].set_index("role")
        assert pick.loc["you declare", "mean_with"] == pytest.approx(lead[i, holder[i], 4].mean())
        defend = np.concatenate([other[i, (holder[i] + 1) % 4, 4], other[i, (holder[i] + 3) % 4, 4]])
        assert pick.loc["you defend", "mean_with"] == pytest.approx(defend.mean())
    else:  # auction: its values are the call chart's, computed under cover 3 (before issue 44's item, refused)
        from kaiser_sim.strategy.call_worth import cover3_words

        assert not refusal("call-chart", rules) and len(out["call_chart"])
        assert out.meta("call_chart").note.endswith(cover3_words(rules, out.meta("call_chart").extra["measure"]
                                                                 != "double dummy"))


@pytest.mark.parametrize("name", ["standard", "cover3"])
def test_a_studys_own_run_under_cover3_stores_its_tricks(name, tmp_path):
    """A study (or the report) that simulates its deals stores the tricks under cover 3 (``--mode both``):
    the accessor scores cover 3 from them instead of solving the deals again; the standard game's runs
    stay points-only."""
    from kaiser_sim.runs.results import value_column
    from kaiser_sim.runs.services import obtain_results

    got = obtain_results(None, 8, SEED, rules_of(name), tmp_path, workers=1)
    assert got.metadata["mode"] == ("both" if name == "cover3" else "points")
    assert (value_column("tricks", 0, 0) in got.frame) == (name == "cover3")
