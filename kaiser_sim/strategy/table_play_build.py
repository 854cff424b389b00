"""The table-play model's builder: fitting :class:`~kaiser_sim.strategy.table_play.TablePlayModel`
from played deals, checking it on held-out ones, and the shipped files (``kaiser-sim table-play-model``).

:func:`fit_model` fits both strain kinds from played contracts; :func:`build_model`
plays the standard game's deals (``kaiser-sim simulate --play K``), fits, validates
(:func:`validation_tables`, :func:`sensitivity_table`) and saves the shipped model;
:func:`build_variant_model` does the same for the games whose play differs
(:data:`~kaiser_sim.strategy.table_play.VARIANT_MODELS`).  The model itself, its
loading and its use are in :mod:`kaiser_sim.strategy.table_play`.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from .. import __version__, config
from ..rules import STANDARD, Rules
from ..runs.spec import CONTRACTS, NT_EVERY, play_contracts  # noqa: F401  (the play runs' contract design)
from .table_play import (BAND_PSEUDO, BAND_ROWS, BANDS, MIN_ROWS, MODEL_FILE, PLAY_RULES, POINTS, TablePlayError,
                         TablePlayModel, band_index, fit_seeds, forget_loaded, joint_counts, play_key, rules_args)


def _rule_value(rules, key):
    """The value of the rules option ``key`` as the model's provenance stores it."""
    v = getattr(rules, key)
    return v if isinstance(v, (bool, int, str)) else str(v)


def fit_model(dd, table, nt, provenance: dict, min_rows: int = MIN_ROWS, added=None) -> TablePlayModel:
    """Fit both kinds from played contracts: ``dd``, ``table`` (the declaring
    side's DD and played points) and ``nt`` (no trump) per contract.
    ``added``: (2, 15, 15) joint counts of further played contracts (an
    earlier model's :attr:`~TablePlayModel.joint`) fitted together with
    them; the fit depends only on the counts, so a model fitted on two sets
    of deals this way is the model fitted on all of them at once."""
    nt = np.asarray(nt, dtype=bool)
    dd, table = np.asarray(dd), np.asarray(table)
    joint = np.stack([joint_counts(dd[nt == kind], table[nt == kind]) for kind in (False, True)])
    if added is not None:
        joint = joint + np.asarray(added, dtype=np.int64)
    return TablePlayModel.fit_joint(joint, None, provenance, min_rows)


def band_joint_counts(dd, table, nt, band) -> np.ndarray:
    """(2, 8, 15, 15) counts of (DD points, played points) by kind and the declaring hand's band."""
    nt, band = np.asarray(nt, dtype=bool), np.asarray(band, dtype=np.int64)
    dd, table = np.asarray(dd), np.asarray(table)
    return np.stack([np.stack([joint_counts(dd[(nt == kind) & (band == b)], table[(nt == kind) & (band == b)])
                               for b in range(len(BANDS))]) for kind in (False, True)])


def fit_band_model(fit: dict, provenance: dict, added=None, pseudo: float = BAND_PSEUDO,
                   min_rows: int = MIN_ROWS, band_rows: int = BAND_ROWS) -> TablePlayModel:
    """The model with bands from a banded play run ``fit``
    (:func:`load_band_run`).  Each band's rows from all its contracts (the
    strong bands played more often: given the band nothing is biased),
    shrunk toward the pooled rows tilted to the band
    (:meth:`TablePlayModel.fit_joint`, ``pseudo``).  The pooled rows: those
    of ``added`` (an earlier model, whose joint counts are of deals played
    as dealt: the shipped dd-only runs), unchanged; without ``added``,
    fitted on the run's ``natural`` contracts (a plain random share of the
    deals).  ``added``'s band counts (a banded model) are added to the
    run's: fitting a run with ``added`` = the fit of another run with the
    same ``added`` is fitting both runs at once (exact pooling).  ``added``
    may also be bare (2, 15, 15) joint counts."""
    nat = np.asarray(fit["natural"], dtype=bool)
    nt = np.asarray(fit["strain"]) >= 4
    dd, played = np.asarray(fit["dd"]), np.asarray(fit["played"])
    band = band_joint_counts(dd, played, nt, fit["band"])
    if isinstance(added, TablePlayModel):
        if added.band_joint is not None:
            band = band + added.band_joint
        added = added.joint
    if added is not None:
        joint = np.asarray(added, dtype=np.int64)
    else:
        joint = np.stack([joint_counts(dd[nat & (nt == kind)], played[nat & (nt == kind)]) for kind in (False, True)])
    return TablePlayModel.fit_joint(joint, band, {**provenance, "band_rows": int(band_rows)}, min_rows, pseudo,
                                    band_rows)


