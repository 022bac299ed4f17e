"""Log sentences that name two vessels of one kind tell them apart."""
from __future__ import annotations

from starcom.sc.engine.events import Redirect
from starcom.sc.engine.game import standard_rules
from starcom.sc.text import describe_event


def test_a_redirect_between_two_stations_of_one_kind_says_the_other() -> None:
    rules = standard_rules()
    stations = [i for i, c in enumerate(rules.cards) if c.name == "Defense Station"][:2]
    destroyer = next(i for i, c in enumerate(rules.cards) if c.name == "Destroyer")
    owner = {stations[0]: 1, stations[1]: 1, destroyer: 1}.get
    same = describe_event(Redirect("redirect", 1, stations[0], stations[1]), 3, owner_of=owner, rules=rules)
    assert same == "P1's Defense Station takes over the damage aimed at P1's other Defense Station"
    mixed = describe_event(Redirect("redirect", 1, destroyer, stations[1]), 3, owner_of=owner, rules=rules)
    assert mixed == "P1's Destroyer takes over the damage aimed at P1's Defense Station"
