"""What the command line tells a user who got something wrong (issue 32).

Every hint in a refusal names an option the command has, and where it
suggests a command line, that command line works: each case below makes a
refusal, takes the hint out of the message and runs it.  A usage mistake is
one line with the ``--help`` pointer on it; the ranges and lists ``--help``
prints come from the same place as the checks.
"""

from __future__ import annotations

import re
import shlex
import shutil

import click
import pytest
from click.testing import CliRunner

from kaiser_sim import config
from kaiser_sim.runs import results as res
from kaiser_sim.cli import main
from kaiser_sim.studies import all_study_names


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args], prog_name="kaiser-sim")


def refused(*args) -> str:
    """The message of a refusal (exit 2, nothing on stdout)."""
    result = cli(*args)
    assert result.exit_code == 2, (args, result.output, result.exception)
    assert result.stdout == "" and "Traceback" not in result.output
    return result.stderr


def options_of(command: str) -> set[str]:
    cmd = main.commands[command]
    return {o for p in cmd.params for o in (*p.opts, *p.secondary_opts) if o.startswith("--")} | {"--help"}


def assert_named_options_exist(message: str, command: str) -> None:
    """Every --option in ``message`` is one of ``command``'s, or of the
    command a ``kaiser-sim CMD ...`` in the message names."""
    named = {m.group(1): set(re.findall(r"--[a-z][a-z-]*", m.group(2)))
             for m in re.finditer(r"kaiser-sim ([a-z-]+)([^;()]*)", message)}
    elsewhere = set().union(*named.values()) if named else set()
    for cmd, opts in named.items():
        assert opts <= options_of(cmd), (cmd, opts - options_of(cmd), message)
    rest = set(re.findall(r"--[a-z][a-z-]*", message)) - elsewhere
    assert rest <= options_of(command), (command, rest - options_of(command), message)


def suggested_command(message: str) -> list[str]:
    """The ``kaiser-sim ...`` command line a message suggests, as arguments."""
    m = re.search(r"kaiser-sim ((?:[^\s;,()]|, )+(?: [^\s;,()]+)*)", message)
    assert m, message
    return shlex.split(m.group(1))


@pytest.fixture(scope="module")
def run100(tmp_path_factory):
    """A complete points run of 100 deals in 2 parts."""
    out = tmp_path_factory.mktemp("hints") / "run"
    assert cli("simulate", "-n", 100, "--seed", 1, "--chunk-size", 50, "--mode", "points", "--workers", 1,
               "--out", out, "-q").exit_code == 0
    return out


def test_simulate_into_a_used_out(run100, tmp_path):
    out = tmp_path / "run"
    shutil.copytree(run100, out)
    again = ["simulate", "-n", 100, "--seed", 1, "--chunk-size", 50, "--mode", "points", "--workers", 1, "--out", out,
             "-q"]
    message = refused(*again)
    assert_named_options_exist(message, "simulate")
    assert "--resume finishes that run" in message and "--force replaces it" in message
    assert cli(*again, "--force").exit_code == 0
    assert cli("simulate", "--resume", "--out", out, "-q").exit_code == 0


def test_resume_with_other_options(run100, tmp_path):
    out = tmp_path / "run"
    shutil.copytree(run100, out)
    message = refused("simulate", "--resume", "--out", out, "-n", 200, "-q")
    assert_named_options_exist(message, "simulate")
    assert "Leave them out" in message and "give --force instead of --resume" in message
    assert cli("simulate", "--resume", "--out", out, "-q").exit_code == 0  # left out
    result = cli("simulate", "--force", "--out", out, "-n", 200, "--workers", 1, "-q")  # --force instead
    assert result.exit_code == 0, result.output
    assert res.info(out)["rows"] == 200


def test_study_into_a_used_out_names_its_force(run100, tmp_path):
    """``study`` simulates into OUT/results; run again with other deals it
    says to give --force (which it has), and --force works."""
    out = tmp_path / "study"
    (out / "results").parent.mkdir()
    shutil.copytree(run100, out / "results")
    args = ["study", "bid-odds", "--deals", 150, "--seed", 1, "--out", out, "--workers", 1, "-q"]
    message = refused(*args)
    assert_named_options_exist(message, "study")
    assert "Give --force" in message and "leave them out" not in message.lower()
    result = cli(*args, "--force")
    assert result.exit_code == 0, result.output
    assert res.info(out / "results")["rows"] == 150


