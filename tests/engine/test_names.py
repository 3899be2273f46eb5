"""`u.name` and `c.name`: a unit or card is called what its prototype is titled. Zombicide NotLD's Reload
reads it to make ready again only the fired weapons that share the chosen one's name (a Dual pair)."""

from __future__ import annotations

from spawnpit.engine import new_game
from spawnpit.engine.state import Ref
from tests.engine.lnoe_table import bare_game, put


def _card(game, proto: str, where: str) -> Ref:
    cid = next(c for c, r in game.state["cards"].items() if r["proto"] == proto and r["where"] in ("deck", "box"))
    for deck in game.state["decks"].values():
        if cid in deck["draw"]:
            deck["draw"].remove(cid)
    game.state["cards"][cid]["where"] = where
    return Ref("card", cid)


def test_a_unit_and_a_card_are_called_by_their_prototypes_title(pack):
    game = bare_game(pack)
    sheriff = put(game, "sheriff_anderson", "town_center.b2")
    keys = _card(game, "keys", sheriff.id)
    assert game.table.attribute(sheriff, "name") == "Sheriff Anderson"
    assert game.table.attribute(keys, "name") == "Keys"
    assert game.table.attribute(Ref("space", game.board.resolve("town_center.b2")), "name") is not None


class Picks:
    """Picks the option given (a card), the first option when it is not offered."""

    def __init__(self) -> None:
        self.wanted = None

    def choose(self, game, side, label, options):
        return options.index(self.wanted) if self.wanted in options else 0


def test_notld_reload_readies_the_fired_weapons_named_as_the_chosen_one_and_no_other(pack):
    picks = Picks()
    game = new_game(pack, "notld:is_there_a_key", seed=1, policies={side: picks for side in _sides(pack, "notld")})
    game.state["at"] = ["test"]
    ben = game.add_unit(next(u for u in game.model.units if u["id"] == "ben"), sorted(game.board.spaces)[0])
    other = _card(game, "ithaca_m37", ben.id)  # first in table order: offered first
    pair = [_card(game, "sawed_off", ben.id) for _ in range(2)]
    for card in (other, *pair):
        game.mark(card, "fired", 1, game._plain_ctx())
    picks.wanted = pair[1]
    game.emit("reload", {"unit": ben})
    fired = {c.id: game.table.has(c, Ref("marker", "fired")) for c in (other, *pair)}
    assert fired == {other.id: True, pair[0].id: False, pair[1].id: False}


def _sides(pack, system: str) -> list[str]:
    return [b["id"] for b in pack["systems"][system].get("blocks", []) if b["kind"] == "side"]
