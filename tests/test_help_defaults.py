"""The defaults ``--help`` shows are the defaults the commands use (issue 45).

Walks every option of every command:

- a default click shows (``show_default``) is the value the callback gets;
  where the callback replaces it when the option is not given (it asks
  :func:`kaiser_sim.cli.common.given`: the results' rules under ``--from``,
  the run's options under ``--resume``), the help must say so: the shown
  default is a text naming the alternative, or the option that brings it
  (``--resume``) says so in its own help;
- a default written in the help text (``[default: ...]``, for options whose
  value is computed) must be registered below with what it should read,
  numbers taken from the code's constants; an unregistered one fails, so a
  new computed default is checked when it is added;
- the report, study and simulate commands are run with their defaults (the
  library patched out for the first two, a tiny real run for the third)
  and get what their help says.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import click
from click.testing import CliRunner

from kaiser_sim import config
from kaiser_sim.cli import main, reference


def _contexts():
    parent = click.Context(main, info_name="kaiser-sim")
    for name, command in main.commands.items():
        yield name, command, click.Context(command, info_name=name, parent=parent)


def shown_defaults() -> dict[tuple[str, str], str]:
    """(command, option) -> the default its ``--help`` shows."""
    out = {}
    for name, command, ctx in _contexts():
        for p in command.params:
            text = reference.option_default(ctx, p)
            if text:
                out[(name, p.opts[0])] = text
    return out


def _number(n: int) -> str:
    return f"{n:,}"


#: defaults written in a help text (the option's value is computed when not given): what each must read.
#: Numbers from the constants the code uses.
WRITTEN = {
    ("solve", "--format"): "table for DEAL, jsonl for --input",
    ("simulate", "--workers"): "all cores",
    ("simulate", "--chunk-size"): f"{_number(config.SIMULATE_CHUNK_SIZE)}; fewer for a small run, at least "
                                  f"{config.SIMULATE_CHUNKS_PER_WORKER} parts a worker, so that the progress moves "
                                  f"early; {config.PLAY_CHUNK_SIZE} with --play",
    ("study", "--deals"): "the definition's",
    ("study", "--seed"): "the definition's",
    ("study", "--out"): "reports/studies/NAME",
    ("study", "--workers"): "all cores",
    ("report", "--deals"): None,  # the report's constants: checked against kaiser_sim.report below
    ("report", "--seed"): None,
    ("report", "--max-resolve"): None,
    ("report", "--studies"): "all but dd-bias",
    ("report", "--out"): "reports/<rules>-<deals>-<seed>",
    ("report", "--workers"): "all cores",
    ("hand", "--dealer"): "the seat on your right, so you speak first",
    ("hand", "--deals"): f"{_number(config.HAND_ADVISOR_DEALS)}; {_number(config.HAND_ADVISOR_KITTY_DEALS)} with a "
                         "kitty, where each deal is a search over the discards: about 30 ms a deal with kitty-4, 15 ms "
                         "with kitty-34, against 2 ms without",
    ("hand", "--max-candidates"): _number(config.AUCTION_MAX_CANDIDATES),
    ("match", "--engine"): "table (every preset has a table-play model), else dd with a note when the model cannot "
                           "be read",
    ("table-play-model", "--workers"): "all cores",
    ("simulate", "--rules"): "standard; with --resume, the run's",
    ("study", "--rules"): "with --from, the results' rules; else the definition's",
    ("report", "--rules"): "standard; with --from, the results' rules",
    ("make-model", "--csv"): "OUT/make_model.csv",
    ("make-model", "--json"): "OUT/make_model.json",
}


def test_every_written_default_is_registered_and_reads_as_registered():
    from kaiser_sim.report import DEFAULT_DEALS, DEFAULT_MAX_RESOLVE

    WRITTEN[("report", "--deals")] = str(DEFAULT_DEALS)
    WRITTEN[("report", "--seed")] = str(config.STUDY_SEED)
    WRITTEN[("report", "--max-resolve")] = str(DEFAULT_MAX_RESOLVE)
    written = {}
    for name, command, ctx in _contexts():
        for p in command.params:
            if isinstance(p, click.Option) and not p.show_default and p.help and "[default: " in p.help:
                written[(name, p.opts[0])] = reference.option_default(ctx, p)
    unregistered = sorted(set(written) - set(WRITTEN))
    assert not unregistered, f"a default written in --help, not checked here: {unregistered}"
    # an entry for an option another branch may rename or drop is allowed to be absent, never wrong
    wrong = {k: (v, WRITTEN[k]) for k, v in written.items() if " ".join(v.split()) != WRITTEN[k]}
    assert not wrong, wrong


def _given_names(command: click.Command) -> set[str]:
    """The parameters the command's callback replaces when not given."""
    source = inspect.getsource(inspect.unwrap(command.callback))
    names = set()
    for call in re.findall(r"(?:given\(ctx, |typed\()([^)]*)\)", source):
        names |= set(re.findall(r'"([a-z_]+)"', call))
    return names