def check_added_model(path, seed: int, samples: int) -> TablePlayModel:
    """The earlier model ``path`` whose played contracts :func:`build_model`
    adds to its own (``--add``), refused (:class:`TablePlayError`) unless it
    can be pooled with a run of ``seed`` at K = ``samples``: a standard-game
    model with its joint counts, fitted by the same players, contract design,
    K and smallest row; none of its fitting deals among this run's (its
    fitting seeds differ from ``seed``), and this run's held-out deals
    (``seed + 1``) among none of the fitting deals."""
    from ..rules import Rules

    try:
        part = TablePlayModel.load(path)
    except TablePlayError as e:  # name the option: the message alone does not say which file was meant
        raise TablePlayError(f"--add: {e}" if str(path) in str(e) else f"--add {path}: {e}") from None
    p = part.provenance
    if part.joint is None:
        raise TablePlayError(f"--add {path}: the model keeps no joint counts of its played contracts; "
                             "rebuild it with this version")
    if part.play_key() != play_key(Rules.preset("standard")):
        raise TablePlayError(f"--add {path}: the model was fitted on {p.get('rules_label', 'other')} rules; "
                             "only models of the standard game can be added")
    clashes = [f"{what} {have!r} (this run: {want!r})" for what, have, want in
               (("players", p.get("players"), "pimc"), ("contracts", p.get("contracts"), CONTRACTS),
                ("K", p.get("samples"), samples), ("min_rows", p.get("min_rows"), MIN_ROWS)) if have != want]
    if clashes:
        raise TablePlayError(f"--add {path}: fitted differently: {'; '.join(clashes)}")
    seeds = fit_seeds(p)
    if seed in seeds:
        raise TablePlayError(f"--add {path}: it was fitted on seed {seed} too; give another --seed")
    if seed + 1 in seeds:
        raise TablePlayError(f"--add {path}: it was fitted on seed {seed + 1}, this run's held-out deals; "
                             "give another --seed")
    return part


# --- validation (run when the model is built; stored with it) -----------------------------------


#: bootstrap refits of the model behind each held-out check's ``model_se`` (:func:`validation_tables`)
VALIDATION_REPLICATES = 40


def check_row(observed, lo, hi, predicted, model_se) -> dict:
    """One held-out check (:func:`validation_tables`): ``inside`` = the
    prediction lies in the played interval ``[lo, hi]``; ``agrees`` =
    played minus predicted lies within 1.96 x the played side's error (read
    from its interval on the side of the prediction: Wilson intervals are
    not symmetric) and the model's own ``model_se`` added in quadrature."""
    from ..stats import Z95

    above = predicted > observed
    se_obs = ((hi - observed) if above else (observed - lo)) / Z95
    agrees = abs(observed - predicted) <= Z95 * float(np.hypot(se_obs, model_se))
    return {"predicted": float(predicted), "model_se": float(model_se), "inside": bool(lo <= predicted <= hi),
            "agrees": bool(agrees)}


def validation_tables(model: TablePlayModel, dd, table, nt, strength, levels, natural=None,
                      replicates: int = VALIDATION_REPLICATES) -> dict:
    """Predictions against played contracts the model was not fitted on: for
    each bid level and each strength band (trump and NT), the observed share
    making (Wilson 95%, one contract a deal) and the model's prediction
    given each contract's DD value, kind and (a model with bands) the
    declaring hand's band; ``inside`` = the prediction lies in the observed
    interval; ``pooled``: the prediction without the hand (the pooled rows,
    what a caller without the hand reads).  Also the mean points.
    ``natural``: the contracts that are a plain random share of all deals
    (a banded run, :func:`play_band_chunk`, plays the strong bands more
    often): the rows of all bands ("all") are over these only, so their
    mix of bands is the deals'.

    The model is itself an estimate from its fitting deals, so a prediction
    differs from the held-out play by the model's error as well as the
    held-out deals' sampling: ``model_se`` is the prediction's standard
    error over ``replicates`` bootstrap refits of the model
    (:meth:`TablePlayModel.replicates`, the error every study adds to its
    intervals; 0 without joint counts or with ``replicates`` 0), and
    ``agrees`` says that played minus predicted lies within 1.96 times
    the two errors added in quadrature (the played side's error read from
    its interval on the side of the prediction).  ``inside`` ignores the
    model's error: with a model fitted on few contracts of a band it fails
    more often than 5% even for an unbiased model."""
    from ..hands import STRENGTH_BUCKETS
    from ..stats import mean_ci, wilson_interval

    dd, table = np.asarray(dd), np.asarray(table)
    nt = np.asarray(nt, dtype=bool)
    strength = np.asarray(strength, dtype=np.float64)
    band = band_index(strength)
    every = np.ones(dd.size, bool) if natural is None else np.asarray(natural, dtype=bool)
    reps = model.replicates(int(replicates)) if replicates else []
    rows = []
    groups = [("all", "all", every)]
    for kind in (False, True):
        groups.append(("NT" if kind else "trump", "all", every & (nt == kind)))
    for label, lo, hi in STRENGTH_BUCKETS:
        for kind in (False, True):
            groups.append(("NT" if kind else "trump", label, (nt == kind) & (strength >= lo) & (strength <= hi)))

    for kind, label, sel in groups:
        n = int(sel.sum())
        if n < 30:
            continue
        b_sel = band[sel] if model.banded else None
        pred = model.make_prob(dd[sel], nt[sel], levels, b_sel).mean(axis=0)
        pooled = model.make_prob(dd[sel], nt[sel], levels).mean(axis=0)
        e = float(model.expected(dd[sel], nt[sel], b_sel).mean())
        if reps:  # the same predictions from each bootstrap refit of the model
            rp = np.stack([r.make_prob(dd[sel], nt[sel], levels, b_sel).mean(axis=0) for r in reps])
            re = np.array([float(r.expected(dd[sel], nt[sel], b_sel).mean()) for r in reps])
            se_p, se_e = rp.std(axis=0, ddof=1), float(re.std(ddof=1))
        else:
            se_p, se_e = np.zeros(len(levels)), 0.0
        for j, b in enumerate(levels):
            k = int((table[sel] >= b).sum())
            lo, hi = wilson_interval(k, n)
            rows.append({"kind": kind, "count_band": label, "bid": int(b), "n": n, "observed": k / n, "lo": lo,
                         "hi": hi, **check_row(k / n, lo, hi, pred[j], se_p[j]), "pooled": float(pooled[j]),
                         "dd": float((dd[sel] >= b).mean())})
        m = mean_ci(table[sel])
        rows.append({"kind": kind, "count_band": label, "bid": "mean points", "n": n, "observed": m.mean,
                     "lo": m.lo, "hi": m.hi, **check_row(m.mean, m.lo, m.hi, e, se_e),
                     "pooled": float(model.expected(dd[sel], nt[sel]).mean()), "dd": float(dd[sel].mean())})
    return {"heldout": rows}


