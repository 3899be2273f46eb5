"""The engine's quick forms of common selections and of the ai policy's advice give exactly what the
general forms give: the units within N moves of a place (a table made once while no unit moves), the
items equal to X or in a list (set lookups), and a priority list worked out criterion by criterion.
Each is checked against the general form over many positions of real Last Night on Earth games."""

from __future__ import annotations

import pytest

from spawnpit.compiler import compile_paths
from spawnpit.engine import AIPolicy, interp, new_game, play
from spawnpit.engine.flow import run, setup
from spawnpit.engine.game import Context, _criteria
from spawnpit.engine.state import Ref, RefList
from spawnpit.resources import builtin_paths


@pytest.fixture(scope="module")
def lnoe():
    result = compile_paths(builtin_paths())
    assert result.ok
    return result.pack


def ai_game(pack, seed: int):
    return new_game(pack, "lnoe:die_zombies_die", seed=seed, policies={"heroes": AIPolicy(), "zombies": AIPolicy()})


def name(n: str) -> dict:
    return {"name": n}


def near_ir(kind: str, op: str, limit: int, place: dict) -> dict:
    """`KIND z where route(z, z.space, PLACE) OP LIMIT`"""
    route = {"call": "route", "args": [name("z"), {"attr": "space", "of": name("z")}, place]}
    return {"select": kind, "var": "z", "where": {"chain": [route, op, {"lit": limit, "type": "int"}]}}


def positions(pack, seeds=(1, 2), every=40):
    """Games stopped every `every` steps until they end: many different boards and crowds of units."""
    for seed in seeds:
        game = ai_game(pack, seed)
        setup(game)
        while game.state["result"] is None:
            yield game
            run(game, stop_after_steps=every)


def test_units_within_n_moves_of_a_place_are_those_route_finds_one_by_one(lnoe):
    checked = 0
    for game in positions(lnoe):
        spaces = [game.table.ref("space", s) for s in game.space_ids()]
        for kind in ("zombie", "hero", "unit"):
            for op, limit in (("<=", 0), ("<=", 1), ("<=", 2), ("<", 2), ("<", 1)):
                ir = near_ir(kind, op, limit, name("s"))
                quick, general = interp._select(ir), interp._select({**ir, "_plain": True})
                for s in spaces[::7]:
                    ctx = Context(game, {"s": s}, None)
                    found = quick(ctx)
                    assert found == general(ctx), (kind, op, limit, s)
                    checked += bool(found)
    assert checked > 200  # the answers were not all empty


def test_the_table_of_units_near_each_space_follows_every_move(lnoe):
    game = ai_game(lnoe, 3)
    setup(game)
    quick = interp._select(near_ir("zombie", "<=", 1, name("s")))
    zombie = next(Ref("unit", u) for u, r in game.state["units"].items() if r["kind"] == "zombie" and r["space"])
    here = game.state["units"][zombie.id]["space"]
    far = max(game.space_ids(), key=lambda s: game.board.distance(here, s, through=("open", "door", "wall")))
    at_here = Context(game, {"s": game.table.ref("space", here)}, None)
    at_far = Context(game, {"s": game.table.ref("space", far)}, None)
    assert zombie in quick(at_here) and zombie not in quick(at_far)
    game.state["units"][zombie.id]["space"] = far  # a move written straight into the state
    assert zombie in quick(at_far) and zombie not in quick(at_here)
    game.state["units"][zombie.id]["space"] = None  # off the board: near nothing
    assert zombie not in quick(at_far)


