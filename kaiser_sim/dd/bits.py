"""Bit helpers of the double-dummy kernels, and the rules of a trick on bitboards.

- Bit scans as single machine instructions (LLVM intrinsics; the portable
  versions in :mod:`kaiser_sim.cards` are loops of shifts, with the same
  results): :func:`bit_count`, :func:`lowest_bit_index`,
  :func:`highest_bit_index`.
- :data:`pext` / :data:`pdep`, x86 BMI2's gather and scatter of bits (one
  instruction where the CPU has BMI2, :func:`pext_soft` / :func:`pdep_soft`
  loops elsewhere; :data:`HAS_BMI2` says which).  The search's per-node
  paths use them only through :data:`pext_suit` and :data:`low_bits`, which
  are the instructions only where they are fast (:data:`FAST_PEXT`; AMD
  before Zen 3 runs them as microcode, :data:`SLOW_PEXT_CPUS`).
- :func:`prefetch` (a cache hint: load an array element early).
- :func:`ix` (an array index as unsigned), :func:`card_bit`,
  :func:`above_in_suit` (each card's neighbour below, without ``pext``).
- The few rules of a trick that every kernel shares: :func:`beats`,
  :func:`trick_points`, :func:`owner`, :func:`rank_win`.

All are small ``@njit(cache=True, inline="always")`` functions (numba
inlines them into the kernels), so the kernels read like the rules.
"""

from __future__ import annotations

import numba
import numpy as np
from llvmlite import ir as _ir
from numba import njit, types
from numba.core import cgutils
from numba.core.extending import intrinsic

from ..cards import SUIT_MASK
from . import _jit_cache

# the kernels below freeze constants of cards.py: recompile them when it changes
_jit_cache.depends_on(__file__, *_jit_cache.package_files("cards.py"))

#: a value beyond every score: the searches' infinity
INF = 100
_ONE = np.uint64(1)
_SUIT_MASKS = SUIT_MASK  # read-only module-level table, frozen into the kernels


@intrinsic
def _ctpop(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.uint64(types.uint64), codegen


@intrinsic
def _cttz(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], _ir.Constant(_ir.IntType(1), 1))
    return types.uint64(types.uint64), codegen


@intrinsic
def _ctlz(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], _ir.Constant(_ir.IntType(1), 1))
    return types.uint64(types.uint64), codegen


def _bmi2_intrinsic(name):
    """A numba intrinsic ``f(x, m) -> uint64`` calling the LLVM x86 BMI2
    intrinsic ``llvm.x86.bmi.<name>.64`` (one machine instruction)."""
    @intrinsic
    def call(typingctx, x, m):
        def codegen(context, builder, signature, args):
            fnty = _ir.FunctionType(_ir.IntType(64), [_ir.IntType(64), _ir.IntType(64)])
            fn = cgutils.get_or_insert_function(builder.module, fnty, f"llvm.x86.bmi.{name}.64")
            return builder.call(fn, args)
        return types.uint64(types.uint64, types.uint64), codegen
    return call


@njit(cache=True, inline="always")
def pext_soft(x, m):
    """pext as a loop: the bits of ``x`` under ``m``, packed at the bottom."""
    r = np.uint64(0)
    k = np.uint64(0)
    while m:
        b = m & (~m + _ONE)
        if x & b:
            r |= _ONE << k
        k += _ONE
        m ^= b
    return r


@njit(cache=True, inline="always")
def pdep_soft(x, m):
    """pdep as a loop: the low bits of ``x`` spread onto the bits of ``m``."""
    r = np.uint64(0)
    k = np.uint64(0)
    while m:
        b = m & (~m + _ONE)
        if (x >> k) & _ONE:
            r |= b
        k += _ONE
        m ^= b
    return r


def _has_bmi2() -> bool:
    """Will numba's code run on a CPU with BMI2 (one-instruction pext, pdep)?"""
    try:
        if numba.config.CPU_NAME and numba.config.CPU_NAME != "host":
            return "+bmi2" in (numba.config.CPU_FEATURES or "")
        import llvmlite.binding as llvm
        return bool(llvm.get_host_cpu_features().get("bmi2", False))
    except Exception:  # unknown CPU: the portable loops are always right
        return False


