"""Double-dummy tables (``kaiser_sim.game.table``): the result object and the
JSON and text formats (no solver needed)."""

import json

import numpy as np
import pytest

from kaiser_sim.cards import STRAINS, NotationError, Seat, Strain
from kaiser_sim.game.table import (
    LEADER_KEYS,
    STRAIN_KEYS,
    DDTable,
    deal_record,
    dict_to_table,
    format_deal_text,
    format_table_text,
    table_to_dict,
)

TABLE = np.arange(20, dtype=np.int8).reshape(4, 5) - 2


def test_keys_follow_the_array_axes():
    assert LEADER_KEYS == ("N", "E", "S", "W")
    assert STRAIN_KEYS == ("S", "H", "D", "C", "N")


def test_table_to_dict_and_back():
    d = table_to_dict(TABLE)
    assert list(d) == ["N", "E", "S", "W"]
    assert d["E"] == {"S": 3, "H": 4, "D": 5, "C": 6, "N": 7}
    assert all(type(v) is int for row in d.values() for v in row.values())
    np.testing.assert_array_equal(dict_to_table(d), TABLE)


def test_table_shape_is_checked():
    with pytest.raises(ValueError, match=r"\(4, 5\)"):
        table_to_dict(np.zeros((5, 4)))


def test_deal_record_orders_modes_and_keeps_only_given_ones():
    rec = deal_record("N:...", {"tricks": TABLE, "points": TABLE})
    assert list(rec) == ["deal", "points", "tricks"]
    assert list(deal_record("N:...", {"tricks": TABLE})) == ["deal", "tricks"]
    json.dumps(rec)  # plain ints: serialisable


def test_format_table_text():
    text = format_table_text(TABLE, "points")
    lines = text.splitlines()
    assert lines[0].startswith("Points")
    assert lines[1].split() == ["Leader", "S", "H", "D", "C", "NT"]
    assert lines[2].split() == ["N", "-2", "-1", "0", "1", "2"]
    assert lines[5].split() == ["W", "13", "14", "15", "16", "17"]
    assert format_table_text(TABLE, "tricks").startswith("Tricks")
    with pytest.raises(ValueError):
        format_table_text(TABLE, "bids")


def test_format_deal_text_blocks():
    text = format_deal_text("N:x", {"tricks": TABLE, "points": TABLE}, title="Deal 2 (line 5)")
    blocks = text.split("\n\n")
    assert blocks[0] == "Deal 2 (line 5): N:x"
    assert blocks[1].startswith("Points") and blocks[2].startswith("Tricks")


# --- the result object ------------------------------------------------------------------------

LOW_TABLE = np.arange(24, dtype=np.int8).reshape(4, 6) - 3  # with low no trump


@pytest.mark.parametrize("values", [TABLE, LOW_TABLE], ids=["standard", "low-nt"])
def test_ddtable_indexes_by_every_spelling(values):
    t = DDTable(values, "points")
    assert t.strains == STRAINS + ((Strain.L,) if values.shape[1] == 6 else ())
    for i, seat in enumerate(Seat):
        for j, strain in enumerate(t.strains):
            want = int(values[i, j])
            seats = (seat, int(seat), seat.name, seat.name.lower(), seat.noun, seat.noun.upper())
            strains = (strain, int(strain), strain.name, strain.label, strain.label.lower(), strain.noun,
                       strain.noun.upper())
            for s in seats:
                for x in strains:
                    got = t[s, x]
                    assert got == want and type(got) is int, (s, x)
    assert t["N", "♥"] == int(values[0, 1]) and t["W", "no-trump"] == int(values[3, 4])


def test_ddtable_refuses_what_it_does_not_hold():
    t = DDTable(TABLE)
    with pytest.raises(KeyError, match="low no trump"):
        t["N", "LNT"]  # no such column in a standard table
    with pytest.raises(NotationError, match="unknown strain"):
        t["N", "X"]
    with pytest.raises(NotationError, match="unknown seat"):
        t["Q", "S"]
    with pytest.raises(TypeError):
        t["N"]
    with pytest.raises(ValueError, match=r"\(4, 5\)"):
        DDTable(np.zeros((5, 4)))
    with pytest.raises(ValueError, match="unknown mode"):
        DDTable(TABLE, "bids")


def test_ddtable_is_frozen_and_compares_by_value():
    src = TABLE.copy()
    t = DDTable(src, "tricks")
    src[0, 0] = 99  # a copy is kept
    assert t["N", "S"] == int(TABLE[0, 0])
    with pytest.raises(ValueError):
        t.values[0, 0] = 1  # read-only
    with pytest.raises(AttributeError):
        t.mode = "points"
    assert t == DDTable(TABLE, "tricks") and t != DDTable(TABLE, "points")
    assert hash(t) == hash(DDTable(TABLE, "tricks"))
    np.testing.assert_array_equal(np.asarray(t), TABLE)


@pytest.mark.parametrize("values", [TABLE, LOW_TABLE], ids=["standard", "low-nt"])
def test_ddtable_to_frame_to_dict_from_dict_round_trip(values):
    t = DDTable(values, "points")
    frame = t.to_frame()
    assert list(frame.index) == ["N", "E", "S", "W"] and frame.index.name == "leader"
    assert list(frame.columns) == ["S", "H", "D", "C", "NT"] + (["LNT"] if values.shape[1] == 6 else [])
    assert frame.columns.name == "strain"
    np.testing.assert_array_equal(frame.to_numpy(), values)
    assert frame.loc["E", "NT"] == t["E", "NT"]
    d = t.to_dict()
    assert d == table_to_dict(values)
    assert list(d["N"]) == [s.name for s in t.strains]  # S H D C N [L]: the JSON keys
    json.dumps(d)
    back = DDTable.from_dict(d, "points")
    assert back == t and back.strains == t.strains
    assert DDTable.from_dict(json.loads(json.dumps(d))) == t


@pytest.mark.parametrize("values", [TABLE, LOW_TABLE], ids=["standard", "low-nt"])
@pytest.mark.parametrize("mode", ["points", "tricks"])
def test_ddtable_text_is_the_table_format(values, mode):
    t = DDTable(values, mode)
    assert t.to_text() == format_table_text(values, mode) == str(t)
    # the functions take the object where they take an array
    assert format_table_text(t, mode) == t.to_text()
    assert deal_record("N:x", {mode: t}) == deal_record("N:x", {mode: values})
    assert format_deal_text("N:x", {mode: t}) == format_deal_text("N:x", {mode: values})


def test_text_table_is_unchanged():
    """The ``table`` format, byte for byte (``kaiser-sim solve`` prints it)."""
    want = (
        "Points for the leader's side (1 a trick, +5 for the trick with the 5H, -3 for the one with the 3S)\n"
        "Leader   S   H   D   C  NT\n"
        "N       -2  -1   0   1   2\n"
        "E        3   4   5   6   7\n"
        "S        8   9  10  11  12\n"
        "W       13  14  15  16  17"
    )
    assert DDTable(TABLE).to_text() == want
    low = format_table_text(LOW_TABLE, "tricks").splitlines()
    assert low[1] == "Leader   S   H   D   C  NT LNT"
    assert low[2] == "N       -3  -2  -1   0   1    2"