def test_the_table_of_one_kinds_units_is_kept_while_only_other_kinds_move(lnoe, monkeypatch):
    """A Hero walking leaves the table of Zombies near each space as it was (it is not made again); a
    Zombie moving, or a unit of any kind for a table of every unit, makes it anew, and every answer
    is the one route gives unit by unit."""
    game = ai_game(lnoe, 3)
    setup(game)
    made = []
    table = interp._near_table
    monkeypatch.setattr(interp, "_near_table", lambda *args: made.append(args[2]) or table(*args))
    units = game.state["units"]
    zombie = next(Ref("unit", u) for u, r in units.items() if r["kind"] == "zombie" and r["space"])
    hero = next(Ref("unit", u) for u, r in units.items() if r["kind"] == "hero" and r["space"])
    spaces = [game.table.ref("space", s) for s in game.space_ids()]
    elsewhere = lambda unit: next(s for s in game.space_ids() if s != units[unit.id]["space"])  # noqa: E731

    def ask(kind: str) -> None:
        quick = interp._select(near_ir(kind, "<=", 2, name("s")))
        general = interp._select({**near_ir(kind, "<=", 2, name("s")), "_plain": True})
        for s in spaces:
            ctx = Context(game, {"s": s}, None)
            assert quick(ctx) == general(ctx), (kind, s)

    ask("zombie"), ask("unit")
    assert len(made) == 2
    units[hero.id]["space"] = elsewhere(hero)  # a Hero moves: the Zombies' table stays, every unit's goes
    ask("zombie"), ask("unit")
    assert len(made) == 3
    units[zombie.id]["space"] = elsewhere(zombie)  # a Zombie moves: both go
    ask("zombie"), ask("unit")
    assert len(made) == 5


def test_a_place_given_as_a_unit_is_its_space(lnoe):
    game = ai_game(lnoe, 5)
    setup(game)
    hero = game.units_of_side("heroes")[0]
    ir = near_ir("zombie", "<=", 3, {"attr": "space", "of": name("h")})
    by_unit = near_ir("zombie", "<=", 3, name("h"))
    ctx = Context(game, {"h": hero}, None)
    assert interp._select(by_unit)(ctx) == interp._select(ir)(ctx) == interp._select({**ir, "_plain": True})(ctx)


def test_items_equal_to_x_or_in_a_list_are_those_the_where_finds_one_by_one(lnoe):
    where = {"op": "or", "args": [{"chain": [name("s"), "==", {"attr": "space", "of": name("unit")}]},
                                  {"chain": [name("s"), "in", {"call": "reach", "args": [name("unit"), name("n")]}]}]}
    ir = {"select": "space", "var": "s", "where": where}
    quick, general = interp._select(ir), interp._select({**ir, "_plain": True})
    checked = 0
    for game in positions(lnoe, seeds=(4,)):
        for unit in game.table.units():
            for n in (0, 1, 3, 6):
                ctx = Context(game, {"unit": unit, "n": n}, None)
                found = quick(ctx)
                assert found == general(ctx)
                checked += len(found)
    assert checked > 1000


def test_items_against_something_other_than_a_list_of_references_fall_back_to_the_where(lnoe):
    game = ai_game(lnoe, 6)
    setup(game)
    ir = {"select": "space", "var": "s", "where": {"op": "or", "args": [
        {"chain": [name("s"), "==", name("x")]}, {"chain": [name("s"), "in", name("xs")]}]}}
    quick, general = interp._select(ir), interp._select({**ir, "_plain": True})
    first, second = (game.table.ref("space", s) for s in game.space_ids()[:2])
    for x, xs in ((first, [second]), (None, [second]), (first, "not a list"), (first, [second, 3])):
        ctx = Context(game, {"x": x, "xs": xs}, None)
        assert quick(ctx) == general(ctx)
    assert quick(Context(game, {"x": first, "xs": [second]}, None)) == [first, second]


def test_a_reach_list_answers_in_like_a_list():
    a, b, c = Ref("space", "a"), Ref("space", "b"), Ref("space", "c")
    places = RefList([a, b])
    assert a in places and Ref("space", "b") in places and c not in places and Ref("unit", "a") not in places
    assert places == [a, b] and list(places) == [a, b]


def test_a_priority_list_worked_out_criterion_by_criterion_picks_what_whole_scores_pick(lnoe, monkeypatch):
    from spawnpit.engine.game import Game

    compared = {"lists": 0, "choices": 0}
    original = Game.preferred

    def both(game, choices):
        quick = original(game, choices)
        scores = game.preferences(choices)
        if quick is None:
            assert scores is None
            return quick
        real = [i for i, c in enumerate(choices) if c is not None]
        best = max(scores[i] for i in real)
        lone = len(choices) == 1 and getattr(game._prefer, "parts", None) is not None  # nothing worked out
        assert quick == ([i for i in real if scores[i] == best], None if lone or not best else best[0])
        compared["choices"] += 1
        compared["lists"] += getattr(game._prefer, "parts", None) is not None
        return quick

    monkeypatch.setattr(Game, "preferred", both)
    for seed in (1, 2):
        play(ai_game(lnoe, seed))
    assert compared["lists"] > 100 and compared["choices"] > compared["lists"]


