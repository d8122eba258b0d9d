"""How games are checked: one frozen value, chosen once where a program starts (the command line's
`Reading.checking()`, or a library entry point from its keyword arguments) and passed down unchanged
to the replay, the commands and the workers (it pickles)."""
from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING

from pdn_tools.rules.core import Engine, engine_from_environment
from pdn_tools.text.records import record

if TYPE_CHECKING:      # a choice names them; reading alone does not load the variants
    from pdn_tools.rules.variants import RuleSet, Variant


@record(frozen=True)
class Checking:
    """`strict`: tolerated quirks of real files are errors; `variant`: replay every game as this
    variant instead of the one its tags name; `rules`: draws by these rules, else each variant's own;
    `engine`: the one games are read for and replayed on (by default the environment's, read when
    the value is made)."""

    strict: bool = False
    variant: Variant | None = None
    rules: RuleSet | None = None
    engine: Engine = field(default_factory=engine_from_environment)

    def __init__(self, strict: bool = False, variant: Variant | None = None, rules: RuleSet | None = None,
                 engine: Engine | None = None) -> None:
        """`engine` left out (or None): the environment's.  A choice of the wrong kind (a variant's
        name for its Variant) is a TypeError here, where the library's entry points make the value."""
        if engine is not None and not isinstance(engine, Engine):
            raise TypeError(f"engine must be an Engine (pdn_tools.rules.core: Engine(True), PURE), not {engine!r}")
        if variant is not None or rules is not None:      # the variants are loaded once a choice names them
            from pdn_tools.rules.variants import RuleSet, Variant
            if variant is not None and not isinstance(variant, Variant):
                raise TypeError(f"variant must be a Variant (VARIANTS[name], variant_by_name(name)), not {variant!r}")
            if rules is not None and not isinstance(rules, RuleSet):
                raise TypeError(f"rules must be a RuleSet (rules.variants.RULE_SETS[name]), not {rules!r}")
        object.__setattr__(self, "strict", strict)
        object.__setattr__(self, "variant", variant)
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "engine", engine_from_environment() if engine is None else engine)
