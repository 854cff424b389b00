"""The rules on the command line: the rules command, --rules/--rule on deal and solve."""

import json

import numpy as np
from click.testing import CliRunner

from kaiser_sim.cards import parse_deal, popcount
from kaiser_sim.cli import main
from kaiser_sim.deal import kitty_of
from kaiser_sim.rules import PRESETS, get_preset
from kaiser_sim.game.values import LOW_NT, kitty_dd_value
from kaiser_sim import dd

DEAL = "N:A.Q5.K9.AT8 J9.98.Q7.J9 QT8.AJ.8.Q7 K3.KT.AJT.K"


def run(args, input=None):
    return CliRunner().invoke(main, args, input=input)


def test_rules_lists_every_preset():
    r = run(["rules"])
    assert r.exit_code == 0
    for name in ("standard", "tournament", "no-45", "short", "kitty-34", "kitty-4", "low-nt"):
        assert name in PRESETS
        assert any(line.startswith(name + " ") for line in r.output.splitlines())


def test_rules_preset_prints_every_option():
    r = run(["rules", "tournament"])
    assert r.exit_code == 0
    for key in (k for k in get_preset("tournament").to_dict() if k != "label"):
        assert key in r.output


def test_rules_refusals_exit_2():
    for args in (["rules", "nope"], ["rules", "standard", "--rule", "nt_min=13"],
                 ["rules", "standard", "--rule", "no_such_key=1"],
                 ["solve", "--rules", "nope", DEAL], ["deal", "--rule", "target=abc"]):
        r = run(args)
        assert r.exit_code == 2, args
        assert r.stdout == ""
        assert "Traceback" not in r.output


def test_deal_follows_the_rules_deck():
    r = run(["deal", "-n", "3", "--seed", "4", "--rules", "kitty-4"])
    assert r.exit_code == 0
    deals = [parse_deal(line, max_cards=7) for line in r.output.strip().splitlines()]
    assert all(popcount(h) == 7 for d in deals for h in d)
    r34 = run(["deal", "-n", "20", "--seed", "4", "--rules", "kitty-34"])
    deals34 = [parse_deal(line, deck34=True) for line in r34.output.strip().splitlines()]
    assert all(popcount(h) == 8 for d in deals34 for h in d)
    # the 7S and 7H are dealt too
    from kaiser_sim.cards import Card
    held = np.bitwise_or.reduce(np.array(deals34).ravel())
    assert int(held) >> int(Card.S7) & 1 or int(held) >> int(Card.H7) & 1


def test_solve_low_nt_adds_column_L():
    r = run(["solve", "--rules", "low-nt", "--mode", "points", "--format", "jsonl", DEAL])
    assert r.exit_code == 0
    rec = json.loads(r.output)
    assert list(rec["points"]["N"]) == ["S", "H", "D", "C", "N", "L"]
    # the first five columns are the ordinary table
    base = dd.dd_table([DEAL], "points")[0]
    for i, leader in enumerate("NESW"):
        assert [rec["points"][leader][k] for k in "SHDCN"] == list(base[i])
    # L equals the solver on rank-reversed hands
    from kaiser_sim.game.values import dd_value
    assert rec["points"]["N"]["L"] == dd_value(parse_deal(DEAL), 0, LOW_NT, get_preset("low-nt"), "points")


def test_solve_with_kitty_uses_the_cards_left_over():
    deals_out = run(["deal", "-n", "1", "--seed", "2", "--rules", "kitty-4"]).output.strip()
    r = run(["solve", "--rules", "kitty-4", "--mode", "points", "--format", "jsonl", deals_out])
    assert r.exit_code == 0, r.output
    rec = json.loads(r.output)
    hands = parse_deal(deals_out, max_cards=7)
    kitty = kitty_of(hands[None, :])[0]
    assert popcount(kitty) == 4
    rules = get_preset("kitty-4")
    assert rec["points"]["E"]["H"] == kitty_dd_value(hands, kitty, 1, 1, rules, "points")
    # an 8-card deal is refused under kitty-4 (a hand has 7 cards there)
    bad = run(["solve", "--rules", "kitty-4", DEAL])
    assert bad.exit_code == 2 and "at most 7" in bad.output
