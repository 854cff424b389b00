"""The ``kaiser-sim`` command line, through click's CliRunner (plus one real
subprocess run for the entry points).  Solve tests use the real solver."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
import numpy as np
import pytest
from click.testing import CliRunner

from kaiser_sim import config
from kaiser_sim.cards import format_deal, format_hand, parse_deal
from kaiser_sim.cli import main
from kaiser_sim.cli.rules_options import rules_options
from kaiser_sim.cli.types import BID, DEAL, HAND, SEAT, STRAIN, StrainType
from kaiser_sim.game.table import dict_to_table

SEATS = ["N", "E", "S", "W"]
STRAINS = ["S", "H", "D", "C", "N"]
GOOD = "N:A.Q5.K9.AT8 J9.98.Q7.J9 QT8.AJ.8.Q7 K3.KT.AJT.K"  # deal 0 of seed 1


@pytest.fixture
def runner():
    return CliRunner()


def run(runner, *args, input=None):
    return runner.invoke(main, list(args), input=input)


def assert_bad_input(result, *fragments):
    """Exit 2, a message on stderr naming the problem, nothing on stdout."""
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    for fragment in fragments:
        assert fragment in result.stderr
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


# --- help -------------------------------------------------------------------------


@pytest.mark.parametrize("command", [[]] + [[name] for name in main.commands])
def test_every_command_has_help_with_an_example(runner, command):
    result = run(runner, *command, "--help")
    assert result.exit_code == 0
    assert "Usage:" in result.output
    assert "Example" in result.output
    assert "kaiser-sim " in result.output.split("Example")[-1]


# --- deal -------------------------------------------------------------------------


def test_deal_same_seed_same_output(runner):
    a = run(runner, "deal", "--count", "5", "--seed", "1")
    b = run(runner, "deal", "--count", "5", "--seed", "1")
    assert a.exit_code == 0 and a.stdout == b.stdout
    assert len(a.stdout.splitlines()) == 5


def test_deal_different_seeds_differ(runner):
    assert run(runner, "deal", "-n", "3", "--seed", "1").stdout != run(runner, "deal", "-n", "3", "--seed", "2").stdout


def test_deal_default_is_one_deal_with_seed_0(runner):
    result = run(runner, "deal")
    assert result.exit_code == 0
    assert result.stdout == run(runner, "deal", "--count", "1", "--seed", "0").stdout
    assert len(result.stdout.splitlines()) == 1


def test_deal_lines_are_canonical_full_deals(runner):
    lines = run(runner, "deal", "-n", "20", "--seed", "5").stdout.splitlines()
    for line in lines:
        hands = parse_deal(line)
        assert format_deal(hands) == line
        assert all(bin(int(h)).count("1") == 8 for h in hands)


def test_deal_count_extends_the_same_run(runner, monkeypatch):
    five = run(runner, "deal", "-n", "5", "--seed", "9").stdout.splitlines()
    monkeypatch.setattr(config, "DEAL_PRINT_CHUNK", 3)  # chunk boundaries must not show
    ten = run(runner, "deal", "-n", "10", "--seed", "9").stdout.splitlines()
    assert ten[:5] == five and len(ten) == 10


def test_deal_seed_1_first_deal(runner):
    assert run(runner, "deal", "--seed", "1").stdout == GOOD + "\n"


def test_deal_jsonl(runner):
    pbn = run(runner, "deal", "-n", "4", "--seed", "3").stdout.splitlines()
    result = run(runner, "deal", "-n", "4", "--seed", "3", "--format", "jsonl")
    assert result.exit_code == 0
    objs = [json.loads(line) for line in result.stdout.splitlines()]
    assert objs == [{"deal": d} for d in pbn]


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--count", "0"], "--count"),
        (["--count", "-3"], "--count"),
        (["--seed", "-1"], "--seed"),
        (["--format", "xml"], "--format"),
    ],
)
def test_deal_bad_options(runner, args, fragment):
    assert_bad_input(run(runner, "deal", *args), fragment)


# --- solve: output ----------------------------------------------------------------


def dd(deals, mode):
    from kaiser_sim.dd import dd_table

    return dd_table(np.asarray(deals, dtype=np.uint64), mode=mode)


def check_record_schema(obj, modes=("points", "tricks")):
    assert list(obj) == ["deal", *modes]
    assert isinstance(obj["deal"], str)
    for mode in modes:
        assert list(obj[mode]) == SEATS
        for leader in SEATS:
            assert list(obj[mode][leader]) == STRAINS
            for v in obj[mode][leader].values():
                assert type(v) is int


def test_pipe_deal_into_solve_jsonl(runner):
    deals = run(runner, "deal", "--count", "5", "--seed", "1").stdout
    result = run(runner, "solve", "--input", "-", "--format", "jsonl", input=deals)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert len(lines) == 5
    objs = [json.loads(line) for line in lines]
    for obj in objs:
        check_record_schema(obj)
        assert all(-2 <= v <= 12 for row in obj["points"].values() for v in row.values())
        assert all(0 <= v <= 8 for row in obj["tricks"].values() for v in row.values())
    assert [o["deal"] for o in objs] == deals.splitlines()


def test_solve_matches_dd_table(runner):
    text = run(runner, "deal", "-n", "6", "--seed", "11").stdout
    deals = np.array([parse_deal(line) for line in text.splitlines()])
    objs = [json.loads(line) for line in run(runner, "solve", "-i", "-", input=text).stdout.splitlines()]
    for mode in ("points", "tricks"):
        expected = dd(deals, mode)
        got = np.array([dict_to_table(o[mode]) for o in objs])
        np.testing.assert_array_equal(got, expected)


def test_solve_input_default_format_is_jsonl(runner, tmp_path):
    path = tmp_path / "deals.txt"
    path.write_text(GOOD + "\n")
    result = run(runner, "solve", "--input", str(path))
    assert result.exit_code == 0, result.output
    check_record_schema(json.loads(result.stdout))


@pytest.mark.parametrize("mode", ["points", "tricks"])
def test_solve_one_mode_only(runner, mode):
    result = run(runner, "solve", "-i", "-", "--mode", mode, "--format", "jsonl", input=GOOD)
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    check_record_schema(obj, modes=(mode,))
    np.testing.assert_array_equal(dict_to_table(obj[mode]), dd(parse_deal(GOOD)[None], mode)[0])


def test_solve_output_deal_is_canonical(runner):
    messy = "e:j9.98.q7.j9 qt8.aj.8.q7 k3.kt.ajt.k a.5q.9K.8ta"  # same deal as GOOD, written from E
    result = run(runner, "solve", "--format", "jsonl", "--mode", "tricks", messy)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["deal"] == GOOD


def table_rows(text, title_word):
    """The 4 rows {leader: [5 ints]} of the text table whose title starts with title_word."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(title_word))
    assert lines[start + 1].split() == ["Leader", "S", "H", "D", "C", "NT"]
    rows = [lines[start + 2 + k].split() for k in range(4)]
    return {r[0]: [int(v) for v in r[1:]] for r in rows}


