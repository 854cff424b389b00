"""Reading and writing lists of deals (no solver needed)."""

import json

import numpy as np
import pytest

from kaiser_sim.cards import format_deal
from kaiser_sim.deal import deal_batch
from kaiser_sim.runs.deal_io import MAX_REPORTED_ERRORS, DealInputError, deal_lines, read_deals

DEALS = deal_batch(3, seed=4)


def test_round_trip_both_formats():
    for fmt in ("pbn", "jsonl"):
        deals, numbers = read_deals(deal_lines(DEALS, fmt))
        np.testing.assert_array_equal(deals, DEALS)
        assert numbers.tolist() == [1, 2, 3]


def test_jsonl_lines():
    lines = list(deal_lines(DEALS, "jsonl"))
    assert json.loads(lines[0]) == {"deal": format_deal(DEALS[0])}


def test_blank_and_comment_lines_are_skipped_but_counted():
    pbn = [format_deal(d) for d in DEALS]
    text = ["# header", "", pbn[0], "   ", "  # indented comment", pbn[1] + "\r\n", json.dumps({"deal": pbn[2], "x": 1})]
    deals, numbers = read_deals(text)
    np.testing.assert_array_equal(deals, DEALS)
    assert numbers.tolist() == [3, 6, 7]


def test_all_bad_lines_are_collected():
    text = [format_deal(DEALS[0]), "junk", "", "{not json", '["N:..."]']
    with pytest.raises(DealInputError) as info:
        read_deals(text)
    assert [n for n, _ in info.value.errors] == [2, 4, 5]
    assert str(info.value).splitlines()[0] == "line 2: a deal needs 4 hands, got 1"


def test_long_error_lists_are_cut():
    with pytest.raises(DealInputError) as info:
        read_deals(["junk"] * (MAX_REPORTED_ERRORS + 5))
    lines = str(info.value).splitlines()
    assert len(lines) == MAX_REPORTED_ERRORS + 1
    assert lines[-1] == "... and 5 more bad lines"
    assert len(info.value.errors) == MAX_REPORTED_ERRORS + 5


def test_no_deals_is_an_error():
    with pytest.raises(DealInputError, match="no deals in deals.txt"):
        read_deals(["# only a comment", ""], source="deals.txt")


def test_unknown_format():
    with pytest.raises(ValueError):
        list(deal_lines(DEALS, "lin"))
