"""Formatting of double-dummy tables (no solver needed)."""

import json

import numpy as np
import pytest

from kaiser_sim.dd_format import (
    LEADER_KEYS,
    STRAIN_KEYS,
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
