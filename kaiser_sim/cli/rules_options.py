"""The rules on the command line: the shared ``--rules PRESET`` / ``--rule
key=value`` options and the ``rules`` command that lists the presets.

Wiring::

    from .rules_options import rules_options

    @click.command()
    @rules_options
    def solve(..., rules):      # rules: a kaiser_sim.rules.Rules
        ...

``rules_options`` adds ``--rules PRESET`` (default ``standard``; a path to
a ``.json`` file written by :meth:`Rules.to_json` also works) and the
repeatable ``--rule key=value``, and passes the resolved :class:`Rules` to
the command as ``rules``.  A bad preset, key, value or combination stops
the command with a message naming it and exit status 2.

The two options are eager (read before the command's other parameters), so
a parameter type whose reading depends on the rules (a hand or deal of the
34-card deck) can ask :func:`rules_of` for them while the command line is
parsed; the command gets the same object.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import click

from .. import config
from ..rules import PRESETS, Rules, RulesError, get_preset, options_markdown


class RulesInputError(click.ClickException):
    """A bad ``--rules`` / ``--rule``: message on stderr, exit status 2."""

    exit_code = 2


def rules_from_cli(preset: str, overrides=()) -> Rules:
    """The :class:`Rules` for ``--rules PRESET`` and ``--rule key=value``
    overrides; :class:`RulesInputError` (exit 2) naming the bad preset, key,
    value or contradiction."""
    try:
        if preset.lower().endswith(".json"):
            base = Rules.from_json(read_rules_file(preset))
        else:
            base = get_preset(preset)
        return base.with_overrides(list(overrides))
    except RulesError as e:
        raise RulesInputError(str(e)) from None


def read_rules_file(name: str) -> str:
    """The text of the rules ``.json`` file ``name``: :class:`RulesError` if it
    is missing, not a regular file, larger than
    :data:`kaiser_sim.config.MAX_DEFINITION_BYTES` or not UTF-8 text."""
    path = Path(name)
    shown = name if len(name) <= 80 else name[:60] + "..."
    try:
        if not path.is_file():
            raise RulesError(f"rules file '{shown}' not found" + (" (it is a directory)" if path.is_dir() else ""))
        if path.stat().st_size > config.MAX_DEFINITION_BYTES:
            raise RulesError(f"rules file '{shown}' is larger than {config.MAX_DEFINITION_BYTES:,} bytes: "
                             "not a rules file")
        data = path.read_bytes()
    except OSError as e:
        raise RulesError(f"rules file '{shown}' cannot be read: {e.strerror or e}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise RulesError(f"rules file '{shown}' is not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start}); "
                         "write it with kaiser-sim rules PRESET --format json") from None


#: where :func:`rules_of` keeps the command's rules (``ctx.meta``: one command a run)
_META_KEY = "kaiser_sim.cli.rules"


def rules_of(ctx: click.Context | None) -> Rules:
    """The rules of the command being parsed: its ``--rules`` / ``--rule``,
    resolved once (:class:`RulesInputError` if they are bad), or ``standard``
    for a command without them (or without a context)."""
    if ctx is None:
        return get_preset("standard")
    if _META_KEY not in ctx.meta:
        ctx.meta[_META_KEY] = rules_from_cli(ctx.params.get("rules_preset", "standard"),
                                             ctx.params.get("rule_overrides", ()))
    return ctx.meta[_META_KEY]


_RULES_HELP = "Rules preset (" + ", ".join(PRESETS) + "), or a rules .json file.  See: kaiser-sim rules"
_RULE_HELP = "Override one rules option, KEY=VALUE (repeatable), e.g. --rule target=62.  See: kaiser-sim rules PRESET"


def rules_options(f=None, *, default: str = "standard"):
    """Decorator: add ``--rules PRESET`` and repeatable ``--rule KEY=VALUE``
    to a click command and call it with ``rules=<Rules>``.

    ``default``: the default ``--help`` shows for ``--rules``, when the
    command's effective default is not always ``standard`` (``study`` and
    ``report`` take the rules of the results they read, ``simulate
    --resume`` those of the run): ``@rules_options(default="standard; with
    --from, the results' rules")``.  The command still receives
    ``standard`` resolved; it decides, with :func:`kaiser_sim.cli.common.given`,
    whether the option was given."""
    if f is None:
        return functools.partial(rules_options, default=default)

    @functools.wraps(f)
    def wrapper(*args, rules_preset, rule_overrides, **kwargs):
        ctx = click.get_current_context(silent=True)
        kwargs["rules"] = rules_from_cli(rules_preset, rule_overrides) if ctx is None else rules_of(ctx)
        return f(*args, **kwargs)

    wrapper = click.option("--rule", "rule_overrides", multiple=True, metavar="KEY=VALUE", help=_RULE_HELP,
                           is_eager=True)(wrapper)
    wrapper = click.option("--rules", "rules_preset", default="standard", show_default=default == "standard",
                           metavar="PRESET", help=_RULES_HELP + ("" if default == "standard" else f"  [default: {default}]"),
                           is_eager=True)(wrapper)
    return wrapper


def preset_lines() -> list[str]:
    """One line per preset: name and summary."""
    width = max(len(n) for n in PRESETS)
    return [f"{name:<{width}}  {summary}" for name, (_, summary) in PRESETS.items()]


def rules_lines(r: Rules, title: str) -> list[str]:
    """Every option of ``r``: name, value, one-line explanation; a ``*``
    marks values that differ from ``standard``."""
    std = PRESETS["standard"][0]
    rows = r.describe()
    wn = max(len(n) for n, _, _ in rows)
    wv = max(len(v) for _, v, _ in rows) + 1
    out = [title, ""]
    for name, value, help_ in rows:
        mark = "*" if getattr(r, name) != getattr(std, name) else ""
        out.append(f"{name:<{wn}}  {value + mark:<{wv}}  {help_}")
    out.append("")
    out.append("* differs from standard.  Change an option with --rule KEY=VALUE.")
    return out


@click.command("rules")
@click.argument("preset", required=False)
@click.option("--rule", "overrides", multiple=True, metavar="KEY=VALUE",
              help="Show the preset with this option changed (repeatable); checks the combination.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True,
              help="text: readable; json: the options as one JSON object (a preset's, or every preset's); "
              "markdown: the option table (name, type, standard default, meaning).")
def rules(preset, overrides, fmt):
    """List the rules presets, or show every option of one.

    Without PRESET: one line per preset.  With PRESET: every option with its
    value and a one-line explanation.  Every command that depends on the
    rules takes --rules PRESET and repeatable --rule KEY=VALUE.

    \b
    Examples:
        kaiser-sim rules
        kaiser-sim rules tournament
        kaiser-sim rules standard --rule target=62 --rule bid_out=none
        mkdir -p runs
        kaiser-sim rules kitty-34 --format json > runs/rules.json
    """
    if preset is None:
        if overrides:
            raise RulesInputError("--rule needs a PRESET to change (e.g. kaiser-sim rules standard --rule target=62)")
        if fmt == "json":
            click.echo(json.dumps({name: r.to_dict() for name, (r, _) in PRESETS.items()}, indent=2))
        elif fmt == "markdown":
            click.echo(options_markdown())
        else:
            click.echo("\n".join(preset_lines()))
        return
    r = rules_from_cli(preset, overrides)
    if fmt == "json":
        click.echo(json.dumps(r.to_dict(), indent=2))
    elif fmt == "markdown":
        click.echo("| option | value | meaning |\n|---|---|---|")
        for name, value, help_ in r.describe():
            click.echo(f"| `{name}` | `{value}` | {help_} |")
    else:
        name = preset.lower()
        if name in PRESETS and not overrides:
            title = f"Rules preset {name}: {PRESETS[name][1]}"
        else:
            title = f"Rules: {r.label}"
        click.echo("\n".join(rules_lines(r, title)))


__all__ = ["rules", "rules_options", "rules_of", "rules_from_cli", "read_rules_file", "RulesInputError"]