def test_a_lone_option_that_cannot_be_declined_is_taken_without_working_out_its_criteria():
    from spawnpit.engine.game import Game

    class Untouchable:
        parts = ("first", "second")

        def values(self, k, indices, options):
            raise AssertionError("a criterion was worked out for a choice with one option")

    game = Game.__new__(Game)
    game._prefer = Untouchable()
    assert game.preferred(["only"]) == ([0], None)
    with pytest.raises(AssertionError):  # `may`: whether to decline depends on the first criterion
        game.preferred(["only", None])


def test_a_criterion_is_a_number_yes_no_or_whether_there_is_a_thing():
    assert _criteria([True, 3, None, Ref("space", "a"), 0.5]) == (1.0, 3.0, 0.0, 1.0, 0.5)
    assert _criteria(2) == (2.0,)


def test_items_having_any_of_several_names_are_those_has_finds_one_by_one(lnoe):
    def any_of(kind: str, *names: str) -> dict:
        tests = [{"chain": [name("x"), "has", name(n)]} for n in names]
        return {"select": kind, "var": "x", "where": {"op": "or", "args": tests}}

    forms = [any_of("card", "item", "weapon"), any_of("card", "fight_card", "cancel_card", "item"),
             any_of("card", "used", "passed_on"), any_of("hero", "male", "student"), any_of("space", "gas", "ai_goal")]
    checked = 0
    for game in positions(lnoe, seeds=(7, 8)):
        ctx = Context(game, {}, None)
        for ir in forms:
            found = interp._select(ir)(ctx)
            assert found == interp._select({**ir, "_plain": True})(ctx), ir
            checked += len(found)
    assert checked > 500


def test_what_having_keeps_of_markers_follows_every_mark_and_a_replaced_space_record(lnoe):
    """Table.having keeps which cards and spaces have a marker: a marker put on or taken off (World.mark)
    and a space record replaced in the state are seen by the next question."""
    game = ai_game(lnoe, 3)
    setup(game)
    table, ctx = game.table, Context(game, {}, None)
    marker = Ref("marker", "ai_test_mark")
    spaces = [table.ref("space", s) for s in game.space_ids()]
    cards = table.pool("card", None)
    for s in spaces:  # every space has its record, as after a first `space s where s has …`
        table.record(s)
    assert table.having(spaces, marker) == [] and table.having(cards, marker) == []
    game.mark(spaces[5], "ai_test_mark", 1, ctx)
    game.mark(cards[3], "ai_test_mark", 1, ctx)
    assert table.having(spaces, marker) == [spaces[5]]
    assert table.having(cards, marker) == [cards[3]]
    game.mark(spaces[5], "ai_test_mark", -1, ctx)
    game.mark(cards[3], "ai_test_mark", -1, ctx)
    assert table.having(spaces, marker) == [] and table.having(cards, marker) == []
    game.state["spaces"][spaces[9].id] = {"markers": {"ai_test_mark": 1}}
    assert table.having(spaces, marker) == [spaces[9]]
    assert table.having(spaces, marker) == [s for s in spaces if table.has(s, marker)]


def lit(value: int) -> dict:
    return {"lit": value, "type": "int"}


def crowded_spaces_ir(first: dict) -> dict:
    """`list(space s where count(unit u where FIRST and distance(u, s) <= 2) > 1)`: the inner selection's
    first test does not read s when FIRST does not."""
    near = {"chain": [{"call": "distance", "args": [name("u"), name("s")]}, "<=", lit(2)]}
    inner = {"select": "unit", "var": "u", "where": {"op": "and", "args": [first, near]}}
    where = {"chain": [{"call": "count", "args": [inner]}, ">", lit(1)]}
    return {"call": "list", "args": [{"select": "space", "var": "s", "where": where}]}


ZOMBIE_SIDE = {"chain": [{"attr": "side", "of": name("u")}, "==", name("zombies")]}


