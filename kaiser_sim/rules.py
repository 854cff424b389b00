"""The rules a table plays: every option of docs/rules.md §1-§7, and named presets.

Players do not agree on the rules, so every number kaiser-sim produces is
for a :class:`Rules` value.  A ``Rules`` is frozen, hashable and
JSON-friendly (:meth:`Rules.to_dict` / :meth:`Rules.from_dict`), so run
metadata can record it and a later run can reproduce it.  Constructing one
checks it: an out-of-range value or a contradictory combination raises
:class:`RulesError` naming the option.

Every option is documented once, in :data:`OPTIONS` (name, type, default,
one-line explanation); ``kaiser-sim rules PRESET`` and the docs
(:func:`options_markdown`) are generated from that table.

Where the sources disagree (the five documents of docs/rules.md "Sources"
win over the digest), the choice made is stated in the option's explanation; the
``standard`` preset is the consensus of the sources.

Example
-------
>>> r = Rules.preset("tournament").with_overrides(["target=62"])
>>> r.nt_min, r.target, r.weak_redeal
(7, 62, 'off')
"""

from __future__ import annotations

import dataclasses
import difflib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import KaiserSimError
from . import config

#: The top bid (12 no trump, "the Kaiser"); a side can never take more than 12 raw points.
MAX_BID = 12


class RulesError(KaiserSimError):
    """An unknown option, a bad value or a contradictory combination; the
    message names the option (and the value or the clash)."""


# --- the option table -------------------------------------------------------------


@dataclass(frozen=True)
class Option:
    """One rules option: its name, the kind of value, the ``standard`` default,
    a one-line explanation and, for a choice, the allowed values."""

    name: str
    kind: str  # "int", "bool", "choice", "int|none", "int|none|auto"
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    section: str = ""

    @property
    def type_text(self) -> str:
        if self.kind == "choice":
            return " / ".join(self.choices)
        names = {"int": "int", "bool": "bool", "int|none": "int or none", "int|none|auto": "int, none or auto"}
        return names[self.kind]