def validation_summary(rows) -> dict:
    """How many of the held-out checks (:func:`validation_tables` rows) have
    the prediction inside the played interval, of the band rows' mean points
    too, and the same for the pooled (hand-blind) prediction; ``agree``
    and ``band_means_agree``: how many agree with the play within the
    held-out deals' and the model's own error together (rows without
    ``agrees``, from files written before it was kept, count as their
    ``inside``)."""
    rows = [r for r in rows]
    means = [r for r in rows if r["bid"] == "mean points" and r["count_band"] != "all"]
    pooled_in = sum(1 for r in rows if "pooled" in r and r["lo"] <= r["pooled"] <= r["hi"])
    return {"checks": len(rows), "inside": sum(bool(r["inside"]) for r in rows),
            "band_means": len(means), "band_means_inside": sum(bool(r["inside"]) for r in means),
            "pooled_inside": pooled_in, "agree": sum(bool(r.get("agrees", r["inside"])) for r in rows),
            "band_means_agree": sum(bool(r.get("agrees", r["inside"])) for r in means)}


# --- building the shipped model -------------------------------------------------------------------

#: defaults of :func:`build_model` (``kaiser-sim table-play-model``)
BUILD_DEALS = 8000
BUILD_HOLDOUT = 2000
BUILD_SEED = 101
BUILD_SENSITIVITY = 400


def _played(path):
    from ..hands import strength, trump_by_rule
    from ..runs.results import load_results

    df = load_results(path)
    hands = df[["hand_N", "hand_E", "hand_S", "hand_W"]].to_numpy(dtype=np.uint64)
    dec = df["play_declarer"].to_numpy(dtype=np.int64)
    strain = df["play_strain"].to_numpy(dtype=np.int64)
    own = hands[np.arange(len(df)), dec]
    trump = np.where(strain == 4, trump_by_rule(own), strain)
    return df, hands, dec, strain, strength(own, trump)


def sensitivity_table(hands, dec, strain, dd, table, deal_ids, seed: int, samples: int, levels=(8, 10)) -> list[dict]:
    """The played points' sensitivity to K and to the players, on the same
    deals: PIMC with 2K layouts, a PIMC declaring side against double-dummy
    defenders and the converse, each against the PIMC-at-K result (paired
    differences, one contract a deal: iid 95% intervals)."""
    from ..game import play_deals
    from ..rules import STANDARD
    from ..stats import mean_ci

    ids = np.asarray(deal_ids, dtype=np.int64)
    start = int(ids[0])
    if not np.array_equal(ids, np.arange(start, start + len(ids))):
        raise TablePlayError("sensitivity needs consecutive deals")
    rows = []
    base = np.asarray(table, dtype=np.float64)
    variants = [(f"PIMC, K = {2 * samples} (both sides)", dict(samples=2 * samples)),
                ("PIMC declarer vs DD defenders", dict(samples=samples, defenders="dd")),
                ("DD declarer vs PIMC defenders", dict(samples=samples, declarer="dd"))]
    rows.append({"players": f"PIMC, K = {samples} (the model's)", "n": len(ids), "mean_points": float(base.mean()),
                 "minus_model_players": 0.0, "lo": 0.0, "hi": 0.0,
                 **{f"make_{b}": float((base >= b).mean()) for b in levels}})
    for label, kw in variants:
        r = play_deals(hands, dec, strain, seed=seed, start=start, rules=STANDARD, **kw).declarer_points.astype(np.float64)
        d = mean_ci(r - base)
        rows.append({"players": label, "n": len(ids), "mean_points": float(r.mean()), "minus_model_players": d.mean,
                     "lo": d.lo, "hi": d.hi, **{f"make_{b}": float((r >= b).mean()) for b in levels}})
    dd = np.asarray(dd, dtype=np.float64)
    d = mean_ci(dd - base)
    rows.append({"players": "double dummy (all four see every card)", "n": len(ids), "mean_points": float(dd.mean()),
                 "minus_model_players": d.mean, "lo": d.lo, "hi": d.hi,
                 **{f"make_{b}": float((dd >= b).mean()) for b in levels}})
    return rows


def _inside(path: Path, where: Path) -> bool:
    """Is ``path`` the same as ``where`` or inside it?"""
    return path == where or where in path.parents