def test_a_damaged_run_is_refused_with_each_command_s_own_options(run100, tmp_path):
    """A part of the run is damaged: ``simulate --resume`` says to move it
    away or give --force instead of --resume; ``study``, which simulates for
    itself and has no --resume, says to give --force (it has), and --force
    works."""
    for where in (tmp_path / "run", tmp_path / "study" / "results"):
        shutil.copytree(run100, where)
        part = where / res.part_name(1)
        part.write_bytes(part.read_bytes()[:64])
    message = refused("simulate", "--resume", "--out", tmp_path / "run", "-q")
    assert_named_options_exist(message, "simulate")
    assert "give --force instead of --resume" in message, message
    args = ["study", "bid-odds", "--deals", 100, "--seed", 1, "--out", tmp_path / "study", "--workers", 1, "-q"]
    message = refused(*args)
    assert_named_options_exist(message, "study")
    assert "--resume" not in message and "give --force" in message, message
    result = cli(*args, "--force")
    assert result.exit_code == 0, result.output
    assert res.info(tmp_path / "study" / "results")["rows"] == 100


@pytest.mark.parametrize("command", ["study", "report"])
def test_from_an_incomplete_run_suggests_a_command_that_finishes_it(run100, tmp_path, command):
    out = tmp_path / "partial run"  # a space: the suggested command line is quoted
    shutil.copytree(run100, out)
    (out / res.part_name(1)).unlink()
    args = [command, *(["bid-odds"] if command == "study" else []), "--from", out, "--out", tmp_path / "o", "-q"]
    message = refused(*args)
    assert "allow_incomplete" not in message  # a Python argument, not an option
    assert_named_options_exist(message, command)
    suggested = suggested_command(message)
    assert suggested[:2] == ["simulate", "--resume"], message
    assert cli(*suggested, "--workers", 1, "-q").exit_code == 0
    if command == "study":  # (the report takes a minute: its refusal and the hint are checked)
        assert cli(*args).exit_code == 0


# --- usage mistakes: one line ---------------------------------------------------------------------


@pytest.mark.parametrize("args, fragment", [
    (["simulate", "--bogus"], "No such option '--bogus'"),
    (["nope"], "No such command 'nope'"),
    (["--bogus"], "No such option '--bogus'"),
    (["hand", "AKQJT98.5.-.-", "--deals", "1"], "Invalid value for '--deals'"),
    (["deal", "-n", "x"], "Invalid value for '--count'"),
    (["solve"], "give a DEAL"),
    (["simulate", "--deals"], "Option '--deals' requires an argument"),  # click's parser gives it no context
    (["hand", "AKQJT98.5.-.-", "--seat"], "Option '--seat' requires an argument"),
])
def test_a_usage_mistake_is_one_line_with_the_help_pointer(args, fragment):
    message = refused(*args)
    assert message.count("\n") == 1 and message.startswith("Error: ") and fragment in message, message
    command = " ".join(a for a in args[:1] if a in main.commands)
    assert message.rstrip().endswith(f"(see kaiser-sim {command + ' ' if command else ''}--help)"), message


# --- --help says what the checks do ---------------------------------------------------------------


def _range_in_help(command: str, option: str) -> tuple[int, int]:
    text = cli(command, "--help").output
    block = text[text.index(option):]
    m = re.search(r"\[(?:[^\]]*; )?(\d+)<=x<=(\d+)\]", " ".join(block.split()))
    return int(m.group(1)), int(m.group(2))


def test_hand_deals_range_is_what_the_advisor_takes():
    low, high = _range_in_help("hand", "--deals")
    assert (low, high) == (config.HAND_MIN_DEALS, config.HAND_MAX_DEALS)
    from kaiser_sim.strategy.advisor import AdvisorInputError, advise

    with pytest.raises(AdvisorInputError, match=f"at least {low}"):
        advise("AKQJT98.5.-.-", n=low - 1)


def test_report_deals_range_is_what_the_report_takes():
    from kaiser_sim.report import MIN_DEALS

    assert _range_in_help("report", "--deals") == (MIN_DEALS, config.STUDY_MAX_DEALS)


def test_study_help_names_every_study():
    help_text = " ".join(cli("study", "--help").output.split()).replace("- ", "-")
    for name in all_study_names():
        assert name in help_text, name
    assert isinstance(main.commands["study"], click.Command)
