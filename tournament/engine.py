"""The Django side's single door to the rules engine (``scoring/``).

The engine is pure Python and knows nothing of Django. Everything the web app needs from it
goes through the functions here, so that the rest of ``tournament/`` does not care whether a
rule set comes from ``scoring.rules`` or, while the engine is still being written, from the
names of the rule book (``docs/rules.md``).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

DEFAULT_RULE_SET = "goliath-tournament"

# The rule sets of the rule book (docs/rules.md), with their names on screen. The engine's
# scoring.rules.RULE_SETS is the authority; this list is only used while it cannot be imported.
RULE_SET_LABELS = {
    "goliath-tournament": _("Goliath tournament rules"),
    "goliath-family": _("Goliath family rules (2 to 6 players)"),
    "travel-tour": _("Travel Tour Edition"),
}


def _engine_rule_sets() -> dict[str, Any] | None:
    """The engine's ``RULE_SETS``, or None while the engine package does not exist yet."""
    try:
        from scoring.rules import RULE_SETS
    except ModuleNotFoundError as missing:
        if missing.name in {"scoring", "scoring.rules"}:
            return None
        raise
    except ImportError:
        # scoring/ exists but does not define RULE_SETS (yet): the engine is being written.
        return None
    return RULE_SETS


def engine_available() -> bool:
    return _engine_rule_sets() is not None


def rule_set_names() -> list[str]:
    """The names of the rule sets a tournament may use, the default first."""
    rule_sets = _engine_rule_sets()
    names = list(rule_sets) if rule_sets is not None else list(RULE_SET_LABELS)
    return sorted(names, key=lambda name: (name != DEFAULT_RULE_SET, name))


def rule_set_choices() -> list[tuple[str, Any]]:
    """Choices for ``Tournament.rules`` (a callable, so new engine rule sets need no migration)."""
    return [(name, RULE_SET_LABELS.get(name, name)) for name in rule_set_names()]


def rule_set(name: str, *, target: int | None = None) -> Any:
    """The engine's RuleSet called ``name``, with ``target`` overriding its target score.

    Raises ImportError while the engine does not exist, KeyError for an unknown name.
    """
    from scoring import rules

    helper = getattr(rules, "rule_set", None)
    if helper is not None:
        return helper(name, target=target)
    import dataclasses

    base = rules.RULE_SETS[name]
    return dataclasses.replace(base, target=target) if target is not None else base


def simulated_match_record(
    *, names: list[str], seed: int, rules: str = DEFAULT_RULE_SET, target: int | None = None
) -> dict[str, Any]:
    """A whole legal match between ``names`` (in seat order), from the engine's simulator.

    Every claim in it is right; the record follows docs/record-format.md.
    """
    from scoring.simulate import simulate_match

    return simulate_match(
        players=len(names), names=names, seed=seed, rules=rules, target=target
    )