#: Every option, in the order they are printed.  The single place options are
#: documented: ``kaiser-sim rules PRESET`` and :func:`options_markdown` read it.
OPTIONS: tuple[Option, ...] = (
    # §1 deck and deal
    Option("weak_redeal", "choice", "weak",
           "weak-hand redeal (R1): 'weak' = a hand with no A, K, Q, J, 5H or 3S may demand a redeal; "
           "'weak+quads' also a hand holding all four 10s, 9s or 8s; 'off' (tournaments)",
           ("off", "weak", "weak+quads"), "§1 deal"),
    # §2 bidding
    Option("min_bid", "int", 6, "lowest bid, and the dealer's forced bid (B1: 5, 7 or 8 at some tables)",
           section="§2 bidding"),
    Option("nt_min", "int|none", None,
           "lowest no-trump bid; none = the minimum bid (B2: 7 in Saskatchewan tournaments, or 8)",
           section="§2 bidding"),
    Option("nt_order", "choice", "same-number",
           "'same-number': 6 < 6NT < 7 < 7NT ... < 12NT; 'above-suits' (B3): every NT bid beats every suit bid",
           ("same-number", "above-suits"), "§2 bidding"),
    Option("dealer_match", "bool", True, "the dealer may take the contract by equalling the highest bid",
           section="§2 bidding"),
    Option("forced_dealer_bid", "bool", True,
           "if the first three pass the dealer must bid at least min_bid (false: the hand is thrown in)",
           section="§2 bidding"),
    Option("plain_bid_nt", "bool", False,
           "a plain-number bid may name no trump as its 'trump' (scored as the plain bid, undoubled; "
           "the Portuguese source allows it, the others name a suit)",
           section="§2 bidding"),
    Option("pass_cards", "int", 0, "cards each partner passes face down before bidding (B4: 2); 0 = none",
           section="§2 bidding"),
    # §3 play
    Option("low_nt", "choice", "off",
           "low (reversed-rank) no trump (P1): 'off'; 'choice' = an NT declarer may play it low; "
           "'bid' = its own bid, just above high NT of the same number",
           ("off", "choice", "bid"), "§3 play"),
    Option("low_specials_lowest", "bool", False,
           "in a low contract the 5H and 3S stay the lowest of their suits (false: they reverse with the rest)",
           section="§3 play"),
    # §4 scoring one hand
    Option("nt_scoring", "choice", "double",
           "no-trump contracts: 'double' = made scores double, failed loses double the bid; "
           "'double-made' (S1) = only a made NT doubles; 'single' (S2) = no doubling",
           ("double", "double-made", "single"), "§4 scoring"),
    Option("made_scores", "choice", "raw",
           "a made bid scores the 'raw' points taken, or exactly the 'bid' (S3)",
           ("raw", "bid"), "§4 scoring"),
    Option("bid_out", "int|none|auto", 45,
           "defenders whose total before the hand is at least this cannot add positive points (negative "
           "always count); none = no such rule (S4); auto = target - min_bid",
           section="§4 scoring"),
    Option("cover3", "bool", False,
           "'cover 3': a side with fewer than 3 tricks scores no tricks and no 5H (-3 if it took the 3S); "
           "the sides' raw points then need not add to 10",
           section="§4 scoring"),
    Option("failed_bid_pot", "int", 0,
           "stake a failed bid pays into a pot (bookkeeping only, not match points); 0 = no pot",
           section="§4 scoring"),
    # §5 match
    Option("target", "int", 52, "points that win the match (G1: 32 for a short game)", section="§5 match"),
    Option("target_after_nt", "int|none", None,
           "once any NT bid is made the target rises to this for the rest of the match, that hand "
           "included (some tables: 62); none = never",
           section="§5 match"),
    Option("tie_rule", "choice", "declarer",
           "both sides reach the target on one hand: the 'declarer' side wins, or the 'higher' total "
           "(equal totals: declarer)",
           ("declarer", "higher"), "§5 match"),
    Option("only_bidders_win", "bool", False,
           "only a made bid can win the match: defenders never go out (G2)", section="§5 match"),
    Option("kaiser_outright", "choice", "off",
           "12NT 'the Kaiser' (G3): 'off' = an ordinary bid (the French source says so); 'team' = making it "
           "wins the match; 'solo' = the bidder alone must take 7 tricks with the 5H, the opponents the 3S: "
           "made wins, failed loses the match",
           ("off", "team", "solo"), "§5 match"),
    Option("lose_at", "int|none", None,
           "a side whose total falls to this or below loses the match (some clubs: -52); none = never",
           section="§5 match"),
    Option("series", "choice", "matches",
           "a series of matches is decided by 'matches' won or by the highest 'cumulative' total "
           "(Saskatchewan tournaments)",
           ("matches", "cumulative"), "§5 match"),
    # §6 kitty
    Option("kitty", "choice", "none",
           "'none' = 8 cards each; 'k1' = 7 each + a 4-card kitty, declarer takes it and discards 4; "
           "'k2' = 34 cards (with 7S 7H), 8 each + a 2-card kitty, declarer takes it and discards 2",
           ("none", "k1", "k2"), "§6 kitty"),
    Option("kitty_discard_specials", "choice", "auto",
           "may the declarer discard the 5H or 3S: 'auto' = yes in k1 (the sources do not forbid it), "
           "no in k2 (the source forbids it); or 'yes' / 'no'",
           ("auto", "yes", "no"), "§6 kitty"),
    Option("kitty_discard_points", "choice", "nobody",
           "a discarded 5H or 3S counts for 'nobody' (the sources are silent) or for the 'declarer' side",
           ("nobody", "declarer"), "§6 kitty"),
)

_OPTION_BY_NAME = {o.name: o for o in OPTIONS}