def check_build_paths(out, runs=None, deals: int = BUILD_DEALS, holdout: int = BUILD_HOLDOUT, seed: int = BUILD_SEED,
                      samples: int = config.PIMC_SAMPLES, rules: Rules = STANDARD) -> None:
    """What :func:`build_model` checks before it plays a deal
    (:class:`TablePlayError`): the model file ``out`` can be written (its
    directory created; an existing one is a regular file, never a device
    or a directory; it is not inside a results dataset); the directory
    ``runs`` (if given) can be created and written and is not inside a
    results dataset; neither path is the other or lies inside the other's
    runs; and a play run already in ``runs/fit`` or ``runs/holdout`` can be
    resumed with these options.  Leaves nothing behind."""
    from ..runs.results import check_output

    if not str(out).strip():
        raise TablePlayError("the model file name is empty")
    try:
        check_output(out, file=True)
    except OSError as e:
        raise TablePlayError(f"cannot write the table-play model {out}: {e.strerror or e}") from None
    if runs is None:
        return
    if not str(runs).strip():
        raise TablePlayError("the directory of the play runs is empty: give a path")
    try:
        check_output(runs)  # (it may hold the runs fit/ and holdout/, not lie in one)
    except OSError as e:
        raise TablePlayError(f"cannot keep the play runs in {runs}: {e.strerror or e}") from None
    o, r = Path(os.path.realpath(out)), Path(os.path.realpath(runs))
    if _inside(r, o):
        raise TablePlayError(f"the play runs {runs} would be inside the model file {out}")
    for name, n, s in (("fit", deals, seed), ("holdout", holdout, seed + 1)):
        if _inside(o, r / name):
            raise TablePlayError(f"the model file {out} would be in the play run {Path(runs) / name}")
        _check_play_run(Path(runs) / name, n, s, samples, rules)


def _check_play_run(path: Path, deals: int, seed: int, samples: int, rules) -> None:
    """Can :func:`build_model` start, or resume, a play run in ``path``?"""
    from ..runs import results as res
    from ..runs.spec import RunSpec

    try:
        if not path.exists():
            return
        if not path.is_dir():
            raise TablePlayError(f"{path} is a file; the play run goes there (a directory)")
        names = sorted(os.listdir(path))
    except OSError as e:
        raise TablePlayError(f"cannot use the play run {path}: {e.strerror or e}") from None
    foreign = [n for n in names if not res.is_dataset_file(n)]
    if foreign:
        raise TablePlayError(f"{path} holds files that are not kaiser-sim results ({', '.join(foreign[:5])}); "
                             "the play run goes there: give another --runs directory")
    if res.COMMON_METADATA not in names:
        if any(res.is_part_file(n) for n in names):
            raise TablePlayError(f"{path} holds results without their run metadata: it cannot be resumed")
        return
    try:
        spec = RunSpec.from_metadata(res.read_metadata(path))
    except (ValueError, KeyError, TypeError) as e:
        raise TablePlayError(f"cannot resume the play run {path}: {e}") from None
    clashes = [f"{what} {want} (the run has {have})" for what, want, have in
               (("deals", deals, spec.deals), ("seed", seed, spec.seed), ("samples", samples, spec.samples))
               if want != have]
    if rules is not None and rules != spec.rules:
        clashes.append(f"rules {rules.label} (the run has {spec.rules.label})")
    if clashes:
        raise TablePlayError(f"cannot resume the play run {path} with other options: {'; '.join(clashes)}; "
                             "give the options it was started with, or another --runs directory")


def build_model(out=MODEL_FILE, deals: int = BUILD_DEALS, holdout: int = BUILD_HOLDOUT, seed: int = BUILD_SEED,
                samples: int = config.PIMC_SAMPLES, sensitivity: int = BUILD_SENSITIVITY, runs=None, workers=None,
                progress=None, rules: Rules = STANDARD, add=None) -> TablePlayModel:
    """Play ``deals`` deals of ``seed`` (``simulate --play samples``) and fit
    the model on them (with ``add``, the path of an earlier model of the
    standard game, on its played contracts too: :func:`check_added_model`,
    :func:`fit_model`); play ``holdout`` deals of ``seed + 1`` and check it
    on them (:func:`validation_tables`); replay the first ``sensitivity``
    held-out deals with other K and players (:func:`sensitivity_table`);
    write it all to ``out``.  ``runs``: keep the two play runs in this
    directory (``runs/fit``, ``runs/holdout``; resumed if there), else a
    temporary one.  The paths are checked before any deal is played
    (:func:`check_build_paths`).  ``rules``: rules that change the play (a
    kitty, low no trump, cover 3) build that game's model instead
    (:func:`build_variant_model`; ``runs``, ``workers`` and ``sensitivity``
    do not apply there)."""
    import tempfile
    import time

    from ..rules import Rules
    from ..runs.simulate import simulate

    # (None: the command line's word for the standard game's model, kept as before)
    if rules is not None and play_key(rules) != play_key(Rules.preset("standard")):
        if add is not None:
            raise TablePlayError("--add pools played contracts of the standard game only")
        return build_variant_model(rules, out, deals, holdout, seed, samples, progress)

    for name, v, least in (("deals", deals, 100), ("holdout", holdout, 100), ("seed", seed, 0),
                           ("samples", samples, 1), ("sensitivity", sensitivity, 0)):
        if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < least:
            raise TablePlayError(f"{name} must be a whole number >= {least} (got {v!r})")
    if sensitivity > holdout:
        raise TablePlayError("sensitivity deals are taken from the held-out deals: at most --holdout")
    rules = Rules.preset("standard")
    check_build_paths(out, runs, deals, holdout, seed, samples, rules)
    part = check_added_model(add, seed, samples) if add is not None else None
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="kaiser-sim-table-play-") as tmp:
        base = Path(runs) if runs is not None else Path(tmp)
        paths = {}
        for name, n, s in (("fit", deals, seed), ("holdout", holdout, seed + 1)):
            paths[name] = base / name
            exists = (paths[name] / "_common_metadata").exists()
            simulate(paths[name], n, s, rules=rules, samples=samples, workers=workers, progress=progress,
                     resume=exists)
        df, hands, dec, strain, strength_fit = _played(paths["fit"])
        provenance = {"seed": int(seed), "deals": int(deals), "samples": int(samples), "players": "pimc",
                      "contracts": CONTRACTS, "rules": {k: _rule_value(rules, k) for k in PLAY_RULES},
                      "rules_label": rules.label, "version": __version__, "min_rows": MIN_ROWS,
                      "holdout": {"seed": int(seed) + 1, "deals": int(holdout)},
                      "rebuild": f"kaiser-sim table-play-model --deals {deals} --holdout {holdout} --seed {seed} "
                                 f"--samples {samples}"}
        if part is not None:
            pp = part.provenance
            provenance.update(
                deals=int(deals) + int(pp.get("deals", 0)), fit_seeds=fit_seeds(pp) + [int(seed)],
                parts=pp.get("parts", [{"seed": int(pp.get("seed")), "deals": int(pp.get("deals", 0))}])
                + [{"seed": int(seed), "deals": int(deals)}],
                rebuild=f"{pp.get('rebuild')} --out PART.json, then {provenance['rebuild']} --add PART.json")
        model = fit_model(df["play_dd"].to_numpy(), df["play_pts"].to_numpy(), strain == 4, provenance,
                          added=None if part is None else part.joint)
        ho, h_hands, h_dec, h_strain, h_strength = _played(paths["holdout"])
        levels = list(range(rules.min_bid, 13))
        model.validation = validation_tables(model, ho["play_dd"].to_numpy(), ho["play_pts"].to_numpy(),
                                             h_strain == 4, h_strength, levels)
        if sensitivity:
            k = int(sensitivity)
            model.validation["sensitivity"] = sensitivity_table(
                h_hands[:k], h_dec[:k], h_strain[:k], ho["play_dd"].to_numpy()[:k], ho["play_pts"].to_numpy()[:k],
                ho["deal"].to_numpy()[:k], seed + 1, samples)
        model.provenance["seconds"] = round(time.perf_counter() - t0, 1)
        model.save(out)
    forget_loaded()
    return model