def test_solve_table_contains_the_values(runner):
    result = run(runner, "solve", GOOD)
    assert result.exit_code == 0, result.output
    assert GOOD in result.stdout
    for mode, title in (("points", "Points"), ("tricks", "Tricks")):
        rows = table_rows(result.stdout, title)
        expected = dd(parse_deal(GOOD)[None], mode)[0]
        assert [rows[s] for s in SEATS] == expected.tolist()


def test_solve_table_one_mode(runner):
    result = run(runner, "solve", "--mode", "points", GOOD)
    assert result.exit_code == 0, result.output
    assert "Points" in result.stdout and "Tricks" not in result.stdout


def test_solve_table_many_deals_labels_lines(runner):
    text = "# two deals\n" + run(runner, "deal", "-n", "2", "--seed", "4").stdout
    result = run(runner, "solve", "-i", "-", "--format", "table", "--mode", "tricks", input=text)
    assert result.exit_code == 0, result.output
    assert "Deal 1 (line 2)" in result.stdout and "Deal 2 (line 3)" in result.stdout


def test_solve_json_object_for_deal_list_for_input(runner):
    one = run(runner, "solve", "--format", "json", GOOD)
    assert one.exit_code == 0, one.output
    obj = json.loads(one.stdout)
    check_record_schema(obj)
    many = run(runner, "solve", "-i", "-", "--format", "json", input=GOOD + "\n" + GOOD + "\n")
    docs = json.loads(many.stdout)
    assert docs == [obj, obj]