#: CPUs (LLVM's names) whose BMI2 ``pext`` / ``pdep`` are microcode costing
#: a few cycles per set bit of the mask, up to about 300 (AMD before Zen 3:
#: Excavator, Zen 1, Zen+, Zen 2 and Hygon's Dhyana); Intel's and Zen 3's
#: and later's take 3 cycles
SLOW_PEXT_CPUS = ("bdver4", "znver1", "znver2")


def _cpu_name() -> str:
    """The CPU numba compiles for (LLVM's name, e.g. ``znver2``, ``skylake``)."""
    try:
        if numba.config.CPU_NAME and numba.config.CPU_NAME != "host":
            return numba.config.CPU_NAME
        import llvmlite.binding as llvm
        return llvm.get_host_cpu_name()
    except Exception:  # pragma: no cover
        return "unknown"


HAS_BMI2 = _has_bmi2()
#: ``pext`` / ``pdep`` are single fast instructions here (BMI2, and not one
#: of :data:`SLOW_PEXT_CPUS`): the per-node paths use them only then
FAST_PEXT = HAS_BMI2 and _cpu_name() not in SLOW_PEXT_CPUS
#: the bits of ``x`` under mask ``m``, packed at the bottom in order (x86
#: ``pext``; a loop where the CPU lacks it).  Numba's cache is per CPU, so a
#: cache built here is never loaded on a CPU without BMI2.
pext = _bmi2_intrinsic("pext") if HAS_BMI2 else pext_soft
#: the low bits of ``x`` spread in order onto the bits of ``m`` (x86 ``pdep``)
pdep = _bmi2_intrinsic("pdep") if HAS_BMI2 else pdep_soft


def _pext_table(bits: int) -> np.ndarray:
    """``T[m << bits | x] = pext(x, m)`` for all ``bits``-bit ``m`` and ``x``."""
    t = np.zeros(1 << (2 * bits), dtype=np.uint8)
    for m in range(1 << bits):
        for x in range(1 << bits):
            r, k = 0, 0
            for i in range(bits):
                if m >> i & 1:
                    r |= (x >> i & 1) << k
                    k += 1
            t[m << bits | x] = r
    return t


_PEXT5 = _pext_table(5)  # read-only module-level tables (1 KiB, 256 B), frozen into the kernels
_PEXT4 = _pext_table(4)


@njit(cache=True, inline="always")
def pext_suit_table(x, m):
    """``pext(x, m)`` for a mask within bits 0..8 (one suit's ranks, shifted
    down), by two table look-ups: ranks 0..4, then 5..8 placed above them."""
    lo = np.uint64(_PEXT5[ix(((m & np.uint64(31)) << np.uint64(5)) | (x & np.uint64(31)))])
    hi = np.uint64(_PEXT4[ix((((m >> np.uint64(5)) & np.uint64(15)) << np.uint64(4))
                             | ((x >> np.uint64(5)) & np.uint64(15)))])
    return lo | (hi << np.uint64(_ctpop(m & np.uint64(31))))


@njit(cache=True, inline="always")
def low_bits_soft(m, k):
    """The ``k`` lowest set bits of ``m`` (``pdep((1 << k) - 1, m)``) as a loop."""
    rest = m
    for _ in range(k):
        rest &= rest - _ONE
    return m ^ rest


@njit(cache=True, inline="always")
def low_bits_pdep(m, k):
    """The ``k`` lowest set bits of ``m``: ``pdep((1 << k) - 1, m)``."""
    return pdep((_ONE << np.uint64(k)) - _ONE, m)


#: ``pext(x, m)`` for one suit's ranks shifted down to bits 0..8 (the
#: position keys): the instruction where it is fast, else two table
#: look-ups (about 300 cycles saved per call on Zen 2)
pext_suit = pext if FAST_PEXT else pext_suit_table
#: the ``k`` lowest set bits of ``m``: ``pdep`` where it is fast, else a loop
low_bits = low_bits_pdep if FAST_PEXT else low_bits_soft