#: build sizes of the shipped variant models (fit deals, held-out deals), fitted to a busy 2-core machine
VARIANT_DEALS = 2000
VARIANT_HOLDOUT = 500


def play_sample(rules, deals: int, seed: int, samples: int, start: int = 0, progress=None, block: int = 40) -> dict:
    """Deals ``start .. start+deals-1`` of ``seed`` under ``rules`` (weak
    hands redealt as the rules say), one contract a deal (:func:`play_contracts`
    with the rules: low no trump on every other NT deal where it is played),
    each solved double dummy under the rules
    (:func:`kaiser_sim.game.contract_values`: the best discard
    with a kitty, cover 3 applied) and played out by four PIMC players with
    ``samples`` layouts a turn (:func:`kaiser_sim.game.play_deals` with
    the rules: a PIMC declarer takes the kitty and discards).  Returns
    arrays: ``hands``, ``kitties``, ``declarer``, ``strain``, ``dd``,
    ``played`` (declaring side's raw points; a cover-3 -3 is counted as -2,
    the model's lowest: both fail every bid), ``discards``, ``strength``
    (the declarer's count with its trump)."""
    from ..deal import deal_for_rules
    from ..game import contract_values, play_deals
    from ..hands import strength, trump_by_rule

    hands, kitties = deal_for_rules(deals, seed, rules, start=start, redeal_weak=True)
    ids = np.arange(start, start + deals)
    dec, strain = play_contracts(hands, ids, rules)
    dd = np.zeros(deals, np.int64)
    played = np.zeros(deals, np.int64)
    discards = np.zeros(deals, np.uint64)
    if progress is not None:
        progress.start(deals)
    for a in range(0, deals, block):
        sl = slice(a, min(a + block, deals))
        dd[sl] = contract_values(hands[sl], kitties[sl], dec[sl], strain[sl], rules)[0]
        r = play_deals(hands[sl], dec[sl], strain[sl], samples=samples, seed=seed, start=start + a, rules=rules,
                       kitties=kitties[sl])
        played[sl] = r.declarer_points
        discards[sl] = r.discards
        if progress is not None:
            progress.advance(sl.stop - sl.start)
    if progress is not None:
        progress.finish()
    own = hands[np.arange(deals), dec]
    trump = np.where(strain >= 4, trump_by_rule(own), strain)
    return {"hands": hands, "kitties": kitties, "declarer": dec, "strain": strain,
            "dd": np.clip(dd, POINTS[0], POINTS[-1]), "played": np.clip(played, POINTS[0], POINTS[-1]),
            "discards": discards, "strength": strength(own, trump)}