def test_solve_reads_jsonl_deals_and_its_own_output(runner):
    deals = run(runner, "deal", "-n", "3", "--seed", "2", "--format", "jsonl").stdout
    first = run(runner, "solve", "-i", "-", "--mode", "tricks", input=deals)
    assert first.exit_code == 0, first.output
    again = run(runner, "solve", "-i", "-", "--mode", "tricks", input=first.stdout)
    assert again.stdout == first.stdout


def test_solve_endgame(runner):
    # one card each, all spades: whoever holds the ace (N) wins the only trick
    result = run(runner, "solve", "--format", "jsonl", "N:A.-.-.- K.-.-.- Q.-.-.- J.-.-.-")
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    for mode in ("points", "tricks"):
        assert dict_to_table(obj[mode]).tolist() == [[1] * 5, [0] * 5, [1] * 5, [0] * 5]


def test_solve_progress_path_gives_the_same_output(runner, monkeypatch):
    text = run(runner, "deal", "-n", "12", "--seed", "8").stdout
    plain = run(runner, "solve", "-i", "-", input=text)
    monkeypatch.setattr("kaiser_sim.cli.deals._stderr_is_tty", lambda: True)
    monkeypatch.setattr(config, "PROGRESS_MIN_DEALS", 5)
    monkeypatch.setattr(config, "DD_TABLE_BATCH", 5)
    chunked = run(runner, "solve", "-i", "-", input=text)
    assert chunked.exit_code == 0, chunked.output
    assert chunked.stdout == plain.stdout


# --- solve: bad input -------------------------------------------------------------

BAD_DEALS = [
    ("card twice", "N:A.Q5.K9.AT8 J9.98.Q7.J9 QT8.AJ.8.Q7 K3.K5.AJT.K", "5H appears twice: N and W"),
    ("card twice in a hand", "N:AA.Q5.K9.AT8 J9.98.Q7.J9 QT8.AJ.8.Q7 K3.KT.AJT.K", "AS appears twice in N"),
    ("nine cards", "N:AJ.Q5.K9.AT8 9.98.Q7.J9 QT8.AJ.8.Q7 K3.KT.AJT.K", "N has 9 cards"),
    ("unequal lengths", "N:A.Q5.K9.AT8 J9.98.Q7.J9 QT8.AJ.8.Q7 K3.KT.AJ.K", "hands have unequal lengths"),
    ("three hands", "N:A.Q5.K9.AT8 J9.98.Q7.J9 QT8.AJ.8.Q7", "a deal needs 4 hands, got 3"),
    ("five hands", GOOD + " -.-.-.-", "a deal needs 4 hands, got 5"),
    ("unknown rank", "N:A.Q5.K9.AZ8 J9.98.Q7.J9 QT8.AJ.8.Q7 K3.KT.AJT.K", "unknown rank 'Z'"),
    ("seven of spades", "N:7.Q5.K9.AT8 J9.98.Q7.J9 QT8.AJ.8.Q7 K3.KT.AJT.K", "no 7 in spades"),
    ("five suits", "N:A.Q5.K9.AT8.- J9.98.Q7.J9 QT8.AJ.8.Q7 K3.KT.AJT.K", "N has 5 suits"),
    ("unknown seat", "X:A.Q5.K9.AT8 J9.98.Q7.J9 QT8.AJ.8.Q7 K3.KT.AJT.K", "unknown seat 'X'"),
    ("empty", "", "empty deal"),
    ("all voids", "N:-.-.-.- -.-.-.- -.-.-.- -.-.-.-", "empty deal"),
]


@pytest.mark.parametrize("deal, message", [b[1:] for b in BAD_DEALS], ids=[b[0] for b in BAD_DEALS])
def test_solve_bad_deal(runner, deal, message):
    assert_bad_input(run(runner, "solve", deal), message)


@pytest.mark.parametrize("deal, message", [b[1:] for b in BAD_DEALS], ids=[b[0] for b in BAD_DEALS])
def test_solve_bad_deal_in_input_names_the_line(runner, deal, message):
    line = deal or '{"deal": ""}'  # an empty line would be skipped: send the empty deal as JSON
    text = f"# deals\n{GOOD}\n\n{line}\n{GOOD}\n"
    assert_bad_input(run(runner, "solve", "-i", "-", input=text), f"line 4: {message}")


