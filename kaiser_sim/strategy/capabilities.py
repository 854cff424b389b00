"""Which rule variants each command and feature supports, and why not
otherwise: one table.

:data:`CAPABILITIES` holds, per command or feature, the rule variants
(:data:`VARIANTS`) it does not support and the message that says why;
every command and feature asks :func:`check` (refuse with that message) or
:func:`refusal` (the message, "" when supported) instead of testing the
rules itself.  A command or feature not in the table plays every rules set
(``simulate``, ``deal``, ``solve``, ``play``, every study; how each treats
a variant, and what is approximate, its notes say).

The table reads only the rules' options; it names the features, which live
above it in this layer and in the studies and the command line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..cards import Strain


@dataclass(frozen=True)
class Variant:
    """A rule variant a feature may not support: ``on(rules)`` says whether
    the rules play it; ``noun`` names it in a message."""

    key: str
    noun: str
    on: Callable


#: the rule variants some feature does not support, by key
VARIANTS: dict[str, Variant] = {v.key: v for v in (
    Variant("kitty", "a kitty", lambda r: r.kitty != "none"),
    Variant("low_nt", Strain.L.noun, lambda r: r.low_nt != "off"),
    Variant("cover3", "cover 3", lambda r: bool(r.cover3)),
    Variant("deck", "the 34-card deck or 7-card hands", lambda r: bool(r.deck34) or r.hand_size != 8),
    Variant("pass_cards", "passing cards", lambda r: bool(r.pass_cards)),
)}


@dataclass(frozen=True)
class Capability:
    """What one command or feature does under rules it does not support.

    ``unsupported``: keys of :data:`VARIANTS`; ``why``: the message, a
    :meth:`str.format` template of ``rules`` (the rules set) and
    ``variants`` (the nouns of the unsupported variants the rules play);
    ``outcome``: ``"refused"`` (an error with the message) or
    ``"not computed"`` (an empty result with the message as its note)."""

    feature: str
    what: str
    unsupported: tuple[str, ...]
    why: str
    outcome: str = "refused"


#: per command or feature (the key :func:`check` and :func:`refusal` take): the variants it does not support
CAPABILITIES: dict[str, Capability] = {c.feature: c for c in (
    Capability("hand", "the hand advisor (kaiser-sim hand, kaiser_sim.strategy.advisor.advise): every rules set "
               "(its notes say how each variant is modelled)", (), ""),
    Capability("match", "the match engine (kaiser-sim match, the match and listening studies)", ("pass_cards",),
               "the match engine does not model pass_cards={rules.pass_cards}: the partners' pass needs a strategy "
               "for choosing the cards, which no policy has, and the make model the policies bid on knows only "
               "dealt hands"),
    Capability("listening-table", "building the listening policy's table (kaiser-sim listening-table)",
               ("kitty", "low_nt", "cover3", "deck"),
               "the listening table is built only for the standard deck without a kitty, low no trump or cover 3 "
               "(rules {rules.label}: {variants})"),
    Capability("call-chart", "the auction study's bidding chart by what was heard (its call_chart table), the "
               "heard chart and the bidding chart's net chart (each call played out against passing): every rules "
               "set (under a kitty whose 5H or 3S may be discarded to nobody the defenders' points are solved as "
               "the contracts are played out: slow)", (), "", "not computed"),
    Capability("table-play-model --runs", "kaiser-sim table-play-model keeping its simulate runs (--runs)",
               ("kitty", "low_nt", "cover3", "deck"),
               "--runs keeps simulate runs of the standard game; under rules that change the play the deals are "
               "played in this process: leave --runs out"),
)}


def unsupported(feature: str, rules) -> tuple[Variant, ...]:
    """The variants ``rules`` play that ``feature`` does not support (empty:
    supported).  :class:`KeyError` for a feature not in :data:`CAPABILITIES`."""
    return tuple(VARIANTS[k] for k in CAPABILITIES[feature].unsupported if VARIANTS[k].on(rules))


def supports(feature: str, rules) -> bool:
    """Whether ``feature`` supports ``rules``."""
    return not unsupported(feature, rules)


def refusal(feature: str, rules) -> str:
    """Why ``feature`` does not support ``rules`` (its capability's message),
    or "" when it does."""
    bad = unsupported(feature, rules)
    if not bad:
        return ""
    return CAPABILITIES[feature].why.format(rules=rules, variants=", ".join(v.noun for v in bad))


def check(feature: str, rules, error: type[Exception]) -> None:
    """Raise ``error`` (the feature's own error class) with :func:`refusal`'s
    message when ``feature`` does not support ``rules``."""
    why = refusal(feature, rules)
    if why:
        raise error(why)


__all__ = ["Variant", "VARIANTS", "Capability", "CAPABILITIES", "unsupported", "supports", "refusal", "check"]