def discard_check(sample: dict, rules) -> dict:
    """The PIMC declarer's kitty discard against double dummy's best, on
    played deals: the declaring side's double-dummy points after the PIMC
    discard (the real deal) and with the best discard
    (:func:`kaiser_sim.game.values.kitty_dd_value`).  Cover 3 is not
    applied here (the discard is compared in the standard count)."""
    from ..game import dd_contracts, discard_candidates, kitty_dd_value, play_view
    from ..stats import mean_ci, wilson_interval

    hands, kit, dec, st, disc = (sample[k] for k in ("hands", "kitties", "declarer", "strain", "discards"))
    n = len(dec)
    from ..cards import FIVE_HEARTS, THREE_SPADES

    after = np.zeros(n, np.int64)
    best = np.zeros(n, np.int64)
    best_cand = np.zeros(n, np.int64)
    counts = rules.kitty_discard_points == "declarer"
    for i in range(n):
        h = hands[i].copy()
        d = int(dec[i])
        h[d] = (h[d] | kit[i]) & ~np.uint64(disc[i])
        low = int(st[i]) == 5
        v, five, three = play_view(h, rules, low)
        off = 0
        if counts:
            off = (5 if int(disc[i]) >> FIVE_HEARTS & 1 else 0) - (3 if int(disc[i]) >> THREE_SPADES & 1 else 0)
        after[i] = int(dd_contracts(v[None, :], [d], [4 if low else int(st[i])], rules, "points", threads=1, five=five,
                                    three=three)[0]) + off
        best[i] = kitty_dd_value(hands[i], kit[i], d, int(st[i]), rules, "points")
        # the best of the PIMC declarer's own candidates on the real deal: what the restriction to them costs
        full = hands[i].copy()
        full[d] |= kit[i]
        fv, five, three = play_view(full, rules, low)
        cands = discard_candidates(int(fv[d]), bin(int(kit[i])).count("1"), int(five), int(three),
                                   rules.may_discard_specials)
        pos = np.repeat(fv[None, :], len(cands), axis=0)
        pos[:, d] = [int(fv[d]) & ~c for c in cands]
        vals = dd_contracts(pos, np.full(len(cands), d), np.full(len(cands), 4 if low else int(st[i])), rules, "points",
                            threads=1, five=five, three=three).astype(np.int64)
        if counts:
            vals += np.array([(5 if c & int(five) else 0) - (3 if c & int(three) else 0) for c in cands])
        best_cand[i] = vals.max()
    loss = mean_ci(best - after)
    restricted = mean_ci(best - best_cand)
    same = int((best == after).sum())
    lo, hi = wilson_interval(same, n)
    return {"question": "double-dummy points the PIMC declarer's discard gives up against double dummy's best "
                        "discard (same deals, the real hands)",
            "n": n, "mean_loss": loss.mean, "lo": loss.lo, "hi": loss.hi, "share_as_good": same / n,
            "share_lo": lo, "share_hi": hi, "mean_dd_best": float(best.mean()), "mean_dd_pimc_discard":
            float(after.mean()), "discard_samples": config.PIMC_DISCARD_SAMPLES,
            "restriction_loss": {"question": "double-dummy points lost by considering only the PIMC declarer's "
                                             "candidate discards (the lowest cards of each suit), the best of them "
                                             "chosen double dummy", "mean": restricted.mean, "lo": restricted.lo,
                                 "hi": restricted.hi}}


def build_variant_model(rules, out, deals: int = VARIANT_DEALS, holdout: int = VARIANT_HOLDOUT, seed: int = BUILD_SEED,
                        samples: int = config.PIMC_SAMPLES, progress=None) -> TablePlayModel:
    """The model of a game whose play differs from the standard one (a
    kitty, low no trump, cover 3): fitted on ``deals`` deals of ``seed``
    played under ``rules`` (:func:`play_sample`), checked on ``holdout``
    deals of ``seed + 1`` (:func:`validation_tables`; with a kitty also the
    PIMC discard against double dummy's best, :func:`discard_check`);
    written to ``out`` with its provenance.  No sensitivity table (its cost
    is the model's twice over)."""
    import time

    for name, v, least in (("deals", deals, 100), ("holdout", holdout, 100), ("seed", seed, 0),
                           ("samples", samples, 1)):
        if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < least:
            raise TablePlayError(f"{name} must be a whole number >= {least} (got {v!r})")
    check_build_paths(out)
    t0 = time.perf_counter()
    fit = play_sample(rules, deals, seed, samples, progress=progress)
    from ..rules import preset_of

    name = preset_of(rules)
    rule_args = f"--rules {name}" if name else "--rules " + rules_args(rules)
    provenance = {"seed": int(seed), "deals": int(deals), "samples": int(samples), "players": "pimc",
                  "discard_samples": config.PIMC_DISCARD_SAMPLES if rules.kitty != "none" else None,
                  "contracts": _contracts_text(rules), "rules": {k: _rule_value(rules, k) for k in PLAY_RULES},
                  "rules_full": rules.to_dict(), "rules_label": rules.label, "version": __version__,
                  "min_rows": MIN_ROWS, "holdout": {"seed": int(seed) + 1, "deals": int(holdout)},
                  "rebuild": f"kaiser-sim table-play-model {rule_args} --deals {deals} --holdout {holdout} "
                             f"--seed {seed} --samples {samples}"}
    model = fit_model(fit["dd"], fit["played"], fit["strain"] >= 4, provenance)
    ho = play_sample(rules, holdout, seed + 1, samples, progress=progress)
    levels = list(range(rules.min_bid, 13))
    model.validation = validation_tables(model, ho["dd"], ho["played"], ho["strain"] >= 4, ho["strength"], levels)
    if rules.low_nt != "off":
        low = ho["strain"] == 5
        model.validation["low_nt"] = validation_tables(model, ho["dd"][low], ho["played"][low], np.ones(low.sum(), bool),
                                                       ho["strength"][low], levels)["heldout"]
    if rules.kitty != "none":
        model.validation["discard"] = discard_check(ho, rules)
    model.provenance["seconds"] = round(time.perf_counter() - t0, 1)
    model.save(out)
    forget_loaded()
    return model


def _contracts_text(rules) -> str:
    from ..runs.spec import contracts_text

    return contracts_text(rules)



__all__ = ["fit_band_model", "band_joint_counts", "build_band_model", "play_band_chunk", "load_band_run",
           "validation_summary", "check_row", "VALIDATION_REPLICATES", "BAND_ACCEPT", "BAND_CHUNK", "CONTRACTS", "play_contracts", "fit_model", "validation_tables", "sensitivity_table", "build_model",
           "check_build_paths", "build_variant_model", "play_sample", "discard_check", "BUILD_DEALS", "BUILD_HOLDOUT",
           "BUILD_SEED", "BUILD_SENSITIVITY", "VARIANT_DEALS", "VARIANT_HOLDOUT"]


