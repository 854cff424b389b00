"""A run's spec (what decides its rows, and its chunking), checked; the contract design of play runs.

A :class:`RunSpec` holds everything that determines a run's rows, plus
its chunking; :func:`make_spec` checks the arguments of a new run against
the limits (``config``: at most ``SIMULATE_MAX_DEALS`` deals,
``SIMULATE_MAX_CHUNK_SIZE`` deals a part, ``SIMULATE_MAX_CHUNKS`` parts;
seeds up to ``MAX_SEED``) and :func:`resume_spec` reads the spec of a run to
resume, refusing options that disagree with it (:class:`ResumeMismatch`).
A ``--play`` run plays one contract a deal, chosen by :func:`play_contracts`
(:data:`CONTRACTS`).  :class:`SimulateError` is the error of the whole run
engine (:mod:`kaiser_sim.runs.simulate`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import KaiserSimError
from .. import __version__, config
from . import results as res
from ..cards import NotationError, Seat, format_hand, parse_hand
from ..deal import certainly_weak, deal_batch, normalize_fixed
from ..rules import STANDARD, Rules


#: how the contracts of a play run are chosen (also stored in the run's metadata)
CONTRACTS = ("declarer: seat deal % 4 (rotating with the deal); strain: the declarer's trump by rule "
             "(longest suit, ties by high cards) from its own hand, no trump on every third deal "
             "(deal % 3 == 2)")
#: what changes under rules that play low no trump (appended to :data:`CONTRACTS` in their runs)
CONTRACTS_LOW_NT = "; under rules with low no trump every other no-trump deal is played low (deal % 6 == 5)"
NT_EVERY = 3


def contracts_text(rules: Rules) -> str:
    """:data:`CONTRACTS`, and what changes under ``rules``."""
    return CONTRACTS + (CONTRACTS_LOW_NT if rules.low_nt != "off" else "")


#: how the weak-hand redeal is applied (stored in the run's metadata, ``redeal``)
REDEAL_METHOD = ("a deal in which some hand may demand a redeal under the rules' weak_redeal is redealt, as if the "
                 "player always demanded it: deal i is the first acceptable deal of attempt 0 (deal i of the seed), "
                 "1, 2, ... (deal i of a seed derived from (seed, attempt)); a part whose deals took redeals records "
                 "how many ('redeals' in its part metadata)")


def play_contracts(hands, deal_ids, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """``(declarer seat, strain 0..4, 5 low NT)`` of each deal of a ``--play``
    run (:data:`CONTRACTS`): ``hands`` (n, 4) bitboards (before any kitty
    is taken), ``deal_ids`` the deals' indices in the run; under ``rules``
    with low no trump every other NT deal is low (:data:`CONTRACTS_LOW_NT`)."""
    from ..hands import trump_by_rule

    idx = np.asarray(deal_ids, dtype=np.int64)
    hands = np.asarray(hands, dtype=np.uint64)
    dec = idx % 4
    strains = trump_by_rule(hands[np.arange(len(idx)), dec]).astype(np.int64)
    strains = np.where(idx % NT_EVERY == NT_EVERY - 1, 4, strains)
    if rules.low_nt != "off":
        strains = np.where(idx % (2 * NT_EVERY) == 2 * NT_EVERY - 1, 5, strains)
    return dec, strains


def shown(value) -> str:
    """A value for a message: its repr, cut short (an absurd value is named, not printed whole)."""
    try:
        text = f"{value:,}" if isinstance(value, (int, np.integer)) and not isinstance(value, bool) else repr(value)
    except ValueError:  # an integer of more digits than Python prints
        text = "a huge number"
    return text if len(text) <= 40 else text[:37] + "..."


class SimulateError(KaiserSimError):
    """A run that cannot start or resume (bad arguments, an existing or foreign
    output, a corrupt part); the message says why.  Exit status 2 on the
    command line.  ``hint``: what to do next in ``kaiser-sim simulate``'s own
    options (``--resume``, ``--force``), appended as it is to the message by
    that command only: a command that simulates for itself (``study``,
    ``report``, ``table-play-model``) has other options and says its own."""

    def __init__(self, message: str, hint: str = ""):
        super().__init__(message)
        self.hint = hint


class ResumeMismatch(SimulateError):
    """A resume given options that differ from those the run in ``path`` was
    started with; ``clashes``: one text per option (what was given, what the
    run has), for callers whose hint differs (``study``, ``report``)."""

    def __init__(self, path, clashes: list[str]):
        self.path, self.clashes = path, clashes
        super().__init__(f"cannot resume {path} with different options: " + "; ".join(clashes),
                         hint=". Leave them out to finish the run as started, or give --force instead of --resume "
                              "to start over")


# --- the run ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RunSpec:
    """Everything that determines a run's rows, plus its chunking.

    ``fixed``: cards given to each seat (N E S W) in every deal, as four
    bitboards.  The rows depend on ``seed``, ``rules`` (its hand size and
    deck), ``fixed`` and the deal index only.
    """

    seed: int
    deals: int
    chunk_size: int
    mode: str = "points"
    rules: Rules = Rules(label="standard")
    fixed: tuple[int, int, int, int] = (0, 0, 0, 0)
    #: K of a ``--play`` run, the layouts a PIMC player samples a turn (each deal's contract also played out by
    #: PIMC players); 0: no play
    samples: int = 0
    #: redeal deals with a weak hand (the rules' ``weak_redeal``; False for runs made before it was applied)
    redeal: bool = False

    @property
    def chunks(self) -> int:
        return -(-self.deals // self.chunk_size)

    def bounds(self, chunk: int) -> tuple[int, int]:
        """``(first deal, count)`` of a chunk."""
        first = chunk * self.chunk_size
        return first, min(self.chunk_size, self.deals - first)

    @property
    def strains(self) -> tuple[str, ...]:
        """Strain suffixes of the value columns: S H D C NT, plus LNT (low no
        trump) under rules that play it."""
        return res.STRAIN_SUFFIXES + ((res.LOW_NT_SUFFIX,) if self.rules.low_nt != "off" else ())

    @property
    def plain(self) -> bool:
        """Do the rules leave the play alone (no kitty, no low no trump)?
        Then the table is the solver's own (``game.dd_table`` passes it
        through, ``mode="both"`` included); otherwise solved per strain."""
        return self.rules.kitty == "none" and self.rules.low_nt == "off"

    @property
    def fixed_array(self) -> np.ndarray:
        return np.array(self.fixed, dtype=np.uint64)

    def metadata(self) -> dict:
        """The run metadata stored with the results (see :mod:`kaiser_sim.runs.results`)."""
        return {
            "format": res.FORMAT_NAME,
            "format_version": res.FORMAT_VERSION,
            "seed": self.seed,
            "deals": self.deals,
            "chunk_size": self.chunk_size,
            "chunks": self.chunks,
            "mode": self.mode,
            "strains": list(self.strains),
            "rules": self.rules.to_dict(),
            "fixed": {s.name: format_hand(self.fixed[s]) for s in Seat if self.fixed[s]},
            "hand_size": self.rules.hand_size,
            "deck": 34 if self.rules.deck34 else 32,
            "dealer": res.DEALER_RULE,
            "columns": res.columns_for(self.mode, self.strains, bool(self.samples)),
            "version": __version__,
            **({"play": {"samples": self.samples, "players": "pimc", "contracts": contracts_text(self.rules)}}
               if self.samples else {}),
            **({"redeal": {"rule": self.rules.weak_redeal, "method": REDEAL_METHOD}} if self.redeal else {}),
        }

    @classmethod
    def from_metadata(cls, meta: Mapping) -> RunSpec:
        rules = Rules.from_dict(meta["rules"])
        fixed = [0, 0, 0, 0]
        for seat, text in meta.get("fixed", {}).items():
            fixed[Seat[seat]] = int(parse_hand(text, deck34=rules.deck34))
        samples = int(meta["play"]["samples"]) if meta.get("play") else 0
        return cls(int(meta["seed"]), int(meta["deals"]), int(meta["chunk_size"]), meta["mode"], rules, tuple(fixed),
                   samples, bool(meta.get("redeal")))


def parse_fixed(fixed, deck34: bool = False) -> tuple[int, int, int, int]:
    """Fixed cards as four bitboards, from ``["N=AKQ.5.-.-", "S=AS KS"]``,
    ``{"N": "AKQ.5.-.-"}`` / ``{Seat.N: mask}`` or ``[(Seat.N, mask), ...]``
    (``--fix``, read by the command line's ``SEAT=HAND`` type).

    A card given to two seats, a seat given twice, an unknown seat or a hand
    that cannot be read is a :class:`SimulateError`.
    """
    if not fixed:
        return (0, 0, 0, 0)
    if isinstance(fixed, Mapping):
        items = [(str(Seat(k).name) if not isinstance(k, str) else k, v, f"{k}") for k, v in fixed.items()]
    else:
        items = []
        for text in fixed:
            if isinstance(text, tuple):  # (seat, hand) read already
                items.append((Seat(text[0]).name, text[1], f"{Seat(text[0]).name}={text[1]!r}"))
                continue
            seat, sep, hand = str(text).partition("=")
            if not sep:
                raise SimulateError(f"--fix {text!r}: give SEAT=HAND, e.g. N=AKQ.5.-.- or 'N=AS KS 5H'")
            items.append((seat, hand, f"{text!r}"))
    masks = {}
    for seat, hand, label in items:
        key = seat.strip().upper()
        if key not in Seat.__members__:
            raise SimulateError(f"--fix {label}: unknown seat '{seat.strip()}' (use N, E, S or W)")
        if key in masks:
            raise SimulateError(f"--fix: seat {key} is given twice; put all of its cards in one --fix")
        if isinstance(hand, (int, np.integer)):
            masks[key] = int(hand)
            continue
        try:
            masks[key] = int(parse_hand(str(hand), deck34=deck34, who=f"{key}'s fixed cards"))
        except NotationError as e:
            raise SimulateError(f"--fix {label}: {e}") from None
    try:
        arr = normalize_fixed(masks)
    except NotationError as e:
        raise SimulateError(f"impossible fixed cards: {e}") from None
    return tuple(int(m) for m in arr)


def auto_chunk_size(deals, workers: int) -> int:
    """Deals per part when none is given: ``config.SIMULATE_CHUNK_SIZE``,
    or fewer for a small run, so that each worker gets at least
    ``config.SIMULATE_CHUNKS_PER_WORKER`` parts and the progress moves early
    (rows never depend on the chunking)."""
    if not isinstance(deals, (int, np.integer)) or deals < 1:
        return config.SIMULATE_CHUNK_SIZE  # make_spec refuses it with the right message
    per = -(-int(deals) // (max(1, workers) * config.SIMULATE_CHUNKS_PER_WORKER))
    per = -(-per // 50) * 50  # a round number
    return int(min(config.SIMULATE_CHUNK_SIZE, max(config.SIMULATE_MIN_AUTO_CHUNK_SIZE, per)))


def make_spec(deals: int, seed: int = config.DEFAULT_SEED, mode: str = "points", rules: Rules = STANDARD,
              fixed=None, chunk_size: int | None = None, samples: int = 0) -> RunSpec:
    """A checked :class:`RunSpec`; :class:`SimulateError` names a bad argument."""
    if not isinstance(rules, Rules):
        raise SimulateError(f"rules must be a kaiser_sim.rules.Rules, not {type(rules).__name__}")
    chunk_size = config.SIMULATE_CHUNK_SIZE if chunk_size is None else chunk_size
    if deals is None:
        raise SimulateError("give the number of deals (--deals N) for a new run")
    for name, value, least, most in (("--deals", deals, 1, config.SIMULATE_MAX_DEALS),
                                     ("--seed", seed, 0, config.MAX_SEED),
                                     ("--chunk-size", chunk_size, 1, config.SIMULATE_MAX_CHUNK_SIZE)):
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < least:
            raise SimulateError(f"{name} must be an integer >= {least} (got {shown(value)})")
        if value > most:
            raise SimulateError(f"{name} must be at most {most:,} (got {shown(value)})")
    chunks = -(-int(deals) // int(chunk_size))
    if chunks > config.SIMULATE_MAX_CHUNKS:
        raise SimulateError(f"--deals {deals:,} in chunks of {chunk_size:,} make {chunks:,} parts, more than "
                            f"{config.SIMULATE_MAX_CHUNKS:,}: give --chunk-size "
                            f"{-(-int(deals) // config.SIMULATE_MAX_CHUNKS):,} or more")
    if mode not in res.RUN_MODES:
        raise SimulateError(f"unknown mode '{mode}' (use {', '.join(res.RUN_MODES)})")
    if not (isinstance(samples, (int, np.integer)) and not isinstance(samples, bool)
            and 0 <= samples <= config.PIMC_MAX_SAMPLES):
        raise SimulateError(f"--play must be a whole number of layouts 1..{config.PIMC_MAX_SAMPLES} (got {samples!r})")
    if samples:
        if mode not in ("points", "both"):
            raise SimulateError("--play needs the points table (--mode points or both): the played contract's "
                                "double-dummy value is stored beside its played result")
    masks = parse_fixed(fixed, deck34=rules.deck34)
    always = certainly_weak(rules, masks)
    if always:
        raise SimulateError(f"the fixed cards of {', '.join(Seat(s).name for s in always)} make a hand the rules "
                            f"redeal (weak_redeal={rules.weak_redeal}: no A, K, Q, J, 5H or 3S"
                            + (", or all four 10s, 9s or 8s" if rules.weak_redeal == "weak+quads" else "")
                            + "), so no deal would be played; add --rule weak_redeal=off to study it")
    try:  # the deck and hand-size checks of the generator, without dealing
        deal_batch(0, int(seed), fixed=np.array(masks, dtype=np.uint64), hand_size=rules.hand_size,
                   deck34=rules.deck34)
    except NotationError as e:
        raise SimulateError(f"impossible fixed cards: {e}") from None
    return RunSpec(int(seed), int(deals), int(chunk_size), mode, rules, masks, int(samples), rules.weak_redeal != "off")


def resume_spec(meta: dict, given: dict, path: Path) -> RunSpec:
    """The spec of the run in ``path``; an option given for the resume must agree."""
    spec = RunSpec.from_metadata(meta)
    clashes = []
    for name, flag in (("seed", "--seed"), ("deals", "--deals"), ("chunk_size", "--chunk-size"), ("mode", "--mode"),
                       ("samples", "--play")):
        if given.get(name) is not None and given[name] != getattr(spec, name):
            clashes.append(f"{flag} {given[name]} (the run has {getattr(spec, name)})")
    if given.get("rules") is not None and given["rules"] != spec.rules:
        diff = ", ".join(f"{k}={v[0]}" for k, v in given["rules"].differences(spec.rules).items())
        clashes.append(f"--rules/--rule ({diff}; the run has {spec.rules.label})")
    if given.get("fixed") and parse_fixed(given["fixed"], spec.rules.deck34) != spec.fixed:
        clashes.append("--fix (the run has " + (", ".join(f"{k}={v}" for k, v in meta.get("fixed", {}).items())
                                                or "no fixed cards") + ")")
    if clashes:
        raise ResumeMismatch(path, clashes)
    return spec


__all__ = ["SimulateError", "ResumeMismatch", "RunSpec", "make_spec", "parse_fixed", "auto_chunk_size", "resume_spec",
           "play_contracts", "contracts_text", "CONTRACTS", "CONTRACTS_LOW_NT", "NT_EVERY", "REDEAL_METHOD"]