# --- the Rules value ----------------------------------------------------------------


@dataclass(frozen=True)
class Rules:
    """Every option of the rules a table plays (see :data:`OPTIONS` for what
    each means).  Defaults are the ``standard`` preset.  ``label`` names where
    the value came from (a preset, maybe with overrides); it is not part of
    equality or the hash.  Raises :class:`RulesError` if invalid."""

    weak_redeal: str = "weak"
    min_bid: int = 6
    nt_min: int | None = None
    nt_order: str = "same-number"
    dealer_match: bool = True
    forced_dealer_bid: bool = True
    plain_bid_nt: bool = False
    pass_cards: int = 0
    low_nt: str = "off"
    low_specials_lowest: bool = False
    nt_scoring: str = "double"
    made_scores: str = "raw"
    bid_out: int | str | None = 45
    cover3: bool = False
    failed_bid_pot: int = 0
    target: int = 52
    target_after_nt: int | None = None
    tie_rule: str = "declarer"
    only_bidders_win: bool = False
    kaiser_outright: str = "off"
    lose_at: int | None = None
    series: str = "matches"
    kitty: str = "none"
    kitty_discard_specials: str = "auto"
    kitty_discard_points: str = "nobody"
    label: str = field(default="custom", compare=False)

    def __post_init__(self):
        for opt in OPTIONS:
            _check_type(opt, getattr(self, opt.name))
        _check_consistency(self)

    # -- derived values used by the engines --

    @property
    def nt_min_bid(self) -> int:
        """The lowest no-trump bid actually allowed."""
        return self.min_bid if self.nt_min is None else self.nt_min

    @property
    def bid_out_threshold(self) -> int | None:
        """The defenders' bid-out total (45 in the standard game), or None."""
        if self.bid_out == "auto":
            return self.target - self.min_bid
        return self.bid_out

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player (7 with the 4-card kitty)."""
        return 7 if self.kitty == "k1" else 8

    @property
    def deck34(self) -> bool:
        """Is the 34-card deck (with the 7S and 7H) used?"""
        return self.kitty == "k2"

    @property
    def kitty_size(self) -> int:
        return {"none": 0, "k1": 4, "k2": 2}[self.kitty]

    @property
    def tricks(self) -> int:
        """Tricks in a hand (the hand size: the declarer discards back to it)."""
        return self.hand_size

    @property
    def raw_total(self) -> int:
        """The two sides' raw points added, when no special card is discarded
        and without cover 3: tricks + 5 - 3 (10; 9 with the 4-card kitty)."""
        return self.tricks + 2

    @property
    def may_discard_specials(self) -> bool:
        """May the declarer discard the 5H or 3S with the kitty?"""
        if self.kitty_discard_specials == "auto":
            return self.kitty == "k1"
        return self.kitty_discard_specials == "yes"

    # -- construction --

    @classmethod
    def preset(cls, name: str) -> Rules:
        """A named preset (see :data:`PRESETS`); :class:`RulesError` if unknown."""
        return get_preset(name)

    def replace(self, **changes) -> Rules:
        """A copy with some options changed (checked like a new value)."""
        unknown = [k for k in changes if k not in _OPTION_BY_NAME and k != "label"]
        if unknown:
            raise RulesError(_unknown_message(unknown[0]))
        return dataclasses.replace(self, **changes)

    def with_overrides(self, overrides: Iterable[str] | Mapping[str, Any]) -> Rules:
        """Apply ``key=value`` strings (as given to ``--rule``) or a mapping.

        Values are parsed per option (``true``/``false``, ``none``, a
        number, a choice).  The label records the overrides.
        """
        if isinstance(overrides, Mapping):
            items = [(k, v) for k, v in overrides.items()]
        else:
            items = [parse_override(text) for text in overrides]
        if not items:
            return self
        changes = {}
        for key, value in items:
            if key not in _OPTION_BY_NAME:
                raise RulesError(_unknown_message(key))
            changes[key] = parse_value(_OPTION_BY_NAME[key], value)
        text = " + ".join(f"{k}={format_value(v)}" for k, v in changes.items())
        return self.replace(label=f"{self.label} + {text}", **changes)

    # -- serialisation --

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly dict of every option (plus ``label``)."""
        d = {o.name: getattr(self, o.name) for o in OPTIONS}
        d["label"] = self.label
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Inverse of :meth:`to_dict`.  Missing options take the ``standard``
        default; an unknown key is refused."""
        if not isinstance(data, Mapping):
            raise RulesError(f"rules must be an object of option: value, not {type(data).__name__}")
        data = dict(data)
        label = data.pop("label", "custom")
        if not isinstance(label, str) or len(label) > MAX_LABEL:
            raise RulesError(f"bad label {_show(label)}: expected a string of at most {MAX_LABEL} characters")
        for key in data:
            if not isinstance(key, str) or key not in _OPTION_BY_NAME:
                raise RulesError(_unknown_message(str(key)))
        values = {k: parse_value(_OPTION_BY_NAME[k], v) for k, v in data.items()}
        return cls(label=label, **values)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=False)

    @classmethod
    def from_json(cls, text: str) -> Rules:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise RulesError(f"rules JSON cannot be read: {e}") from None
        except RecursionError:
            raise RulesError("rules JSON cannot be read: nested too deeply") from None
        except ValueError as e:  # e.g. a number beyond Python's 4300-digit limit
            raise RulesError(f"rules JSON cannot be read: {_too_long(e)}") from None
        if not isinstance(data, dict):
            raise RulesError("rules JSON must be an object of option: value")
        return cls.from_dict(data)

    def differences(self, other: Rules) -> dict[str, tuple[Any, Any]]:
        """``{option: (mine, other's)}`` for every option that differs."""
        return {
            o.name: (getattr(self, o.name), getattr(other, o.name))
            for o in OPTIONS
            if getattr(self, o.name) != getattr(other, o.name)
        }

    def describe(self) -> list[tuple[str, str, str]]:
        """``(option, value, explanation)`` for every option, in table order."""
        return [(o.name, format_value(getattr(self, o.name)), o.help) for o in OPTIONS]


# --- value parsing and checking --------------------------------------------------------

#: the longest label a rules JSON object may carry
MAX_LABEL = 1000
#: the most digits of a number written on the command line
_MAX_DIGITS = 12

_TRUE = {"true", "yes", "on", "1", "y"}
_FALSE = {"false", "no", "off", "0", "n"}
_NONE = {"none", "null", "off", "no", "-"}


def format_value(value: Any) -> str:
    """How a value is written on the command line and in ``rules`` output."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def parse_override(text: str) -> tuple[str, str]:
    """``"key=value"`` -> ``("key", "value")`` (keys may use - for _)."""
    if "=" not in text:
        raise RulesError(f"rule override {_show(text)} is not key=value")
    key, value = text.split("=", 1)
    key = key.strip().replace("-", "_")
    if key not in _OPTION_BY_NAME:
        raise RulesError(_unknown_message(key))
    return key, value.strip()


def _show(value: Any, width: int = 40) -> str:
    """``repr(value)``, shortened to ``width`` characters (a value in a message)."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # an int beyond the 4300-digit limit, a deep list
        text = f"<{type(value).__name__}>"
    return text if len(text) <= width else f"{text[:width - 15]}... ({len(text):,} chars)"


def _bad(opt: Option, value: Any, expected: str) -> RulesError:
    return RulesError(f"bad value {_show(value)} for {opt.name}: expected {expected}")


def parse_value(opt: Option, value: Any) -> Any:
    """A value for ``opt`` from a string (command line) or a JSON value."""
    if isinstance(value, str):
        v = value.strip().lower()
        if opt.kind == "bool":
            if v in _TRUE:
                return True
            if v in _FALSE:
                return False
            raise _bad(opt, value, "true or false")
        if opt.kind == "choice":
            for candidate in (v, v.replace("_", "-")):
                if candidate in opt.choices:
                    return candidate
            raise _bad(opt, value, "one of " + ", ".join(opt.choices))
        if opt.kind in ("int|none", "int|none|auto") and v in _NONE:
            return None
        if opt.kind == "int|none|auto" and v == "auto":
            return "auto"
        if len(v.lstrip("+-")) > _MAX_DIGITS:
            raise _bad(opt, value, f"{opt.type_text} (at most {_MAX_DIGITS} digits)")
        try:
            return int(v)
        except ValueError:
            raise _bad(opt, value, opt.type_text) from None
    return value  # checked by _check_type


def _check_type(opt: Option, value: Any) -> None:
    is_int = isinstance(value, int) and not isinstance(value, bool)
    if opt.kind == "bool":
        ok = isinstance(value, bool)
    elif opt.kind == "int":
        ok = is_int
    elif opt.kind == "int|none":
        ok = value is None or is_int
    elif opt.kind == "int|none|auto":
        ok = value is None or is_int or value == "auto"
    else:
        ok = value in opt.choices
    if not ok:
        expected = "one of " + ", ".join(opt.choices) if opt.kind == "choice" else opt.type_text
        raise _bad(opt, value, expected)


def _check_limits(r: Rules) -> None:
    """The sizes kaiser-sim accepts (:data:`kaiser_sim.config.RULES_MAX_TARGET`)."""
    for opt in OPTIONS:
        v = getattr(r, opt.name)
        if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 10**_MAX_DIGITS:
            raise RulesError(f"{opt.name}={_show(v, 24)} is out of range")
    top = config.RULES_MAX_TARGET
    for name in ("target", "target_after_nt", "bid_out", "failed_bid_pot"):
        v = getattr(r, name)
        if isinstance(v, int) and v > top:
            raise RulesError(f"{name}={v} is above {top}, the largest kaiser-sim accepts "
                             "(tables play to 32, 52 or 62)")
    if r.lose_at is not None and r.lose_at < -top:
        raise RulesError(f"lose_at={r.lose_at} is below -{top}, the lowest kaiser-sim accepts")


def _check_consistency(r: Rules) -> None:
    """Ranges and contradictory combinations, each named in the message."""
    _check_limits(r)
    if not 1 <= r.min_bid <= MAX_BID:
        raise RulesError(f"min_bid={r.min_bid} is outside 1..{MAX_BID} (12 no trump is the top bid)")
    if r.nt_min is not None:
        if r.nt_min > MAX_BID:
            raise RulesError(f"nt_min={r.nt_min} is above the top bid {MAX_BID}: there would be no no-trump bid")
        if r.nt_min < r.min_bid:
            raise RulesError(
                f"nt_min={r.nt_min} is below min_bid={r.min_bid}: no bid may be lower than the minimum "
                "(use nt_min=none for 'the same as the minimum bid')"
            )
    if r.target < 1:
        raise RulesError(f"target={r.target} must be at least 1")
    if r.target_after_nt is not None and r.target_after_nt <= r.target:
        raise RulesError(
            f"target_after_nt={r.target_after_nt} is not above target={r.target}: it is a raise of the target"
        )
    top = r.target if r.target_after_nt is None else r.target_after_nt
    if isinstance(r.bid_out, int):
        if r.bid_out < 1:
            raise RulesError(f"bid_out={r.bid_out} must be at least 1 (or none)")
        if r.bid_out >= top and not r.only_bidders_win:
            raise RulesError(
                f"bid_out={r.bid_out} is not below target={top}: the bid-out rule could never apply "
                "(give a bid_out below the target, or bid_out=none)"
            )
    if r.bid_out == "auto" and r.target - r.min_bid < 1:
        raise RulesError(f"bid_out=auto gives target - min_bid = {r.target - r.min_bid}, below 1")
    if r.lose_at is not None and r.lose_at >= 0:
        raise RulesError(f"lose_at={r.lose_at} must be negative (the match starts at 0-0)")
    if not 0 <= r.pass_cards < r.hand_size:
        raise RulesError(f"pass_cards={r.pass_cards} is outside 0..{r.hand_size - 1}")
    if r.failed_bid_pot < 0:
        raise RulesError(f"failed_bid_pot={r.failed_bid_pot} must be 0 or more")


def _unknown_message(key: str) -> str:
    close = difflib.get_close_matches(key, list(_OPTION_BY_NAME), n=1)
    hint = f" (did you mean {close[0]}?)" if close else ""
    return f"unknown rules option {_show(key)}{hint}; options: {', '.join(_OPTION_BY_NAME)}"


# --- presets ------------------------------------------------------------------------


def _preset(label: str, **changes) -> Rules:
    return Rules(label=label, **changes)


#: name -> (Rules, one-line summary).  ``standard`` is the consensus of the
#: five source documents; the others change only what their name says.
PRESETS: dict[str, tuple[Rules, str]] = {
    "standard": (
        _preset("standard"),
        "consensus of the sources: bids 6-12, NT just above the same number, dealer may match, "
        "forced bid 6, NT doubles both ways, 45 rule, target 52, declarer wins a tie",
    ),
    "tournament": (
        _preset("tournament", weak_redeal="off", nt_min=7, series="cumulative"),
        "Saskatchewan tournaments: standard, no weak-hand redeal, NT from 7, series by cumulative total",
    ),
    "no-45": (
        _preset("no-45", bid_out=None),
        "standard without the 45 rule: defenders always score their points (S4)",
    ),
    "short": (
        _preset("short", target=32, bid_out=25),
        "short game to 32 (G1); the bid-out rule moves to 25, keeping 45's distance of 7 below the target",
    ),
    "kitty-34": (
        _preset("kitty-34", kitty="k2", min_bid=7),
        "34 cards with the 7S and 7H, 2-card kitty, declarer discards two (never the 5H or 3S), minimum bid 7 (K2)",
    ),
    "kitty-4": (
        _preset("kitty-4", kitty="k1"),
        "7 cards each and a 4-card kitty the declarer takes, discarding 4 (K1); 7 tricks a hand",
    ),
    "low-nt": (
        _preset("low-nt", low_nt="bid"),
        "standard plus low (reversed-rank) no trump as its own bid, just above high NT of the same number (P1)",
    ),
}


def preset_names() -> list[str]:
    return list(PRESETS)


def get_preset(name: str) -> Rules:
    """The preset called ``name``; :class:`RulesError` listing the presets if unknown."""
    key = name.strip().lower()
    if key not in PRESETS:
        close = difflib.get_close_matches(key, list(PRESETS), n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        raise RulesError(f"unknown rules preset {_show(name)}{hint}; presets: {', '.join(PRESETS)}")
    return PRESETS[key][0]


def preset_of(rules: Rules) -> str | None:
    """The name of the preset equal to ``rules``, if any."""
    for name, (r, _) in PRESETS.items():
        if r == rules:
            return name
    return None


def options_markdown() -> str:
    """The option table as Markdown (option, type, standard default, meaning)."""
    lines = ["| option | type | standard | meaning |", "|---|---|---|---|"]
    for o in OPTIONS:
        lines.append(f"| `{o.name}` | {o.type_text} | `{format_value(o.default)}` | {o.help} |")
    return "\n".join(lines)


STANDARD = PRESETS["standard"][0]


def _too_long(e: ValueError) -> str:
    """The reason of a ValueError from a parser, said shortly."""
    text = str(e)
    return "a number has more than 4300 digits" if "digits" in text else text[:100]