# --- played deals by the declaring hand's band (the band-conditioned model) --------------------------

#: the chance that a dealt deal is played, by the count band of its declaring hand
#: (:data:`kaiser_sim.hands.STRENGTH_BUCKETS` order): the strong bands, where the high bids are
#: decided and few hands fall, are all played; the common middle ones one in five.  The model is
#: conditional on the band, so the choice biases nothing given the hand: whether a deal is played
#: depends on the declarer's own hand and a coin only (the other three hands are as dealt).
BAND_ACCEPT = (0.5, 0.3, 0.2, 0.2, 0.3, 0.6, 1.0, 1.0)
#: dealt deals a chunk of a banded play run (one resumable file each)
BAND_CHUNK = 1500


def play_band_chunk(path, seed: int, chunk: int, samples: int = config.PIMC_SAMPLES, size: int = BAND_CHUNK,
                    accept=BAND_ACCEPT) -> dict:
    """Chunk ``chunk`` of a banded play run of the standard game: dealt deals
    ``chunk*size .. (chunk+1)*size - 1`` of ``seed`` (weak hands redealt), the
    contract of :func:`play_contracts` (declarer ``deal % 4``, trump by rule,
    NT every third deal); a deal is played when its coin ``u`` (a generator
    of ``(seed, chunk)``) falls below ``accept`` of its declaring hand's band
    (:data:`BAND_ACCEPT`); ``natural`` marks the deals whose coin falls below
    the smallest acceptance, a plain random share of all deals whatever the
    band.  Played by four PIMC players, K = ``samples``.  Kept in
    ``path/chunk-NNNNN.npz`` and read back from there if present
    (resumable).  Returns arrays ``deal``, ``hands``, ``declarer``,
    ``strain``, ``dd``, ``played``, ``strength``, ``band``, ``natural``."""
    from ..deal import deal_for_rules
    from ..game import contract_values, play_deals
    from ..hands import strength as count
    from ..hands import trump_by_rule
    from ..rules import Rules

    path = Path(path)
    f = path / f"chunk-{chunk:05d}.npz"
    if f.exists():
        with np.load(f) as z:
            return {k: z[k] for k in z.files}
    rules = Rules.preset("standard")
    start = chunk * size
    hands, kitties = deal_for_rules(size, seed, rules, start=start, redeal_weak=True)
    ids = np.arange(start, start + size)
    dec, strain = play_contracts(hands, ids, rules)
    own = hands[np.arange(size), dec]
    s = count(own, np.where(strain >= 4, trump_by_rule(own), strain))
    band = band_index(s)
    acc = np.asarray(accept, dtype=np.float64)
    u = np.random.default_rng([int(seed), 0xBA4D, int(chunk)]).random(size)
    keep = u < acc[band]
    dd = contract_values(hands[keep], kitties[keep], dec[keep], strain[keep], rules)[0]
    # the play's random streams: start + the deal's place among the chunk's played ones (within the chunk's range)
    played = play_deals(hands[keep], dec[keep], strain[keep], rules=rules, samples=samples, seed=seed,
                        start=start).declarer_points
    out = {"deal": ids[keep], "hands": hands[keep], "declarer": dec[keep], "strain": strain[keep],
           "dd": np.clip(dd, POINTS[0], POINTS[-1]).astype(np.int64),
           "played": np.clip(played, POINTS[0], POINTS[-1]).astype(np.int64), "strength": s[keep],
           "band": band[keep], "natural": u[keep] < acc.min(), "samples": np.int64(samples),
           "seed": np.int64(seed), "size": np.int64(size), "accept": acc}
    path.mkdir(parents=True, exist_ok=True)
    tmp = path / f".chunk-{chunk:05d}.tmp.npz"
    np.savez(tmp, **out)
    os.replace(tmp, f)
    return out


def load_band_run(path) -> dict:
    """All chunks of a banded play run in ``path`` (:func:`play_band_chunk`), concatenated in chunk order."""
    files = sorted(Path(path).glob("chunk-*.npz"))
    if not files:
        raise TablePlayError(f"no played chunks in {path}")
    parts = []
    for f in files:
        with np.load(f) as z:
            parts.append({k: z[k] for k in z.files})
    keys = ("deal", "hands", "declarer", "strain", "dd", "played", "strength", "band", "natural")
    out = {k: np.concatenate([p[k] for p in parts]) for k in keys}
    out["chunks"] = len(files)
    out["dealt"] = int(sum(int(p["size"]) for p in parts))
    out["accept"] = parts[0]["accept"]
    return out