def test_solve_input_reports_every_bad_line_and_prints_nothing(runner, tmp_path):
    path = tmp_path / "deals.txt"
    path.write_text("\n".join([GOOD, BAD_DEALS[0][1], GOOD, "not a deal", '{"deal": 7}', "{oops"]) + "\n")
    result = run(runner, "solve", "--input", str(path), "--format", "table")
    assert_bad_input(
        result,
        "4 bad deals",
        "line 2: 5H appears twice: N and W",
        "line 4: a deal needs 4 hands, got 3",
        'line 5: a JSON line needs a "deal" string',
        "line 6: not valid JSON",
    )


def test_solve_input_without_deals(runner):
    assert_bad_input(run(runner, "solve", "-i", "-", input="# nothing here\n\n"), "no deals")


def test_solve_missing_file(runner, tmp_path):
    assert_bad_input(run(runner, "solve", "-i", str(tmp_path / "missing.txt")), "missing.txt")


@pytest.mark.parametrize(
    "args, input, fragment",
    [
        ([GOOD, "--input", "-"], GOOD, "not both"),
        ([], None, "give a DEAL"),
        (["--format", "csv", GOOD], None, "--format"),
        (["--mode", "bids", GOOD], None, "--mode"),
    ],
)
def test_solve_usage_errors(runner, args, input, fragment):
    result = run(runner, "solve", *args, input=input)
    assert_bad_input(result, fragment, "solve --help)")


# --- parameter types (kaiser_sim.cli.types) --------------------------------------


@click.command()
@click.option("--seat", type=SEAT)
@click.option("--strain", type=STRAIN)
@click.option("--trump", type=StrainType(low=False))
@click.option("--hand", type=HAND)
@click.option("--deal", type=DEAL)
@click.option("--bid", type=BID)
@rules_options
def probe(rules, **values):
    """Prints what each type read: repr for seats, strains and bids, the cards for hands and deals."""
    for name, value in values.items():
        if value is None:
            continue
        if name == "hand":
            value = format_hand(value)
        elif name == "deal":
            value = format_deal(value)
        click.echo(f"{name} {value!r}" if name != "bid" else f"bid {value}")


def read(*args):
    return CliRunner().invoke(probe, list(args))


@pytest.mark.parametrize("text, seat", [("N", "N"), ("n", "N"), ("east", "E"), (" South ", "S"), ("WEST", "W")])
def test_seat_type_reads_every_spelling(text, seat):
    from kaiser_sim.cards import Seat

    r = read("--seat", text)
    assert r.exit_code == 0, r.output
    assert r.stdout == f"seat {Seat[seat]!r}\n"


@pytest.mark.parametrize("text, strain", [("S", "S"), ("h", "H"), ("♦", "D"), ("clubs", "C"), ("N", "N"),
                                          ("nt", "N"), ("no trump", "N"), ("No-Trump", "N"), ("L", "L"),
                                          ("LNT", "L"), ("low no trump", "L")])
def test_strain_type_reads_key_label_noun_and_symbol(text, strain):
    from kaiser_sim.cards import Strain

    r = read("--strain", text)
    assert r.exit_code == 0, r.output
    assert r.stdout == f"strain {Strain[strain]!r}\n"


def test_strain_type_without_low_no_trump():
    from kaiser_sim.cards import Strain

    assert read("--trump", "NT").stdout == f"trump {Strain.N!r}\n"
    assert_bad_input(read("--trump", "LNT"), "Invalid value for '--trump'", "unknown strain 'LNT' (use S, H, D, C, NT)")


@pytest.mark.parametrize("text", ["AK93.5.AK.8", "AS KS 9S 3S 5H AD KD 8C", "A♠ K♠ 9♠ 3♠ 5♥ A♦ K♦ 8♣", "ad,kd,as,ks,9s,3s,5h,8c"])
def test_hand_type_reads_dots_and_card_lists(text):
    r = read("--hand", text)
    assert r.exit_code == 0, r.output
    assert r.stdout == "hand 'AK93.5.AK.8'\n"