def test_a_selection_inside_another_tests_what_does_not_read_the_outer_item_once(lnoe, monkeypatch):
    hoisted = interp.expr(crowded_spaces_ir(ZOMBIE_SIDE))
    monkeypatch.setattr(interp, "_hoisted", lambda ir: None)
    plain = interp.expr(crowded_spaces_ir(ZOMBIE_SIDE))
    checked = 0
    for game in positions(lnoe):
        ctx = Context(game, {}, None)
        found = hoisted(ctx)
        assert found == plain(ctx)
        checked += len(found)
    assert checked > 20  # real crowds were compared, not empty lists


def test_only_pure_tests_that_do_not_read_an_enclosing_item_are_moved_out():
    scope = interp._Scope({"s"})
    interp._SCOPES.append(scope)
    try:
        inner = crowded_spaces_ir(ZOMBIE_SIDE)["args"][0]["where"]["chain"][0]["args"][0]
        moved = interp._hoisted(inner)
        assert moved["in"] == {"select": "unit", "var": "u", "where": ZOMBIE_SIDE}
        assert moved["where"] == inner["where"]["args"][1]
        reads_s = {"chain": [{"attr": "space", "of": name("u")}, "==", name("s")]}
        assert interp._hoisted({**inner, "where": {"op": "and", "args": [reads_s, ZOMBIE_SIDE]}}) is None
        dice = {"chain": [{"call": "roll", "args": [{"lit": [1, 6], "type": "dice"}]}, ">", lit(3)]}
        assert interp._hoisted({**inner, "where": {"op": "and", "args": [dice, ZOMBIE_SIDE]}}) is None
        assert interp._hoisted({**inner, "in": name("s")}) is None  # the pool itself depends on s
    finally:
        interp._SCOPES.pop()
    assert interp._hoisted(inner) is None  # outside any selection: nothing to gain


@pytest.mark.parametrize("generated", [True, False])
def test_nothing_times_a_pure_value_is_zero_without_working_the_value_out(lnoe, monkeypatch, generated):
    """`brawler * -min(nearest(s, zombie), 30)`: for a Hero who is no brawler the distance is never looked up."""
    monkeypatch.setattr(interp, "GENERATE", generated)
    looked = []
    monkeypatch.setitem(interp.FUNCTIONS, "nearest", lambda ctx, *args: looked.append(args) or 7)
    times = interp.expr({"chain": [name("x"), "*", {"call": "nearest", "args": [name("x"), name("x")]}]})
    game = ai_game(lnoe, 1)
    setup(game)
    assert [times(Context(game, {"x": x}, None)) for x in (0, None, False)] == [0, 0, 0]
    assert looked == []
    assert times(Context(game, {"x": 2}, None)) == 14 and len(looked) == 1


@pytest.mark.parametrize("generated", [True, False])
def test_nothing_times_a_roll_still_rolls(lnoe, monkeypatch, generated):
    monkeypatch.setattr(interp, "GENERATE", generated)
    times = interp.expr({"chain": [name("x"), "*", {"call": "roll", "args": [{"lit": [1, 6], "type": "dice"}]}]})
    game = ai_game(lnoe, 1)
    setup(game)
    rolled = sum(e["type"] == "roll" for e in game.entries)
    assert times(Context(game, {"x": 0}, None)) == 0
    assert sum(e["type"] == "roll" for e in game.entries) == rolled + 1


def test_any_stops_at_the_first_item_a_pure_test_passes(lnoe, monkeypatch):
    """`any(space s where sight(s, x))` asks no further once one space passed; the answer is the same."""
    game = ai_game(lnoe, 1)
    setup(game)
    asked = []
    monkeypatch.setitem(interp.FUNCTIONS, "sight", lambda ctx, a, b: asked.append(a) or a.id == b.id)
    target = game.table.ref("space", game.space_ids()[5])
    where = {"call": "sight", "args": [name("s"), name("x")]}
    found = interp.expr({"call": "any", "args": [{"select": "space", "var": "s", "where": where}]})
    whole = interp.expr({"call": "count", "args": [{"select": "space", "var": "s", "where": where}]})
    ctx = Context(game, {"x": target}, None)
    assert found(ctx) is True and len(asked) == 6  # the sixth space is the one
    asked.clear()
    assert whole(ctx) == 1 and len(asked) == len(game.space_ids())  # count still tests every space


