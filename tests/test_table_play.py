"""Table play: play runs through the run engine, and the table-play model.

The play runs are checked for determinism (workers, chunks, resume); the
model against a known population (it must recover a transition it was
sampled from), for monotonicity, and the shipped model's stored held-out
check against its own numbers.
"""

from __future__ import annotations

import numpy as np
import pytest

import kaiser_sim
from kaiser_sim.strategy import table_play, table_play_build
from kaiser_sim.game import play_deals
from kaiser_sim.rules import STANDARD
from kaiser_sim.rules import get_preset
from kaiser_sim.runs.simulate import SimulateError, simulate
from kaiser_sim.runs.spec import play_contracts
from kaiser_sim.strategy.table_play import POINTS, TablePlayError, fit_kind, load_model
from kaiser_sim.strategy.table_play_build import fit_model

K = 3  # layouts a turn: enough to exercise the players, cheap enough for the suite


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    out = tmp_path_factory.mktemp("play") / "run"
    simulate(out, 40, 9, samples=K, chunk_size=15, workers=1)
    return out


def test_play_run_columns_and_contracts(played):
    df = kaiser_sim.load_results(played)
    assert list(df.columns[-4:]) == ["play_declarer", "play_strain", "play_dd", "play_pts"]
    hands = df[["hand_N", "hand_E", "hand_S", "hand_W"]].to_numpy(dtype=np.uint64)
    dec, strain = play_contracts(hands, df["deal"].to_numpy(), STANDARD)
    assert (df["play_declarer"] == dec).all() and (df["play_strain"] == strain).all()
    assert (dec == df["deal"] % 4).all() and (strain[df["deal"] % 3 == 2] == 4).all()
    # the stored DD value is the points table's entry for the contract
    pts = df[[f"pts_{s}_{t}" for s in "NESW" for t in ("S", "H", "D", "C", "NT")]].to_numpy().reshape(-1, 4, 5)
    assert (df["play_dd"].to_numpy() == pts[np.arange(len(df)), dec, strain]).all()
    # the played result is play_deals' on the same deals, independently
    r = play_deals(hands, dec, strain, samples=K, seed=9, start=0, rules=STANDARD)
    assert (df["play_pts"].to_numpy() == r.declarer_points).all()
    meta = kaiser_sim.runs.results.read_metadata(played)
    assert meta["play"]["samples"] == K and "deal % 4" in meta["play"]["contracts"]


def test_play_run_same_on_any_workers_chunks_and_resume(played, tmp_path):
    a = kaiser_sim.load_results(played)
    other = tmp_path / "b"
    simulate(other, 40, 9, samples=K, chunk_size=7, workers=2)
    assert kaiser_sim.load_results(other).equals(a)
    # a run that lost parts finishes with the same rows
    parts = sorted(other.glob("part-*.parquet"))
    for p in parts[1::2]:
        p.unlink()
    simulate(other, resume=True, workers=1)
    assert kaiser_sim.load_results(other).equals(a)
    with pytest.raises(SimulateError, match="--play"):
        simulate(other, resume=True, samples=K + 1)


def test_play_run_refuses_what_it_cannot_play(tmp_path):
    with pytest.raises(SimulateError, match="points table"):
        simulate(tmp_path / "t", 10, 1, samples=K, mode="tricks")
    assert not (tmp_path / "t").exists()  # (every preset plays: tests/test_pimc_variants.py)


def _population(rng, n, shift_p=(0.45, 0.35, 0.15, 0.05)):
    """DD values and table values drawn from a known model: table = DD - S,
    S in 0..3 with probabilities ``shift_p`` (clipped at -2)."""
    dd = rng.integers(-2, 13, n)
    s = rng.choice(4, n, p=shift_p)
    return dd, np.clip(dd - s, -2, 12)


def test_fit_recovers_a_known_population():
    rng = np.random.default_rng(3)
    p = (0.45, 0.35, 0.15, 0.05)
    dd, table = _population(rng, 60_000, p)
    prob, counts = fit_kind(dd, table)
    assert counts.sum() == dd.size
    for i, v in enumerate(POINTS):
        want = np.zeros(len(POINTS))
        for s, ps in enumerate(p):
            want[max(v - s, -2) + 2] += ps
        assert np.abs(prob[i] - want).max() < 0.025, v