def build_band_model(out=MODEL_FILE, deals: int = 60 * BAND_CHUNK, holdout: int = 24 * BAND_CHUNK, seed: int = 105,
                     samples: int = config.PIMC_SAMPLES, runs=None, add=None, pseudo: float = BAND_PSEUDO,
                     progress=None) -> TablePlayModel:
    """The model with the declaring hand's band (``kaiser-sim table-play-model
    --bands``): ``deals`` dealt deals of ``seed`` (a whole number of chunks
    of :data:`BAND_CHUNK`), about a third of them played
    (:func:`play_band_chunk`: every strong hand, one in five of the middle
    ones), their band rows fitted with ``add``'s pooled rows (its deals as
    dealt, kept unchanged: a hand-blind caller reads what it read) and band
    counts if any (:func:`fit_band_model`);
    ``holdout`` dealt deals of ``seed + 1`` played the same way to check it
    on (:func:`validation_tables`, by band; the rows of all bands over the
    natural share).  The fit and held-out chunks are played interleaved
    (about ``deals``:``holdout``), each kept in ``runs/fit`` and
    ``runs/holdout`` and resumed from there.  The added model's
    sensitivity table is carried over (it measured the players, not the
    fit)."""
    import tempfile
    import time

    for name, v, least in (("deals", deals, BAND_CHUNK), ("holdout", holdout, BAND_CHUNK), ("seed", seed, 0),
                           ("samples", samples, 1)):
        chunks = name in ("deals", "holdout")
        if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < least or (chunks and v % BAND_CHUNK):
            raise TablePlayError(f"{name} must be a whole number of chunks of {BAND_CHUNK} deals (got {v!r})"
                                 if chunks else f"{name} must be a whole number >= {least} (got {v!r})")
    if not pseudo >= 0:
        raise TablePlayError(f"the pseudo-count must be >= 0 (got {pseudo!r})")
    check_build_paths(out)
    part = check_added_model(add, seed, samples) if add is not None else None
    t0 = time.perf_counter()
    nf, nh = deals // BAND_CHUNK, holdout // BAND_CHUNK
    with tempfile.TemporaryDirectory(prefix="kaiser-sim-table-play-") as tmp:
        base = Path(runs) if runs is not None else Path(tmp)
        fi = hi = 0
        if progress is not None:
            progress.start(nf + nh)
        while fi < nf or hi < nh:  # interleaved, so that a run stopped early leaves both sets
            if hi < nh and (fi >= nf or hi * nf <= fi * nh):
                play_band_chunk(base / "holdout", seed + 1, hi, samples)
                hi += 1
            else:
                play_band_chunk(base / "fit", seed, fi, samples)
                fi += 1
            if progress is not None:
                progress.advance(1)
        if progress is not None:
            progress.finish()
        fit, ho = _band_chunks(base / "fit", nf), _band_chunks(base / "holdout", nh)
    rebuild = (f"kaiser-sim table-play-model --bands --deals {deals} --holdout {holdout} --seed {seed} "
               f"--samples {samples} --pseudo {pseudo:g}")
    provenance = {"seed": int(seed), "deals": int(len(fit["deal"])), "samples": int(samples), "players": "pimc",
                  "contracts": CONTRACTS, "rules": {k: _rule_value(_standard(), k) for k in PLAY_RULES},
                  "rules_label": _standard().label, "version": __version__, "min_rows": MIN_ROWS,
                  "bands": {"dealt": int(deals), "played": int(len(fit["deal"])),
                            "natural": int(fit["natural"].sum()), "accept": [float(a) for a in BAND_ACCEPT],
                            "chunk": BAND_CHUNK, "pseudo": float(pseudo),
                            "sampling": "declarer deal % 4, trump by rule, NT every third deal (the contracts "
                                        "of the dd-only model); a dealt deal is played with the chance "
                                        "'accept' of its declaring hand's count band (the strong bands always), "
                                        "by a coin of (seed, chunk); 'natural' deals (coin below the smallest "
                                        "chance) are a plain random share of all deals: the held-out rows of "
                                        "all bands use only them (and the pooled rows without --add; with "
                                        "--add the pooled rows are the added model's, unchanged)",
                            "played_by_band": np.bincount(fit["band"], minlength=len(BANDS)).tolist()},
                  "holdout": {"seed": int(seed) + 1, "deals": int(len(ho["deal"])), "dealt": int(holdout),
                              "natural": int(ho["natural"].sum())},
                  "rebuild": rebuild}
    if part is not None:
        pp = part.provenance
        provenance.update(
            deals=int(len(fit["deal"])) + int(pp.get("deals", 0)), fit_seeds=fit_seeds(pp) + [int(seed)],
            parts=pp.get("parts", [{"seed": int(pp.get("seed")), "deals": int(pp.get("deals", 0))}])
            + [{"seed": int(seed), "deals": int(len(fit["deal"])), "bands": True}],
            rebuild=f"{pp.get('rebuild')} --out PART.json, then {rebuild} --add PART.json")
    model = fit_band_model(fit, provenance, None if part is None else part, pseudo)
    levels = list(range(_standard().min_bid, 13))
    model.validation = validation_tables(model, ho["dd"], ho["played"], ho["strain"] >= 4, ho["strength"], levels,
                                         natural=ho["natural"])
    model.validation["summary"] = validation_summary(model.validation["heldout"])
    if part is not None and part.validation.get("sensitivity"):
        model.validation["sensitivity"] = part.validation["sensitivity"]
        model.validation["sensitivity_note"] = (f"measured when the added model was built "
                                                f"(held-out deals of seed {part.provenance.get('holdout', {}).get('seed')})")
    model.provenance["seconds"] = round(time.perf_counter() - t0, 1)
    model.save(out)
    forget_loaded()
    return model


def _standard():
    from ..rules import Rules

    return Rules.preset("standard")


def _band_chunks(path: Path, n: int) -> dict:
    """Chunks ``0 .. n-1`` of the banded play run in ``path``, concatenated."""
    keys = ("deal", "hands", "declarer", "strain", "dd", "played", "strength", "band", "natural")
    parts = []
    for c in range(n):
        with np.load(path / f"chunk-{c:05d}.npz") as z:
            parts.append({k: z[k] for k in keys})
    return {k: np.concatenate([p[k] for p in parts]) for k in keys}