def test_hand_and_deal_types_read_in_the_deck_of_the_rules():
    """The 7S is in the 34-card deck only; the rules count wherever --rules stands on the line."""
    assert_bad_input(read("--hand", "AK97.5.AK.8"), "Invalid value for '--hand'", "invalid hand: no 7 in spades")
    assert read("--hand", "AK97.5.AK.8", "--rules", "kitty-34").stdout == "hand 'AK97.5.AK.8'\n"
    assert read("--rules", "kitty-34", "--hand", "AK97.5.AK.8").stdout == "hand 'AK97.5.AK.8'\n"
    seven = "N:A7.Q5.K9.AT8 J9.98.Q7.J9 QT8.AJ.8.Q7 K3.KT.AJT.K".replace("AT8", "T8")  # 8 cards a hand
    assert_bad_input(read("--deal", seven), "invalid deal: no 7 in spades")
    assert read("--deal", seven, "--rules", "kitty-34").stdout == f"deal '{seven}'\n"
    # a kitty game deals 7 cards: an 8-card deal is refused by the hand size of the rules
    assert_bad_input(read("--deal", GOOD, "--rules", "kitty-4"), "invalid deal: N has 8 cards (at most 7)")


def test_bad_rules_are_named_before_the_deal_they_would_read():
    r = read("--deal", "N:7.Q5.K9.AT8 J9.98.Q7.J9 QT8.AJ.8.Q7 K3.KT.AJT.K", "--rules", "nope")
    assert_bad_input(r, "unknown rules preset 'nope'")
    assert "invalid deal" not in r.stderr


def test_deal_type_reads_any_first_seat_and_case():
    r = read("--deal", "e:j9.98.q7.j9 qt8.aj.8.q7 k3.kt.ajt.k a.5q.9K.8ta")
    assert r.exit_code == 0, r.output
    assert r.stdout == f"deal '{GOOD}'\n"


@pytest.mark.parametrize("text, bid", [("8", "8"), ("8NT", "8NT"), ("8n", "8NT"), ("8 no trump", "8NT"),
                                       ("8NT-low", "8NT-low"), ("8ntl", "8NT-low"), ("pass", None), ("p", None)])
def test_bid_type_reads_bids_and_pass(text, bid):
    r = read("--bid", text)
    assert r.exit_code == 0, r.output
    assert r.stdout == ("" if bid is None else f"bid {bid}\n")


@pytest.mark.parametrize("args, messages", [
    (["--seat", "X"], ["Invalid value for '--seat'", "unknown seat 'X' (use N, E, S or W)"]),
    (["--seat", "NE"], ["unknown seat 'NE'"]),
    (["--strain", "T"], ["Invalid value for '--strain'", "unknown strain 'T' (use S, H, D, C, NT or LNT)"]),
    (["--hand", "ZZ"], ["Invalid value for '--hand'", "invalid hand: cannot read 'ZZ'"]),
    (["--hand", "AS AS"], ["invalid hand: AS appears twice in the hand"]),
    (["--hand", "AK93.5.AK"], ["invalid hand: the hand has 3 suits"]),
    (["--deal", BAD_DEALS[0][1]], ["Invalid value for '--deal'", "invalid deal: 5H appears twice: N and W"]),
    (["--deal", "N:A.Q5.K9.AT8"], ["invalid deal: a deal needs 4 hands, got 1"]),
    (["--bid", "seven"], ["Invalid value for '--bid'", "cannot read the bid 'seven' (write 7, 7NT, 7NT-low or pass)"]),
    (["--bid", "8 NT low please"], ["cannot read the bid"]),
])
def test_types_refuse_bad_values_with_exit_2_and_the_library_message(args, messages):
    assert_bad_input(read(*args), "Usage:", *messages)


def test_type_metavars_are_the_vocabulary_keys():
    from kaiser_sim.cards import Seat, Strain
    from kaiser_sim.cli import types

    assert types.SEAT_KEYS == tuple(s.name for s in Seat)
    assert types.ALL_STRAIN_KEYS == tuple(s.name for s in Strain)
    text = CliRunner().invoke(probe, ["--help"]).stdout
    for metavar in ("--seat [N|E|S|W]", "--strain [S|H|D|C|N|L]", "--trump [S|H|D|C|N]", "--hand HAND",
                    "--deal DEAL", "--bid BID"):
        assert metavar in text


