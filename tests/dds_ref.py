"""Bridge double-dummy results (DDS through endplay) for Kaiser deals.

Tricks-mode Kaiser is plain bridge trick play on fewer cards: the Kaiser
cards A K Q J T 9 8 7 5 3 are the bridge cards of the same names, so a
Kaiser deal (8 cards a hand, or any endgame with equal hands) is a legal
bridge position and DDS solves it.  Used by the tests and the benchmarks;
a plain module, no pytest needed.

DDS conventions (checked against the naive solver in ``test_naive.py``):

- seats N E S W = 0 1 2 3 and strains S H D C NT = 0 1 2 3 4, the same
  numbers as ``kaiser_sim.cards.Seat`` and ``Strain``;
- ``deal.remainCards[seat][suit]`` is a bit mask of ranks with bit ``r`` for
  rank ``r`` (2..14, ace = 14);
- ``deal.first`` is the seat to play first to the current trick (with no
  cards on the table: the leader) and ``deal.trump`` the strain;
- ``SolveBoard(deal, target=-1, solutions=1, mode=1, fut, thread)`` puts in
  ``fut.score[0]`` the most tricks the side *to play* (here the leader's
  side) can take from the remaining cards;
- ``SolveAllBoardsBin`` does the same for up to ``MAXNOOFBOARDS`` (200)
  boards at once, on DDS's own threads;
- ``CalcDDtable`` / ``CalcAllTables`` answer per *declarer*
  (``resTable[strain][declarer]``, opening lead by the declarer's left-hand
  opponent) and assume 13-card hands, so they are not used here (see
  :func:`calc_dd_table_raw` for the check).
"""

from __future__ import annotations

import numpy as np
from endplay import _dds
from endplay.types import Deal

N_STRAINS = 5
_SUIT_BITS = 16


def _dds_rank(suit: int, rank_index: int) -> int:
    """Bridge rank (2..14) of the card at ``rank_index`` (0..8) in ``suit``.

    Indices 1..8 are 7 8 9 T J Q K A (7..14); index 0 is the 3 in spades,
    the 5 in hearts (bridge's 3 and 5) and, where it exists at all (only in
    relabelled hands), a 2 in diamonds and clubs.
    """
    if rank_index >= 1:
        return rank_index + 6
    return {0: 3, 1: 5}.get(suit, 2)


def remain_cards(hands) -> list[list[int]]:
    """``remainCards[seat][suit]`` rank masks for a (4,) uint64 deal."""
    out = []
    for seat in range(4):
        h = int(hands[seat])
        row = []
        for suit in range(4):
            bits = (h >> (_SUIT_BITS * suit)) & 0xFFFF
            if bits >> 9:
                raise ValueError(f"rank index above 8 in seat {seat} suit {suit}")
            mask = 0
            for r in range(9):
                if bits >> r & 1:
                    mask |= 1 << _dds_rank(suit, r)
            row.append(mask)
        out.append(row)
    return out


def _fill(dl, hands, leader: int, strain: int) -> None:
    dl.trump = int(strain)
    dl.first = int(leader)
    for i in range(3):
        dl.currentTrickSuit[i] = 0
        dl.currentTrickRank[i] = 0
    for seat, row in enumerate(remain_cards(hands)):
        for suit, mask in enumerate(row):
            dl.remainCards[seat][suit] = mask


def to_endplay_deal(hands, leader: int = 0, strain: int = 4) -> Deal:
    """An ``endplay.types.Deal`` with these hands, ``first=leader`` and ``trump=strain``."""
    deal = Deal()
    _fill(deal._data, hands, leader, strain)
    return deal


def dds_tricks(hands, leader: int, strain: int) -> int:
    """Most tricks the leader's side can take (DDS ``SolveBoard``, one board)."""
    dl = _dds.deal()
    _fill(dl, hands, leader, strain)
    fut = _dds.futureTricks()
    _dds.SolveBoard(dl, -1, 1, 1, fut, 0)
    return int(fut.score[0])


def dds_table(deals) -> np.ndarray:
    """``(n, 4, 5)`` int8: tricks for the leader's side, axis 1 leader N E S W,
    axis 2 strain S H D C N (the layout of ``kaiser_sim.dd_table``).

    ``deals`` is an ``(n, 4)`` uint64 array (endgames with equal hands are
    fine).  Uses ``SolveAllBoardsBin`` in batches of up to 200 boards.
    """
    deals = np.asarray(deals, dtype=np.uint64).reshape(-1, 4)
    boards = [(i, leader, strain) for i in range(len(deals)) for leader in range(4) for strain in range(N_STRAINS)]
    out = np.empty(len(boards), dtype=np.int8)
    step = _dds.MAXNOOFBOARDS
    bo = _dds.boards()
    solved = _dds.solvedBoards()
    for start in range(0, len(boards), step):
        chunk = boards[start : start + step]
        bo.noOfBoards = len(chunk)
        for k, (i, leader, strain) in enumerate(chunk):
            _fill(bo.deals[k], deals[i], leader, strain)
            bo.target[k] = -1
            bo.solutions[k] = 1
            bo.mode[k] = 1
        _dds.SolveAllBoardsBin(bo, solved)
        for k in range(len(chunk)):
            out[start + k] = solved.solvedBoard[k].score[0]
    return out.reshape(len(deals), 4, N_STRAINS)


def calc_dd_table_raw(hands) -> np.ndarray:
    """DDS ``CalcDDtable`` as it comes: ``(5, 4)`` ``resTable[strain][declarer]``.

    Kept only to document (and test) why :func:`dds_table` does not use it:
    for 8-card hands its numbers are declarer tricks out of 13, i.e.
    ``13 - (leader's side tricks)`` with the leader the declarer's left-hand
    opponent, not out of 8.
    """
    tdl = _dds.ddTableDeal()
    for seat, row in enumerate(remain_cards(hands)):
        for suit, mask in enumerate(row):
            tdl.cards[seat][suit] = mask
    res = _dds.ddTableResults()
    _dds.CalcDDtable(tdl, res)
    return np.array([[res.resTable[s][h] for h in range(4)] for s in range(N_STRAINS)], dtype=np.int64)