@intrinsic
def prefetch(typingctx, arr, i):
    """Ask the CPU to bring element ``i`` of the array ``arr`` into its cache
    (x86 ``prefetcht0``; no effect on any value): a load issued early, whose
    latency the work until the real load hides."""
    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        k = context.cast(builder, args[1], signature.args[1], types.intp)
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [k], wraparound=False)
        i8p = builder.bitcast(ptr, _ir.IntType(8).as_pointer())
        i32 = _ir.IntType(32)
        fnty = _ir.FunctionType(_ir.VoidType(), [i8p.type, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0i8")
        # read, keep in every cache level, data
        builder.call(fn, [i8p, _ir.Constant(i32, 0), _ir.Constant(i32, 3), _ir.Constant(i32, 1)])
        return context.get_dummy_value()
    return types.void(arr, i), codegen


@njit(cache=True, inline="always")
def ix(i):
    """An array index as unsigned: numba then skips its negative-index
    wrap-around test at every access (measured: the search ran 9-12% faster
    with its indices cast)."""
    return np.uint64(i)


@njit(cache=True, inline="always")
def bit_count(x):
    """Number of set bits of a uint64."""
    return np.int64(_ctpop(np.uint64(x)))


@njit(cache=True, inline="always")
def lowest_bit_index(x):
    """Index of the lowest set bit of a non-zero uint64."""
    return np.int64(_cttz(np.uint64(x)))


@njit(cache=True, inline="always")
def highest_bit_index(x):
    """Index of the highest set bit of a non-zero uint64."""
    return 63 - np.int64(_ctlz(np.uint64(x)))


@njit(cache=True, inline="always")
def card_bit(c):
    """The bit of card number ``c`` (``1 << c`` as uint64)."""
    return np.uint64(1) << np.uint64(c)


#: bit 15 of every suit's 16-bit field: never a card (ranks use bits 0..8)
_SUIT_TOPS = np.uint64(0x8000800080008000)


@njit(cache=True, inline="always")
def above_in_suit(a, present):
    """The cards of ``present`` whose next lower card of ``present`` in
    their suit is one of ``a`` (a subset of ``present``).

    Adding ``a << 1`` to the gaps (the non-present bits, less each suit's
    bit 15) carries from just above each card of ``a`` up through the gap to
    the next present card (or stops at bit 15): a few integer operations,
    where packing the cards in order with ``pext`` is one instruction on
    Intel and Zen 3+ but microcode costing up to hundreds of cycles on
    Zen 1/2."""
    return ((~present & ~_SUIT_TOPS) + (a << _ONE)) & present


@njit(cache=True, inline="always")
def beats(c, w, trump):
    """Does card c beat the card w currently winning the trick?"""
    sc = c >> 4
    sw = w >> 4
    if sc == sw:
        return c > w
    return sc == trump


@njit(cache=True, inline="always")
def trick_points(mask, five, three):
    """What the trick of cards ``mask`` is worth: 1, +5 with the card ``five``,
    -3 with ``three`` (the 5H and 3S; 0 for no card in tricks mode)."""
    p = 1
    if mask & five:
        p += 5
    if mask & three:
        p -= 3
    return p


@njit(cache=True, inline="always")
def owner(h0, h1, h2, b):
    """Seat (as uint64) holding card bit ``b`` (one of the four hands)."""
    if h0 & b:
        return np.uint64(0)
    if h1 & b:
        return np.uint64(1)
    if h2 & b:
        return np.uint64(2)
    return np.uint64(3)


@njit(cache=True, inline="always")
def rank_win(trick, wc):
    """The winning card's bit if it beat another card of its suit in the
    trick (its rank mattered), else 0."""
    wb = card_bit(wc)
    if (trick ^ wb) & _SUIT_MASKS[ix(wc >> 4)]:
        return wb
    return np.uint64(0)