def test_model_is_monotone_and_sums_to_one():
    rng = np.random.default_rng(5)
    # a noisy, non-monotone raw sample: few rows, some values missing
    dd = rng.integers(0, 11, 300)
    table = np.clip(dd - rng.integers(-1, 4, 300), -2, 12)
    table[dd == 5] = -2  # a DD value doing worse than its neighbours in the raw data
    prob, _ = fit_kind(dd, table, min_rows=20)
    assert np.allclose(prob.sum(axis=1), 1) and (prob >= 0).all()
    surv = prob[:, ::-1].cumsum(axis=1)[:, ::-1]
    assert (np.diff(surv, axis=0) >= -1e-12).all()  # P(table >= b | v) never falls as v rises
    assert (np.diff(prob @ POINTS, axis=0) >= -1e-12).all()  # nor the expected table points


def test_model_file_round_trip_and_rules(tmp_path):
    rng = np.random.default_rng(1)
    dd, table = _population(rng, 3000)
    nt = rng.random(3000) < 0.3
    m = fit_model(dd, table, nt, {"rules": {"hand_size": 8, "deck34": False, "kitty": "none", "low_nt": "off",
                                             "cover3": False}, "rules_label": "standard"})
    m.save(tmp_path / "m.json")
    back = table_play.TablePlayModel.load(tmp_path / "m.json")
    assert np.allclose(back.prob, m.prob, atol=1e-6)
    assert back.applies_to(get_preset("standard")) and not back.applies_to(get_preset("kitty-4"))
    with pytest.raises(TablePlayError, match="kitty"):
        back.check_rules(get_preset("kitty-4"))
    # the conversions agree with the distribution
    d = back.dist([8, 3], [False, True])
    assert np.allclose(back.expected([8, 3], [False, True]), d @ POINTS)
    assert np.allclose(back.make_prob([8, 3], [False, True], [6, 9]), [[d[0, 8:].sum(), d[0, 11:].sum()],
                                                                         [d[1, 8:].sum(), d[1, 11:].sum()]])
    (tmp_path / "bad.json").write_bytes(b"\xff\xfe not json")
    with pytest.raises(TablePlayError):
        table_play.TablePlayModel.load(tmp_path / "bad.json")


def test_validation_table_recomputed(played):
    df = kaiser_sim.load_results(played)
    nt = df["play_strain"].to_numpy() == 4
    m = fit_model(df["play_dd"], df["play_pts"], nt, {"rules": {}}, min_rows=5)
    v = table_play_build.validation_tables(m, df["play_dd"], df["play_pts"], nt, np.full(len(df), 6.0), [6, 8])
    row = next(r for r in v["heldout"] if r["kind"] == "all" and r["bid"] == 8)
    assert row["observed"] == pytest.approx((df["play_pts"] >= 8).mean())
    assert row["predicted"] == pytest.approx(m.make_prob(df["play_dd"], nt, [8])[:, 0].mean())


def test_shipped_model_and_its_held_out_check():
    m = load_model()
    p = m.provenance
    assert p["samples"] >= 10 and p["deals"] >= 5000 and p["holdout"]["seed"] not in table_play.fit_seeds(p)
    assert m.applies_to(get_preset("standard"))
    # monotone in expectation, for both kinds
    for nt in (False, True):
        assert (np.diff(m.expected(POINTS, nt)) >= -1e-9).all()
    # table play takes less than double dummy on average, by a plausible margin
    rows = m.validation["heldout"]
    allrow = next(r for r in rows if r["kind"] == "all" and r["bid"] == "mean points")
    assert -2.0 < allrow["observed"] - allrow["dd"] < -0.2
    # the stored held-out check: predictions inside the observed 95% intervals for most rows
    inside = [r["inside"] for r in rows if r["n"] >= 100]
    assert len(inside) >= 40 and np.mean(inside) >= 0.85


# --- the studies in table play ----------------------------------------------------------------

RULES = get_preset("standard")


@pytest.fixture(scope="module")
def solved():
    from kaiser_sim.deal import deal_batch
    from kaiser_sim.studies.common import results_run

    return results_run(deal_batch(160, 4), seed=4)  # a run's results: the frame and its seed