def test_a_shown_default_the_callback_replaces_says_so():
    bad = []
    for name, command, ctx in _contexts():
        replaced = _given_names(command)
        resume = next((p for p in command.params if p.name == "resume"), None)
        for p in command.params:
            if not isinstance(p, click.Option) or p.name not in replaced or not p.show_default:
                continue
            says_so = isinstance(p.show_default, str) and p.show_default != str(p.default)
            brought_by_resume = resume is not None and "options it was started with" in (resume.help or "")
            if not (says_so or brought_by_resume):
                bad.append(f"{name} {p.opts[0]}")
    assert not bad, f"--help shows a default the command replaces, without saying so: {bad}"


def test_rules_shows_the_results_rules_where_they_apply():
    shown = shown_defaults()
    assert "results' rules" in shown[("study", "--rules")] and "standard" not in shown[("study", "--rules")]
    assert shown[("report", "--rules")].startswith("standard") and "results' rules" in shown[("report", "--rules")]
    assert "run's" in shown[("simulate", "--rules")]
    assert shown[("hand", "--rules")] == "standard" == shown[("solve", "--rules")]


# --- the defaults in use ------------------------------------------------------------------------


def test_report_uses_the_defaults_its_help_shows(monkeypatch, tmp_path):
    import kaiser_sim.report.make as report_module  # where the command finds make_report

    seen = {}

    def fake(out, deals, seed, rules, preset, studies, from_path, max_resolve, workers, progress, log, **kw):
        seen.update(deals=deals, seed=seed, rules=rules, max_resolve=max_resolve, studies=studies, workers=workers,
                    keep=kw["keep_results"])
        return None, {"pages": 1, "deals": deals, "seed": seed, "seconds": {"total": 0.0}, "out": str(out)}

    monkeypatch.setattr(report_module, "make_report", fake)
    shown = shown_defaults()
    r = CliRunner().invoke(main, ["report", "-q"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert str(seen["deals"]) == shown[("report", "--deals")]
    assert str(seen["seed"]) == shown[("report", "--seed")]
    assert str(seen["max_resolve"]) == shown[("report", "--max-resolve")]
    assert seen["rules"].label == "standard" and seen["studies"] is None and seen["workers"] is None
    assert seen["keep"] is True and shown[("report", "--keep-results")] == "keep-results"
    # with --from and no --rules: the results' rules (the command passes none)
    results = tmp_path / "r"
    results.mkdir()
    r = CliRunner().invoke(main, ["report", "-q", "--from", str(results)], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert seen["rules"] is None


def test_study_uses_the_defaults_its_help_shows(monkeypatch):
    import kaiser_sim.studies.runner as runner
    from kaiser_sim.studies import get_study

    seen = {}

    class Out:
        inputs = {"n": 1, "seed": 0}
        files = []

    def fake(definition, out, **kw):
        seen.update(definition=definition, out=out, **kw)
        return Out()

    monkeypatch.setattr(runner, "run_study", fake)
    r = CliRunner().invoke(main, ["study", "lead", "-q"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    d = get_study("lead").DEFINITION
    assert (seen["definition"].deals, seen["definition"].seed) == (d["deals"], d["seed"])  # "the definition's"
    assert seen["out"] == Path("reports/studies/lead") and seen["workers"] is None
    assert seen["rules"] is None  # run_study then takes the results' rules, else the definition's


def test_simulate_uses_the_defaults_its_help_shows(tmp_path):
    from kaiser_sim.runs.results import read_metadata

    shown = shown_defaults()
    out = tmp_path / "s"
    r = CliRunner().invoke(main, ["simulate", "-n", "8", "--out", str(out), "-w", "1", "-q"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    meta = read_metadata(out)
    assert str(meta["seed"]) == shown[("simulate", "--seed")]
    assert meta["mode"] == shown[("simulate", "--mode")]
    assert meta["rules"] == __import__("kaiser_sim.rules", fromlist=["get_preset"]).get_preset("standard").to_dict()


def test_match_engine_default_names_no_single_game():
    assert "the standard game" not in shown_defaults()[("match", "--engine")]


def test_hand_help_does_not_limit_table_play_to_the_standard_game():
    assert "standard game only" not in " ".join(reference.help_text("hand").split())