def test_any_with_dice_in_its_test_still_tests_every_item(lnoe):
    """Stopping early would roll fewer dice than the rules as written: a test with a roll is never cut short."""
    game = ai_game(lnoe, 1)
    setup(game)
    spaces = len(game.space_ids())
    rolls = lambda: sum(e["type"] == "roll" for e in game.entries)  # noqa: E731
    where = {"chain": [{"call": "roll", "args": [{"lit": [1, 6], "type": "dice"}]}, ">=", {"lit": 1, "type": "int"}]}
    found = interp.expr({"call": "any", "args": [{"select": "space", "var": "s", "where": where}]})
    before = rolls()
    assert found(Context(game, {}, None)) is True
    assert rolls() == before + spaces


def test_each_holders_cards_follow_every_change_of_hands(lnoe):
    """The cards at each holder are kept per holder: a card changing hands renews the two holders' lists,
    and any other change (a record's `where` taken away, a bulk update) renews them all."""
    game = ai_game(lnoe, 2)
    setup(game)
    cards = game.state["cards"]

    def scanned(holder):
        return [c for c, r in cards.items() if r["where"] == holder]

    hero = game.units_of_side("heroes")[0]

    def check():
        for holder in {r["where"] for r in cards.values()} | {"nobody"}:
            assert game.card_ids(holder) == scanned(holder), holder
        assert [c.id for c in game.table.pool("card", hero)] == scanned(hero.id)

    check()
    held = game.card_ids(hero.id)
    deck = [c for c in scanned("deck")]
    cards[deck[0]]["where"] = hero.id  # drawn, written straight into the state
    check()
    assert game.card_ids(hero.id) == scanned(hero.id) and len(scanned(hero.id)) == len(held) + 1
    cards[deck[0]]["where"] = "discard"
    check()
    cards[deck[1]].pop("where")  # taken away: the card is at no holder
    cards[deck[1]]["where"] = "play"
    check()
    cards[deck[2]].update({"where": hero.id})
    check()


def test_sight_of_a_unit_is_sight_of_its_space_and_a_unit_off_the_board_is_an_error(lnoe):
    game = ai_game(lnoe, 1)
    setup(game)
    hero = game.units_of_side("heroes")[0]
    here = game.table.ref("space", game.state["units"][hero.id]["space"])
    sight = interp.expr({"call": "sight", "args": [name("a"), name("b")]})
    for space in game.space_ids()[::9]:
        there = game.table.ref("space", space)
        assert sight(Context(game, {"a": hero, "b": there}, None)) == sight(Context(game, {"a": here, "b": there}, None))
        assert sight(Context(game, {"a": there, "b": hero}, None)) == sight(Context(game, {"a": there, "b": here}, None))
    game.state["units"][hero.id]["space"] = None
    with pytest.raises(interp.RuleError, match="not on the board"):
        sight(Context(game, {"a": hero, "b": here}, None))


def test_routes_from_many_spaces_to_one_place_work_out_that_places_row_once(lnoe):
    game = ai_game(lnoe, 1)
    setup(game)
    zombie = next(Ref("unit", u) for u, r in game.state["units"].items() if r["kind"] == "zombie" and r["space"])
    hero = game.units_of_side("heroes")[0]
    there = game.table.ref("space", game.state["units"][hero.id]["space"])
    route = interp.expr({"call": "route", "args": [name("z"), name("s"), name("b")]})
    board, worked_out = game.board, []
    board._rows.clear()
    original = type(board)._row

    def counted(self, source, through):
        worked_out.append(source)
        return original(self, source, through)

    spaces = game.space_ids()[::5]
    type(board)._row, steps = counted, {}
    try:
        for space in spaces:
            steps[space] = route(Context(game, {"z": zombie, "s": game.table.ref("space", space), "b": there}, None))
    finally:
        type(board)._row = original
    assert worked_out == [there.id]  # the place's row, once; not one row for each space tried against it
    through = game.derived.through.get(game.state["units"][zombie.id]["kind"])
    for space in spaces:  # the same steps as a search from the space itself
        board._rows.clear()
        assert steps[space] == board.between(space, there.id, through)
    assert len({s for s in steps.values() if s != float("inf")}) > 3