def test_bid_odds_and_bidding_chart_in_table_play_recomputed(solved):
    from kaiser_sim.auction import ladder
    from kaiser_sim.studies import bid_odds, bidding_chart
    from kaiser_sim.studies.common import declarer_frame, hand_score

    m = load_model()
    d = declarer_frame(solved.frame, STANDARD)
    make = bid_odds.run(solved, RULES)["make"]
    r = make[(make["method"] == "NT, table play") & (make["bid"] == 8)].iloc[0]
    band = table_play.band_index(d["strength"].to_numpy())  # the declaring hand's count band
    want = m.dist(d["nt_pts"].to_numpy(), True, band)[:, POINTS >= 8].sum(axis=1).mean()
    assert r["p"] == pytest.approx(want)
    # table play makes less often than double dummy at the usual bids (not a law deal by deal: PIMC
    # defenders err too, and at 11-12 a few hands take more in play than double dummy)
    dd = make[make["method"] == "NT"].set_index("bid")["p"]
    tp = make[make["method"] == "NT, table play"].set_index("bid")["p"]
    assert (tp.loc[6:10] < dd.loc[6:10]).all()
    t = bidding_chart.run(solved, RULES, min_cell=10)
    ex = t["expected_table_play"]
    row = ex.iloc[len(ex) // 2]
    bid = next(b for b in ladder(RULES) if str(b) == row["bid"])
    cell = d[(d["strength_bucket"] == row["strength"]) & (d["length_bucket"] == row["trump_len"])]
    pts = cell["nt_pts" if bid.nt else "trump_pts"].to_numpy()
    want = (m.dist(pts, bid.nt, table_play.band_index(cell["strength"].to_numpy()))
            @ hand_score(RULES, bid.level, bid.nt, POINTS)).mean()
    assert row["expected"] == pytest.approx(want) and row["n"] == len(cell)
    assert "table play" in t.meta("chart_table_play").footer


def test_specials_in_table_play_recomputed(solved):
    from kaiser_sim.cards import THREE_SPADES
    from kaiser_sim.studies import specials

    m = load_model()
    summary, _, _, rec = specials.counterfactual(solved.frame, RULES, THREE_SPADES, max_resolve=8)
    for role in ("you declare", "you defend"):
        g = rec[(rec["role"] == role) & (rec["strain"] == "NT")]
        w, wo = g["with_card"].to_numpy(), g["without_card"].to_numpy()
        if role == "you declare":  # the model is for the declaring side
            want = m.expected(w, True) - m.expected(wo, True)
        else:  # the defenders take what the declaring side does not
            want = m.expected(10 - wo, True) - m.expected(10 - w, True)
        assert g["tp_worth"].to_numpy() == pytest.approx(want)
    row = summary[(summary["role"] == "you declare") & (summary["strain"] == "NT")
                  & (summary["receiver"] == "partner") & (summary["swap"] == specials.LIKE)]
    if len(row):
        g = rec[(rec["role"] == "you declare") & (rec["strain"] == "NT") & (rec["receiver"] == "partner")
                & (rec["swap"] == specials.LIKE)]
        assert row.iloc[0]["tp_mean"] == pytest.approx(g["tp_worth"].mean())


def test_studies_use_the_rules_model_and_none_without_one(solved, monkeypatch):
    from kaiser_sim.studies import bid_odds, bidding_chart

    rules = get_preset("standard").replace(cover3=True)
    t = bid_odds.run(solved, rules)  # cover 3 has its own model
    assert t["make"]["method"].str.contains("table play").any()
    assert "chart_table_play" in bidding_chart.run(solved, rules)

    def broken(path=None, rules=None):
        raise TablePlayError("cannot read the table-play model x.json: broken")

    monkeypatch.setattr(table_play, "load_model", broken)
    t = bid_odds.run(solved, rules)
    assert not t["make"]["method"].str.contains("table play").any()
    assert "no table-play estimates" in t.meta("make").extra["table_play"]
    assert "chart_table_play" not in bidding_chart.run(solved, rules)


@pytest.mark.slow
def test_play_run_on_dask_gives_the_same_rows(played, tmp_path):
    pytest.importorskip("distributed")
    out = tmp_path / "dask"
    simulate(out, 40, 9, samples=K, chunk_size=15, workers=2, scheduler="local")
    assert kaiser_sim.load_results(out).equals(kaiser_sim.load_results(played))


def test_model_se_matches_the_spread_of_independent_fits():
    # the bootstrap standard error of an estimate from one fit is close to the
    # spread of that estimate over fits to independent samples of the same population
    rng = np.random.default_rng(12)
    dd_eval = rng.integers(2, 11, 2000)

    def estimate(model):
        return model.make_prob(dd_eval, False, [8])[:, 0].mean()

    def sample_fit(n):
        dd, table = _population(rng, n)
        return fit_model(dd, table, np.zeros(n, bool) | (np.arange(n) < 200), {"min_rows": 150})

    spread = np.std([estimate(sample_fit(3000)) for _ in range(30)], ddof=1)
    se = table_play.model_se(sample_fit(3000), estimate, n=60)
    assert 0.6 < se / spread < 1.6, (se, spread)
    assert table_play.model_se(sample_fit(30000), estimate, n=30) < 0.5 * se  # more contracts, less error


def test_joint_counts_refit_the_same_model():
    rng = np.random.default_rng(2)
    dd, table = _population(rng, 4000)
    p, c = fit_kind(dd, table)
    p2, c2 = table_play.fit_counts(table_play.joint_counts(dd, table))
    assert np.allclose(p, p2) and (c == c2).all()
    shipped = load_model()
    assert shipped.joint is not None and (shipped.joint.sum(axis=2) == shipped.counts).all()
    # the shipped probabilities are the fit of its own joint counts
    for kind in (0, 1):
        assert np.allclose(table_play.fit_counts(shipped.joint[kind])[0], shipped.prob[kind], atol=2e-6)


def test_restrict_moves_the_mass_outside_the_bounds_to_them():
    from kaiser_sim.strategy.table_play import restrict

    d = np.full((3, len(POINTS)), 1.0 / len(POINTS))
    lo, hi = np.array([-2, 4, 10]), np.array([12, 8, 10])
    r = restrict(d, lo, hi)
    assert np.allclose(r.sum(axis=1), 1.0) and (r >= 0).all()
    assert np.allclose(r[0], d[0])  # the widest bounds change nothing
    pts = POINTS[None, :]
    assert (r[1][(POINTS < 4) | (POINTS > 8)] == 0).all()
    assert r[1][POINTS == 4][0] == pytest.approx(7 / 15) and r[1][POINTS == 8][0] == pytest.approx(5 / 15)
    assert r[2][POINTS == 10][0] == pytest.approx(1.0)  # lo == hi: that value for sure
    # clipping keeps the order of distributions: more mass higher before, more after
    m = load_model()
    rows = restrict(m.dist(np.arange(-2, 13), False), 3, 9)
    surv = rows[:, ::-1].cumsum(axis=1)[:, ::-1]
    assert (np.diff(surv, axis=0) >= -1e-6).all() and (rows * pts).sum(axis=1).max() <= 9  # (the file: 6 decimals)


# --- the models of the other games (a kitty, low no trump, cover 3) ------------------------------------


def _variant_rules(name):
    preset, overrides = table_play.VARIANT_MODELS[name]
    return get_preset(preset).with_overrides(list(overrides))


@pytest.mark.parametrize("name", list(table_play.VARIANT_MODELS))
def test_each_variant_model_its_provenance_and_held_out_check(name):
    """The shipped model of each game: fitted on its own play (provenance),
    checked on held-out deals of another seed, where its predictions lie
    inside the played 95% intervals about as often as they should."""
    rules = _variant_rules(name)
    m = table_play.TablePlayModel.load(table_play.DATA_DIR / name)
    p = m.provenance
    assert m.play_key() == table_play.play_key(rules) and p["rules_full"]["kitty"] == rules.kitty
    assert p["samples"] >= 10 and p["deals"] >= 1000 and p["holdout"]["seed"] != p["seed"]
    assert p["rebuild"].startswith("kaiser-sim table-play-model --rules ")
    rows = m.validation["heldout"]
    inside = np.mean([r["inside"] for r in rows])
    assert len(rows) >= 16 and inside >= 0.8, inside
    overall = next(r for r in rows if r["kind"] == "all" and r["bid"] == "mean points")
    assert overall["inside"] and overall["n"] >= 300
    assert overall["observed"] < overall["dd"]  # players who cannot see take less than double dummy
    for nt in (False, True):
        assert (np.diff(m.expected(POINTS, nt)) >= -1e-9).all()
    if rules.kitty != "none":
        d = m.validation["discard"]
        # DD's best discard is the best there is on the real deal: the PIMC discard never beats it
        assert d["n"] == p["holdout"]["deals"] and 0 <= d["lo"] <= d["mean_loss"] <= d["hi"]
        assert d["mean_dd_best"] - d["mean_dd_pimc_discard"] == pytest.approx(d["mean_loss"])
        assert d["restriction_loss"]["mean"] <= d["mean_loss"]
    # the first fitting deals, played again, are among the model's fitting counts
    k = 2 if rules.kitty != "none" else 4
    s = table_play_build.play_sample(rules, k, p["seed"], p["samples"])
    for dd, t, nt in zip(s["dd"], s["played"], s["strain"] >= 4):
        assert m.joint[int(nt), dd - POINTS[0], t - POINTS[0]] > 0


def test_the_model_is_chosen_by_the_rules():
    std = load_model()
    assert load_model(rules=get_preset("standard")) is std and load_model(rules=get_preset("tournament")) is std
    for name in table_play.VARIANT_MODELS:
        rules = _variant_rules(name)
        path, note = table_play.model_file(rules)
        assert path.name == name and note == ""
        m = load_model(rules=rules)
        m.check_rules(rules)
        with pytest.raises(TablePlayError, match="change the play"):
            std.check_rules(rules)
        with pytest.raises(TablePlayError, match="table-play-model --rules"):
            m.check_rules(get_preset("standard"))
    # low NT as a choice plays as the bid does; a game no model is built for takes the nearest (the kitty first)
    assert table_play.model_file(get_preset("standard").replace(low_nt="choice"))[0].name == "table_play_model_low-nt.json"
    mixed = get_preset("kitty-4").replace(cover3=True)
    path, note = table_play.model_file(mixed)
    assert path.name == "table_play_model_kitty-4.json" and "cover 3" in note
    load_model(rules=mixed).check_rules(mixed)
    # a cover-3 value below -2 (the 3S and under 3 tricks) reads as -2
    m = load_model(rules=_variant_rules("table_play_model_cover3.json"))
    assert np.array_equal(m.dist(-3, False), m.dist(-2, False))


def test_add_pools_an_earlier_models_contracts(tmp_path):
    """``--add``: a model built on seed 13 plus an earlier one of seed 11 is
    the fit of both sets of played contracts (its joint counts are the sum),
    checked on seed 14's held-out deals; a model that cannot be pooled is
    refused before any deal is played."""
    kw = dict(deals=100, holdout=100, samples=K, sensitivity=0, workers=1)
    a = table_play_build.build_model(tmp_path / "a.json", seed=11, runs=tmp_path / "runs11", **kw)
    c = table_play_build.build_model(tmp_path / "c.json", seed=13, runs=tmp_path / "runs13", **kw)
    b = table_play_build.build_model(tmp_path / "b.json", seed=13, runs=tmp_path / "runs13", add=tmp_path / "a.json",
                                     **kw)
    assert (b.joint == a.joint + c.joint).all() and (b.counts == a.counts + c.counts).all()
    for kind in (0, 1):
        assert np.array_equal(b.prob[kind], table_play.fit_counts(a.joint[kind] + c.joint[kind])[0])
    p = load_model(tmp_path / "b.json").provenance
    assert p["deals"] == 200 and p["fit_seeds"] == [11, 13] and p["holdout"]["seed"] == 14
    assert [q["seed"] for q in p["parts"]] == [11, 13]
    assert table_play.seeds_text(p) == "seeds 11 and 13" and "seeds 11 and 13" in load_model(tmp_path / "b.json").describe()
    assert b.validation["heldout"]  # checked on this run's held-out deals
    # refused, with nothing played or written
    for seed, samples, words in ((11, K, "seed 11 too"), (10, K, "held-out"), (15, K + 1, "K")):
        with pytest.raises(TablePlayError, match=words):
            table_play_build.build_model(tmp_path / "x.json", seed=seed, add=tmp_path / "a.json",
                                         **{**kw, "samples": samples})
    with pytest.raises(TablePlayError, match="standard game only"):
        table_play_build.build_model(tmp_path / "x.json", seed=15, add=tmp_path / "a.json",
                                     rules=get_preset("low-nt"), **kw)
    with pytest.raises(TablePlayError, match="cannot read"):
        table_play_build.build_model(tmp_path / "x.json", seed=15, add=tmp_path / "nothing.json", **kw)
    assert not (tmp_path / "x.json").exists()


def test_add_names_the_option_when_its_file_is_no_model(tmp_path):
    """``--add FILE`` that is not a model, or cannot be read: the message
    names the option (the file alone does not say which of the command's
    files was wrong), and its path without saying it twice."""
    (tmp_path / "empty.json").write_text("{}")
    (tmp_path / "junk.json").write_text("xx")
    for name, words in (("empty.json", "not a kaiser-sim table-play model"), ("junk.json", "cannot read"),
                        ("missing.json", "cannot read")):
        path = tmp_path / name
        with pytest.raises(TablePlayError, match=words) as e:
            table_play_build.check_added_model(path, seed=15, samples=K)
        message = str(e.value)
        assert message.startswith("--add") and str(path) in message, message
        assert not message.startswith(f"--add {path}: cannot read the table-play model {path}"), message
