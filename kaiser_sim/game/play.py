"""Deals played out under the rules: the door from (deals, rules) to played results.

The PIMC player and its kernels are the solver's (:mod:`kaiser_sim.dd.pimc`,
the standard game only); here the rules are applied around them: with a
kitty the declarer first takes it up and discards (a PIMC declarer by
:func:`pimc_discard`, a double-dummy one the best discard of
:func:`kaiser_sim.game.values.kitty_dd_value`), low no trump is played on
the rank-reversed deal (:func:`kaiser_sim.game.values.play_view`) and the
cards given back in the normal numbers, and the played line is scored under
cover 3 and with a discarded special card that counts for the declarer.
The rules are always given (``kaiser_sim.rules.STANDARD`` for the standard
game).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from .. import config
from ..cards import (FIVE_HEARTS_BIT, NO_TRUMP, THREE_SPADES_BIT, Seat, Strain, card_name, format_deal, parse_deal,
                     reverse_ranks, special_bits_after_reverse)
from ..dd.api import solve as api_solve
from ..dd.api import special_bits
from ..dd.bits import beats, trick_points
from ..dd.pimc import PLAYER_KINDS, discard_by_samples, discard_candidates, play_views
from ..deal import kitty_of
from ..rules import Rules
from .values import LOW_NT, contract_values, cover3_points, kitty_dd_value, plain, play_view, solve


@dataclass
class PlayResult:
    """Deals played out (:func:`play_deals`).

    ``plays`` (n, 4 x tricks) int8: the cards in play order (trick by
    trick, each trick from its leader); ``trick_ns`` (n, tricks) int8: N-S's
    points from each trick (never 0: a trick is worth 1, 6, -2 or 3, so 0
    marks a trick E-W won); ``ns`` (n,): N-S's trick points;
    ``declarer_points`` (n,): the declaring side's raw points under the
    rules (cover 3 and a discarded special card that counts for the
    declarer applied); ``nodes``: search nodes visited; ``discards`` (n,):
    the declarer's kitty discard (0 without a kitty); ``declarer_tricks``
    (n,): the declaring side's tricks.
    """

    deals: np.ndarray
    declarers: np.ndarray
    strains: np.ndarray
    plays: np.ndarray
    trick_ns: np.ndarray
    ns: np.ndarray
    declarer_points: np.ndarray
    nodes: int
    discards: np.ndarray | None = None
    declarer_tricks: np.ndarray | None = None


def pimc_discard(hands, kitty, declarer: int, strain: int, rules: Rules, *,
                 samples: int = config.PIMC_DISCARD_SAMPLES, seed: int = 0, index: int = 0) -> int:
    """The kitty discard of a PIMC declarer (rules with a kitty).

    The declarer has taken up the kitty: it sees its ``hand + kitty`` and
    nothing else; :func:`kaiser_sim.dd.pimc.discard_by_samples` chooses on
    the hands as the solver sees them (rank-reversed for low NT, strain
    :data:`~kaiser_sim.game.values.LOW_NT`), with the rules' say on whether
    the 5H/3S may be discarded and whom they count for.  Returns the discard
    (a card mask, normal card layout).  The draws are seeded from
    (``seed``, ``index``), apart from the play's.
    """
    h = np.asarray(hands, dtype=np.uint64)
    decl = int(declarer)
    kit = int(kitty)
    low = int(strain) == LOW_NT  # low no trump: no trump on the rank-reversed deal
    trump = NO_TRUMP if low else int(strain)
    full = h.copy()
    full[decl] |= np.uint64(kit)
    view, five, three = play_view(full, rules, low)
    d = discard_by_samples(view, decl, bin(kit).count("1"), trump, int(five), int(three), rules.may_discard_specials,
                           rules.kitty_discard_points == "declarer", samples=samples, seed=seed, index=index)
    if low:  # back to the normal layout (the relabelling is its own inverse)
        d = int(reverse_ranks(np.array([d], dtype=np.uint64), rules.low_specials_lowest)[0])
    return int(d)


@functools.lru_cache(maxsize=2)
def _card_map(specials_stay_lowest: bool) -> np.ndarray:
    """(64,) int8: each card number after the low-NT relabelling (its own inverse)."""
    out = np.arange(64, dtype=np.int64)
    for c in range(64):
        m = int(reverse_ranks(np.array([1 << c], dtype=np.uint64), specials_stay_lowest)[0])
        if m:
            out[c] = m.bit_length() - 1
    return out.astype(np.int8)


def play_deals(deals, declarers, strains, *, rules: Rules, declarer: str = "pimc", defenders: str = "pimc",
               samples: int = config.PIMC_SAMPLES, seed: int = 0, start: int = 0, mode: str = "points",
               threads: int | None = None, kitties=None, lead_group: int = 1) -> PlayResult:
    """Play deals out under ``rules``, declarer leading, each side PIMC or
    double dummy.

    Parameters
    ----------
    deals : (n, 4) uint64 full deals (equal hands, at most 9 cards).
    declarers, strains : (n,) declarer seat (on lead) and strain (0..3 trump, 4 NT, 5 low NT) of each deal.
    rules : the rules played (``kaiser_sim.rules.STANDARD`` for the standard
        game).  With a kitty (``kitties``: (n,) uint64, one a deal,
        :func:`kaiser_sim.deal.kitty_of` of the deals) the declarer first
        takes it up and discards as many cards: a PIMC declarer by
        :func:`pimc_discard`, a DD one the double-dummy best
        (:func:`kaiser_sim.game.values.kitty_dd_value`); the discard is then
        known to the declarer only (the other seats sample it among the
        unseen cards).  Low no trump (strain 5) is played on the
        rank-reversed deal (:func:`kaiser_sim.game.values.play_view`),
        ``plays`` given back in the normal card numbers.  Cover 3: the
        players play for the standard count, as the solver does; the played
        line is then scored under cover 3 (its own points and tricks).
    declarer, defenders : ``"pimc"`` or ``"dd"``: how the declaring side and the defenders play.
    samples : K, layouts a PIMC player samples at each turn.
    seed, start : the run's seed and the index of the first deal in the run
        (deal ``start + i`` of a run plays the same whatever the batch).
    threads : numba threads (default all).
    lead_group : deals a shared opening lead, where they give the declarer
        the same cards (the hand advisor's own play; 1: every deal its own;
        :func:`kaiser_sim.dd.pimc.play_views`).

    Returns
    -------
    :class:`PlayResult`.  Kernel: :func:`kaiser_sim.dd.pimc.play_views`.
    """
    arr = np.ascontiguousarray(deals, dtype=np.uint64)
    if arr.ndim != 2 or arr.shape[1] != 4:
        raise ValueError("deals must have shape (n, 4)")
    n = arr.shape[0]
    dec = np.ascontiguousarray(declarers, dtype=np.int64).reshape(-1)
    strn = np.ascontiguousarray(strains, dtype=np.int64).reshape(-1)
    if dec.shape[0] != n or strn.shape[0] != n:
        raise ValueError("need one declarer and one strain per deal")
    if not 1 <= samples <= config.PIMC_MAX_SAMPLES:
        raise ValueError(f"samples must be from 1 to {config.PIMC_MAX_SAMPLES} (got {samples})")
    for name, v in (("declarer", declarer), ("defenders", defenders)):
        if v not in PLAYER_KINDS:
            raise ValueError(f"{name} must be one of {', '.join(PLAYER_KINDS)}, got {v!r}")
    f, t = special_bits(mode)
    low_max = 5 if rules.low_nt != "off" else 4
    if n and (strn.min() < 0 or strn.max() > low_max):
        raise ValueError("strains must be 0..4 (S H D C N)" + (", or 5 (low NT)" if low_max == 5 else
                                                             ", 5 (low NT) only under rules that play it"))
    if n == 0:
        z = np.zeros((0, 32), np.int8)
        e = np.zeros(0, np.int64)
        return PlayResult(arr, dec, strn, z, np.zeros((0, 8), np.int8), e, e, 0, np.zeros(0, np.uint64), e)
    hands = arr.copy()
    discards = np.zeros(n, dtype=np.uint64)
    if rules.kitty != "none":
        if kitties is None:
            raise ValueError(f"rules kitty={rules.kitty}: give the kitties")
        kit = np.broadcast_to(np.asarray(kitties, dtype=np.uint64), (n,))
        for i in range(n):
            d0 = int(dec[i])
            if declarer == "dd":
                d = kitty_dd_value(arr[i], kit[i], d0, int(strn[i]), rules, mode, return_discard=True)[1]
            else:
                d = pimc_discard(arr[i], kit[i], d0, int(strn[i]), rules, samples=min(int(samples),
                                 config.PIMC_DISCARD_SAMPLES), seed=seed, index=int(start) + i)
            hands[i, d0] = (arr[i, d0] | kit[i]) & ~np.uint64(d)
            discards[i] = d
    low = strn == LOW_NT
    fives = np.full(n, f, dtype=np.uint64)
    threes = np.full(n, t, dtype=np.uint64)
    view, vdisc = hands.copy(), discards.copy()
    if low.any():
        view[low] = reverse_ranks(hands[low], rules.low_specials_lowest)
        vdisc[low] = reverse_ranks(discards[low], rules.low_specials_lowest)
        if mode == "points":
            lf, lt = special_bits_after_reverse(rules.low_specials_lowest)
            fives[low], threes[low] = lf, lt
    trumps = np.where(low, NO_TRUMP, strn).astype(np.int64)
    plays, trick_ns, ns, nodes = play_views(view, dec, trumps, fives, threes, vdisc, declarer=declarer,
                                            defenders=defenders, samples=samples, seed=seed, start=start,
                                            threads=threads, lead_group=lead_group)
    if low.any():
        cmap = _card_map(bool(rules.low_specials_lowest))
        pl = plays[low]
        plays[low] = np.where(pl >= 0, cmap[np.maximum(pl, 0)], pl)
    union = view[:, 0] | view[:, 1] | view[:, 2] | view[:, 3]
    ntricks = np.array([bin(int(d[0])).count("1") for d in view], dtype=np.int64)
    total = ntricks.copy()
    if mode == "points":  # both sides' points: the tricks, +5 and -3 if the special cards are in play
        total += 5 * ((union & fives) != 0) - 3 * ((union & threes) != 0)
    decl = np.where(dec & 1, total - ns, ns)
    ns_tricks = (trick_ns != 0).sum(axis=1).astype(np.int64)
    decl_tricks = np.where(dec & 1, ntricks - ns_tricks, ns_tricks)
    if mode == "points":
        if rules.cover3:
            decl = np.asarray(cover3_points(decl, decl_tricks), dtype=np.int64)
        if rules.kitty != "none" and rules.kitty_discard_points == "declarer":
            decl = decl + 5 * ((discards & FIVE_HEARTS_BIT) != 0) - 3 * ((discards & THREE_SPADES_BIT) != 0)
    return PlayResult(arr, dec, strn, plays, trick_ns, ns, decl, int(nodes.sum()), discards, decl_tricks)


# --- one deal, trick by trick (``kaiser-sim play``) ------------------------------------------


@dataclass
class PlayedDeal:
    """One deal played out (:func:`play_deal`), with the double-dummy value
    of the rest of the play after every trick.

    ``tricks``: one dict a trick, ``{"trick", "leader", "cards" (in play
    order from the leader), "winner", "points" (the trick's worth), "ns",
    "ew" (running totals), "dd"}`` where ``dd`` is the declaring side's
    points so far plus the double-dummy value of the rest from there (before
    the first trick: the deal's double-dummy value).
    """

    deal: np.ndarray
    strain: int
    declarer: int
    players: dict
    samples: int
    seed: int
    dd_value: int
    tricks: list
    result: int
    #: with a kitty: the kitty and the declarer's discard (card masks)
    kitty: int | None = None
    discard: int | None = None
    #: the rules played (None: the standard play, no kitty, low NT or cover 3)
    rules: object = None

    def to_dict(self) -> dict:
        out = {
            "deal": format_deal(self.deal),
            "strain": Strain(self.strain).name, "declarer": Seat(self.declarer).name,
            "players": self.players, "samples": self.samples, "seed": self.seed, "dd": self.dd_value,
            "result": self.result, "difference": self.result - self.dd_value,
            "tricks": [dict(t, leader=Seat(t["leader"]).name, winner=Seat(t["winner"]).name,
                            cards=[card_name(c) for c in t["cards"]]) for t in self.tricks],
        }
        if self.rules is not None:
            out["rules"] = self.rules.label
        if self.kitty is not None:
            out["kitty"] = _cards_text(self.kitty)
            out["discard"] = _cards_text(self.discard)
        return out

    def to_text(self) -> str:
        side = "N-S" if self.declarer % 2 == 0 else "E-W"
        strain = Strain(self.strain).noun
        kinds = ", ".join(f"{k} {v.upper()}" for k, v in self.players.items())
        lines = [f"Deal      {format_deal(self.deal)}",
                 f"Contract  {strain}, declarer {Seat(self.declarer).name} leads ({side} declare)"]
        if self.rules is not None:
            lines.append(f"Rules     {self.rules.label}")
        if self.kitty is not None:
            lines.append(f"Kitty     {_cards_text(self.kitty)}; declarer discards {_cards_text(self.discard)}")
        lines += [f"Players   {kinds}; K = {self.samples} samples a turn, seed {self.seed}",
                 f"Double dummy: {side} {self.dd_value}", "",
                 f"{'trick':>5}  {'lead':<4}  {'cards from the leader':<22}  {'won':<3}  {'N-S':>3}  {'E-W':>3}"
                 f"  {'DD ' + side:>6}"]
        for t in self.tricks:
            cards = " ".join(f"{card_name(c):<3}" for c in t["cards"])
            lines.append(f"{t['trick']:>5}  {Seat(t['leader']).name:<4}  {cards:<22}  {Seat(t['winner']).name:<3}  "
                         f"{t['ns']:>3}  {t['ew']:>3}  {t['dd']:>6}")
        diff = self.result - self.dd_value
        lines += ["", f"Result: {side} {self.result}, double dummy {self.dd_value} (played - DD = {diff:+d})",
                  f"DD {side}: {side}'s points so far + the double-dummy value of the rest of the play."]
        return "\n".join(lines)


def _cards_text(mask: int) -> str:
    return " ".join(card_name(c) for c in range(64) if int(mask) >> c & 1)


def play_deal(deal, strain, declarer, *, samples: int = config.PIMC_SAMPLES, seed: int = 0, declarer_player: str = "pimc",
              defenders: str = "pimc", rules: Rules) -> PlayedDeal:
    """Play one deal (a ``N:...`` string or 4 bitboards) out with
    :func:`play_deals` and describe it trick by trick (:class:`PlayedDeal`).

    ``rules`` (``kaiser_sim.rules.STANDARD`` for the standard game): with a kitty the kitty is the cards of the
    deck no hand holds, taken up by the declarer, who discards (PIMC:
    :func:`pimc_discard`); ``dd_value`` is then the double-dummy value with
    the best discard, and each trick's ``dd`` the value after the discard
    made.  Low no trump is strain 5.  Under cover 3 ``dd_value`` and the
    result are scored with cover 3; each trick's ``dd`` counts the standard
    points."""
    h = parse_deal(deal) if isinstance(deal, str) else np.asarray(deal, dtype=np.uint64)
    strain, declarer = int(strain), int(declarer)
    kitty = None
    if rules.kitty != "none":
        kitty = kitty_of(h[None, :], deck34=rules.deck34)
    r = play_deals(h[None, :], [declarer], [strain], declarer=declarer_player, defenders=defenders,
                   samples=samples, seed=seed, rules=rules, kitties=kitty)
    low = strain == 5
    trump = NO_TRUMP if low else strain
    if rules.kitty == "none" and not low and not rules.cover3:
        dd = solve(h, declarer, strain, rules)
    else:
        dd = int(contract_values(h[None, :], kitty, [declarer], [strain], rules)[0][0])
    start = h.copy()
    if r.discards is not None and int(r.discards[0]):
        start[declarer] = (h[declarer] | kitty[0]) & ~r.discards[0]
    plays = [int(c) for c in r.plays[0]]
    hands = [int(x) for x in start]
    five, three = 1 << 16, 1
    lf, lt = five, three
    if low:
        _, lf, lt = play_view(start, rules, True)
        lf, lt = int(lf), int(lt)
    leader, ns, ew = declarer, 0, 0
    tricks = []
    for t in range(len(plays) // 4):
        cards = plays[4 * t: 4 * t + 4]
        view_cards = [int(_card_map(bool(rules.low_specials_lowest))[c]) for c in cards] if low else cards
        w = 0
        for j in range(1, 4):
            if beats(view_cards[j], view_cards[w], trump):
                w = j
        winner = (leader + w) % 4
        for j, c in enumerate(cards):
            hands[(leader + j) % 4] &= ~(1 << c)
        bits = sum(1 << c for c in cards)
        pts = int(trick_points(np.uint64(bits), np.uint64(five), np.uint64(three)))
        if winner % 2 == 0:
            ns += pts
        else:
            ew += pts
        mine = ns if declarer % 2 == 0 else ew
        if hands[0]:
            rest = np.array(hands, dtype=np.uint64)
            if low:
                rest, _, _ = play_view(rest, rules, True)
            v = api_solve(rest, winner, trump, five=lf, three=lt)
            total = bin(hands[0]).count("1")
            union = hands[0] | hands[1] | hands[2] | hands[3]
            total += 5 * (union >> 16 & 1) - 3 * (union & 1)
            v = v if winner % 2 == declarer % 2 else total - v
        else:
            v = 0
        tricks.append({"trick": t + 1, "leader": leader, "cards": cards, "winner": winner, "points": pts,
                       "ns": ns, "ew": ew, "dd": mine + int(v)})
        leader = winner
    players = {"declarer": declarer_player, "defenders": defenders}
    out = PlayedDeal(h, strain, declarer, players, int(samples), int(seed), int(dd), tricks,
                     int(r.declarer_points[0]))
    if kitty is not None:
        out.kitty = int(kitty[0])
        out.discard = int(r.discards[0])
    # the text and the JSON name the rules only where they change the play (as the command always printed)
    out.rules = None if plain(rules) and not rules.cover3 else rules
    return out


__all__ = ["PlayResult", "PlayedDeal", "play_deals", "play_deal", "pimc_discard", "discard_candidates"]
