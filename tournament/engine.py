"""The Django side's single door to the rules engine (``scoring/``, pure Python, no Django).

Everything the web app asks of the engine goes through here, so that the rest of
``tournament/`` depends on a handful of functions rather than on the engine's modules.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from scoring import rules as engine_rules
from scoring.simulate import simulate_match

DEFAULT_RULE_SET = "goliath-tournament"

# The rule sets' names on screen; an engine rule set missing here shows its code name.
RULE_SET_LABELS = {
    "goliath-tournament": _("Goliath tournament rules"),
    "goliath-family": _("Goliath family rules (2 to 6 players)"),
    "travel-tour": _("Travel Tour Edition"),
}


def rule_set_names() -> list[str]:
    """The names of the engine's rule sets, the default first."""
    return sorted(engine_rules.RULE_SETS, key=lambda name: (name != DEFAULT_RULE_SET, name))


def rule_set_choices() -> list[tuple[str, Any]]:
    """Choices for ``Tournament.rules`` (a callable, so a new engine rule set needs no migration)."""
    return [(name, RULE_SET_LABELS.get(name, name)) for name in rule_set_names()]


def rule_set(name: str, *, target: int | None = None) -> engine_rules.RuleSet:
    """The engine's RuleSet called ``name``, with ``target`` overriding its target score."""
    return engine_rules.rule_set(name, target=target)


def simulated_match_record(
    *, names: list[str], seed: int, rules: str = DEFAULT_RULE_SET, target: int | None = None
) -> dict[str, Any]:
    """A whole legal match between ``names`` (in seat order), from the engine's simulator.

    Every claim in it is right; the record follows docs/record-format.md.
    """
    return simulate_match(players=len(names), names=names, seed=seed, rules=rules, target=target)
