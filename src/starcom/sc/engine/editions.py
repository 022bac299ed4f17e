"""Edition switches (RULES.md, "Editions"): data, read by the rules, never scattered ifs."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from ...kit.pickling import reduce_dataclass


@dataclass(frozen=True, slots=True)
class Edition:
    name: str
    hand_limit: int
    may_skip_draw_at_limit: bool  # HAND-1 (standard) vs HAND-2 (classic)
    trade_draw_needs_room: bool  # TRADE-1 [S]
    explore_mandatory: bool  # EXPLORE-1
    lethal_at_equal: bool  # damage >= hp (standard) or damage > hp (classic)
    damage_heals_at_end: bool  # END-3 [S] vs REPAIR-1 [C]
    repair: bool  # REPAIR-1 [C]
    abandoned_fighters_die: bool  # FIGHTER-2 [S]
    fighter_caps: bool  # BUILD-6 [C]
    ship_cap: bool  # BUILD-4 [S]
    build_ban_contested: bool  # BUILD-5 [C]: contested system; [S]: combat + enemy ships remain
    fighters_develop: bool  # DEV-1: [C] any ship, [S] non-Fighter ship
    no_jump_between_same_opponent: bool  # MOVE-4 [S]

    def __reduce__(self) -> tuple[Any, ...]:  # (the compiled record pickles through this)
        return reduce_dataclass(self)


EDITIONS: Final[dict[str, Edition]] = {
    "standard": Edition(
        name="standard", hand_limit=5, may_skip_draw_at_limit=True, trade_draw_needs_room=True,
        explore_mandatory=True, lethal_at_equal=True, damage_heals_at_end=True, repair=False,
        abandoned_fighters_die=True, fighter_caps=False, ship_cap=True, build_ban_contested=False,
        fighters_develop=False, no_jump_between_same_opponent=True,
    ),
    "classic": Edition(
        name="classic", hand_limit=8, may_skip_draw_at_limit=False, trade_draw_needs_room=False,
        explore_mandatory=False, lethal_at_equal=False, damage_heals_at_end=False, repair=True,
        abandoned_fighters_die=False, fighter_caps=True, ship_cap=False, build_ban_contested=True,
        fighters_develop=True, no_jump_between_same_opponent=False,
    ),
}
