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
from ..runs.spec import CONTRACTS, NT_EVERY, play_contracts  # noqa: F401  (the play runs' contract design)
from .table_play import (MIN_ROWS, MODEL_FILE, PLAY_RULES, POINTS, TablePlayError, TablePlayModel, fit_counts,
                         fit_seeds, forget_loaded, joint_counts, play_key, rules_args)


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
    probs, counts = [], []
    for kind in range(2):
        if not joint[kind].any():
            raise TablePlayError(f"no {'NT' if kind else 'trump'} contracts to fit")
        p, c = fit_counts(joint[kind], min_rows)
        probs.append(p)
        counts.append(c)
    return TablePlayModel(np.stack(probs), np.stack(counts), dict(provenance), joint=joint)


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


def validation_tables(model: TablePlayModel, dd, table, nt, strength, levels) -> dict:
    """Predictions against played contracts the model was not fitted on: for
    each bid level and each strength band (trump and NT), the observed share
    making (Wilson 95%, one contract a deal) and the model's prediction;
    ``inside`` = the prediction lies in the observed interval.  Also the
    mean points."""
    from ..hands import STRENGTH_BUCKETS
    from ..stats import mean_ci, wilson_interval

    dd, table = np.asarray(dd), np.asarray(table)
    nt = np.asarray(nt, dtype=bool)
    strength = np.asarray(strength, dtype=np.float64)
    rows = []
    groups = [("all", "all", np.ones(dd.size, bool))]
    for kind in (False, True):
        groups.append(("NT" if kind else "trump", "all", nt == kind))
    for label, lo, hi in STRENGTH_BUCKETS:
        for kind in (False, True):
            groups.append(("NT" if kind else "trump", label, (nt == kind) & (strength >= lo) & (strength <= hi)))
    for kind, band, sel in groups:
        n = int(sel.sum())
        if n < 30:
            continue
        pred = model.make_prob(dd[sel], nt[sel], levels).mean(axis=0)
        for j, b in enumerate(levels):
            k = int((table[sel] >= b).sum())
            lo, hi = wilson_interval(k, n)
            rows.append({"kind": kind, "count_band": band, "bid": int(b), "n": n, "observed": k / n, "lo": lo,
                         "hi": hi, "predicted": float(pred[j]), "dd": float((dd[sel] >= b).mean()),
                         "inside": bool(lo <= pred[j] <= hi)})
        m = mean_ci(table[sel])
        rows.append({"kind": kind, "count_band": band, "bid": "mean points", "n": n, "observed": m.mean,
                     "lo": m.lo, "hi": m.hi, "predicted": float(model.expected(dd[sel], nt[sel]).mean()),
                     "dd": float(dd[sel].mean()), "inside": bool(m.lo <= model.expected(dd[sel], nt[sel]).mean() <= m.hi)})
    return {"heldout": rows}


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
                      samples: int = config.PIMC_SAMPLES, rules=None) -> None:
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
                progress=None, rules=None, add=None) -> TablePlayModel:
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
    (:func:`kaiser_sim.dd.rule_variants.contract_values`: the best discard
    with a kitty, cover 3 applied) and played out by four PIMC players with
    ``samples`` layouts a turn (:func:`kaiser_sim.dd.pimc.play_deals` with
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
    (:func:`kaiser_sim.dd.rule_variants.kitty_dd_value`).  Cover 3 is not
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



__all__ = ["CONTRACTS", "play_contracts", "fit_model", "validation_tables", "sensitivity_table", "build_model",
           "check_build_paths", "build_variant_model", "play_sample", "discard_check", "BUILD_DEALS", "BUILD_HOLDOUT",
           "BUILD_SEED", "BUILD_SENSITIVITY", "VARIANT_DEALS", "VARIANT_HOLDOUT"]