def test_seat_and_strain_types_complete_their_keys():
    assert [c.value for c in SEAT.shell_complete(None, None, "")] == ["N", "E", "S", "W"]
    assert [c.value for c in STRAIN.shell_complete(None, None, "n")] == ["N"]
    assert [c.value for c in StrainType(low=False).shell_complete(None, None, "l")] == []


def test_the_commands_read_through_the_types():
    """play --strain/--leader, hand --seat/--dealer/--current-bid and HAND: the
    library's spellings and messages."""
    assert_bad_input(run(CliRunner(), "play", GOOD, "--strain", "X", "--leader", "N"),
                     "Invalid value for '--strain'", "unknown strain 'X'")
    assert_bad_input(run(CliRunner(), "play", GOOD, "--strain", "L", "--leader", "N"),
                     "low no trump (--strain L) is played only under rules with low_nt")
    assert_bad_input(run(CliRunner(), "play", GOOD, "--strain", "nt", "--leader", "X"),
                     "Invalid value for '--leader'", "unknown seat 'X'")
    assert_bad_input(run(CliRunner(), "play", "N:AQJ.KT.9.A8", "--strain", "H", "--leader", "N"),
                     "invalid deal: a deal needs 4 hands, got 1")
    assert_bad_input(run(CliRunner(), "hand", "AK93.5.AK.8", "--seat", "X"), "Invalid value for '--seat'")
    assert_bad_input(run(CliRunner(), "hand", "AK93.5.AK.8", "--current-bid", "seven", "--dealer", "N"),
                     "Invalid value for '--current-bid'", "cannot read the bid 'seven'")
    assert_bad_input(run(CliRunner(), "hand", "AS", "KS", "ZZ"), "Invalid value for 'HAND'", "unknown card 'ZZ'")
    words = run(CliRunner(), "hand", "AS", "KS 9S", "3S", "5H AD KD 8C", "--seat", "south", "--dealer", "s",
                "--current-bid", "8", "-n", "20", "--format", "json", "--no-specials")
    assert words.exit_code == 0, words.output
    doc = json.loads(words.stdout)
    assert (doc["hand"], doc["seat"], doc["dealer"], doc["current_bid"]) == ("AK93.5.AK.8", "S", "S", "8")


# --- the real entry points --------------------------------------------------------

BAD = BAD_DEALS[0][1]


def entry_points():
    yield [sys.executable, "-m", "kaiser_sim"]
    script = Path(sys.executable).parent / "kaiser-sim"
    if script.exists():
        yield [str(script)]


@pytest.mark.parametrize("command", list(entry_points()), ids=lambda c: Path(c[-1]).name)
def test_entry_point_bad_deal_exits_2_without_traceback(command):
    proc = subprocess.run([*command, "solve", BAD], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "5H appears twice: N and W" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_console_script_is_installed():
    assert (Path(sys.executable).parent / "kaiser-sim").exists()


def test_entry_point_deal_then_solve():
    deal = subprocess.run([sys.executable, "-m", "kaiser_sim", "deal", "--seed", "1"], capture_output=True, text=True)
    assert deal.returncode == 0 and deal.stdout == GOOD + "\n"
    solve = subprocess.run(
        [sys.executable, "-m", "kaiser_sim", "solve", "-i", "-", "--mode", "tricks"],
        input=deal.stdout,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert solve.returncode == 0, solve.stderr
    check_record_schema(json.loads(solve.stdout), modes=("tricks",))


@pytest.mark.parametrize("args", [
    ["report", "--deals", "100", "--out", "/proc/kaiser-sim-test/out"],
    ["match", "-a", "ev", "-b", "ev", "-n", "2", "--out", "/proc/kaiser-sim-test/out"],
    ["hand", "AK93.5.AK.8", "--deals", "20", "--plot", "/proc/kaiser-sim-test/odds.png"],
    ["study", "lead", "--deals", "2", "--out", "/proc/kaiser-sim-test/out"],
])
def test_unwritable_outputs_are_refused_before_any_work(args):
    """An output that cannot be written: a message naming it and exit status 2,
    not a traceback after the work."""
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2, r.output
    assert "/proc/kaiser-sim-test" in r.output and "Traceback" not in r.output
