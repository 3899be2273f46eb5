"""A game: state, the event queue, the turn structure from the system declaration, objectives, log.

The turn structure is data: rounds → phases → steps → actions, each emitting NAME.start, NAME and
NAME.end. Hooks run from a FIFO queue in layer order with a budget, so a runaway chain stops with an
error that names the rules involved instead of hanging.
"""

from __future__ import annotations

from spawnpit.engine import interp
from spawnpit.engine.decks import Decks
from spawnpit.engine.model import model_for
from spawnpit.engine.rng import Chance
from spawnpit.engine.state import Ref, empty_state, new_id
from spawnpit.engine.table import Table
from spawnpit.engine.world import Counted, World, index_records

EVENT_BUDGET = 200_000
NESTING_LIMIT = 60  # events raised at once (`emit`, a walk's steps) inside one another


class GameError(Exception):
    """The rules went wrong while running (a runaway chain, an impossible effect), with provenance."""


def hook_error(hook, why) -> GameError:
    """What went wrong in a hook, named by its rule, the rule's source and the event."""
    return GameError(f"{hook.rule['title']} ({hook.rule['source'] or hook.rule['rule']}), on {hook.event}: {why}")


class Context:
    """What a running hook sees: the game, its variables, the event, and which rule it belongs to."""

    __slots__ = ("game", "env", "rule", "cancelled", "parent", "table")

    def __init__(self, game, env: dict, rule: dict | None, parent=None) -> None:
        self.game, self.env, self.rule, self.parent, self.cancelled = game, env, rule, parent, False
        self.table = game.table

    @property
    def chance(self):
        return self.game.chance

    def child(self, env: dict) -> "Context":
        return Context(self.game, env, self.rule, self)

    def lookup(self, name: str):
        ctx = self
        while ctx is not None:
            if name in ctx.env:
                return ctx.env[name]
            ctx = ctx.parent
        return self.game.lookup(name)

    def assign(self, name: str, value) -> None:
        ctx = self
        while ctx is not None:
            if name in ctx.env:
                ctx.env[name] = value
                return
            ctx = ctx.parent
        for table, kind in (("counters", "counter"), ("tracks", "track")):
            if name in self.game.state[table]:
                self.game.state[table][name] = value
                self.game.log({"type": kind, "name": name, "value": value}, self.rule)
                return
        raise interp.RuleError(f"`{name}` is not a counter or variable")

    def roll(self, dice, reason: str, purpose=None) -> list[int]:
        """`purpose`: the card or unit the roll is for (`roll D6 for w`: a gun's Out of Ammo roll), which
        the log names instead of the rule."""
        if not (isinstance(dice, tuple) and dice[0] == "dice"):
            raise interp.RuleError(f"cannot roll {dice!r}")
        values = self.game.chance.roll(dice[1], dice[2])
        entry = {"type": "roll", "dice": f"{dice[1]}D{dice[2]}", "values": values, "total": sum(values)}
        if type(purpose) is Ref:
            entry["for"] = purpose.id
        unit = self.about()
        if unit is not None:
            entry["unit"] = unit  # whose roll: "rolled 1D6: 4 for Hero Movement (Jake)"
        self.game.log(entry, self.rule)
        return values

    def about(self) -> str | None:
        """The unit a hook's doings are about, for the log: the event's own `unit` (a Hero's step, a
        unit's event), else the first unit its event names (a fight's `fighter`, a shot's `shooter`)."""
        c, root = self, self
        while c is not None and "unit" not in c.env:
            root, c = c, c.parent
        scope = c if c is not None else root
        unit = scope.env.get("unit")
        if unit is None:
            unit = next((v for v in scope.env.values() if type(v) is Ref and v.kind == "unit"), None)
        return unit.id if type(unit) is Ref and unit.kind == "unit" else None

    def choose(self, options: list, by, optional: bool, label: str, prefer=None):
        return self.game.choose(options, by, optional, label, self.rule, prefer)

    def log(self, entry: dict) -> None:
        self.game.log(entry, self.rule)


class Plan:
    """How the scenario's objectives are checked (Game._plan_objectives, _check_objectives): every one as
    (index, objective, inputs), those with a `when`, the first `when` worked out at every event (or None),
    the stamps when every `when` was last found unmet, the inputs each `when` was last found unmet with,
    and the events `at` objectives name → the objectives each meets."""

    __slots__ = ("all", "when", "always", "quiet", "unmet", "at", "midway")


class Derived:
    """What a game works out once and keeps (never saved; a restored game works it out again): the
    position last logged and its text, each kind's `through` edges (engine.movement), each event's
    declared parameter names (effects.emit, decks), the `card_played` hooks that may apply while a card of
    each prototype is played (decks). Kept in one object, not as attributes of the game:
    CPython reads the attributes of an object with at most 29 of them much faster."""

    __slots__ = ("at_list", "at_text", "through", "event_names", "windows")

    def __init__(self) -> None:
        self.at_list, self.at_text, self.through, self.event_names, self.windows = None, "", {}, {}, {}


class Game(World, Decks):
    def __init__(self, pack: dict, scenario: dict, seed: int, policies: dict, log: list | None = None) -> None:
        self.model = model_for(pack, scenario)
        self.state = empty_state(seed, scenario["id"], scenario["system"])
        self.chance = Chance(seed)
        self.policies = policies
        self.entries = log if log is not None else []
        self.table = Table(self)
        self.queue: list[tuple[str, dict]] = []
        self.fired: dict[str, int] = {}
        self._prefer = None  # the scores of the choice being asked (`preferences`)
        self.scratch: dict = {}  # derived, rebuildable caches (never saved): e.g. movement rules per kind
        self.derived = Derived()  # what the game works out once and keeps (never saved)
        self.depth = 0  # events raised inside one another (raise_now)
        World.__init__(self)
        self._hooks: dict[str, tuple] = {}  # event → (its `instead of` hooks, its other hooks), in layer order
        self._constants: dict[str, Ref] = {}  # names that stand for the same thing all game (not counters)
        self._plan_objectives()
        self.met: set[int] = set()  # objectives (by index) that held, or whose event happened, at some point

    # ---- names -----------------------------------------------------------------------------------

    def lookup(self, name: str):
        state = self.state
        if name in state["counters"]:
            return state["counters"][name]
        found = self._constants.get(name)
        if found is not None:
            return found
        found = self._lookup(name)
        if isinstance(found, Ref):  # a declared name, space or building: the same all game long
            self._constants[name] = found
        return found

    def _lookup(self, name: str):
        state = self.state
        if name == "round":
            return state["round"]
        if name == "rounds":  # the scenario's number of rounds
            rounds = self.model.scenario["props"].get("rounds")
            return rounds if isinstance(rounds, int) else 1
        meaning = self.model.names.get(name)
        if meaning is not None:
            kind, id_ = meaning
            return Ref(kind, id_)
        if name in self.space_set:
            return Ref("space", name)
        if name in self.building_set:
            return Ref("building", name)
        resolved = self.resolve_place(name)
        if resolved is not None:
            return resolved
        raise interp.RuleError(f"unknown name `{name}`")

    # ---- events ----------------------------------------------------------------------------------

    def emit(self, event: str, params: dict | None = None, ctx: Context | None = None) -> None:
        if self.state["result"] is not None:  # the game is over: nothing more happens
            return
        self.queue.append((event, params or {}))
        if len(self.queue) == 1:
            self._drain()

    def _drain(self) -> None:
        try:
            while self.queue:
                event, params = self.queue[0]
                self._dispatch(event, params)
                self.queue.pop(0)
                if self.state["result"] is not None:
                    self.queue.clear()
        except interp.GameOver:
            pass  # decided inside a hook: the rest of it, and of the queue, does not happen
        finally:
            self.queue.clear()

    def raise_now(self, event: str, params: dict | None = None) -> str | None:
        """Run an event's hooks at once, inside the running hook (`emit`, a step of a walk), so what they
        change is seen by the next statement. "replaced" when an `instead of` hook took its place,
        "ended" when a hook said `end`, else None. Counted against the same budget as queued events."""
        self.depth += 1
        mark = len(self.queue)
        try:
            if self.depth > NESTING_LIMIT:
                self._runaway(f"events raised inside one another over {NESTING_LIMIT} deep")
            try:
                outcome = "replaced" if self._dispatch(event, params or {}) else None
            except interp.EndAction:
                outcome = "ended"
            self.settle(mark)
            return outcome
        except interp.GameOver:
            if self.depth > 1 or self.queue:  # inside an event: the whole of it stops
                raise
            return None
        finally:
            self.depth -= 1

    def settle(self, mark: int) -> None:
        """Run the events queued while an event raised at once ran (those past `mark` in the queue), in
        order: each waits for the event it was queued in, not for the whole chain around it, so a Hero
        killed in one fight is dead, and counted, before the next fight of the same step begins."""
        queue, state = self.queue, self.state
        while len(queue) > mark and state["result"] is None:
            event, params = queue.pop(mark)
            try:
                self._dispatch(event, params)
            except interp.EndAction:
                pass  # a hook said `end`: that queued event is over

    def _runaway(self, why: str) -> None:
        rules = sorted(self.fired, key=self.fired.get, reverse=True)[:5]
        who = (f"most active rules: {', '.join(rules)}" if rules
               else "no rule's hook ran, so the turn structure alone used it up (a scenario of very many rounds?)")
        raise GameError(f"runaway chain of events ({why}); {who}")

    def _dispatch(self, event: str, params: dict) -> bool:
        """Run the hooks of one event; True when a replacement took its place. The `instead of` hooks
        that apply run first, in layer order; when one did, the ordinary hooks do not run."""
        state = self.state
        state["events"] += 1
        plan = self._plan
        if event in plan.at:
            self.met.update(plan.at[event])
        if state["events"] > EVENT_BUDGET:
            self._runaway(f"over {EVENT_BUDGET}")
        split = self._hooks.get(event)
        if split is None:
            hooks = self.model.hooks.get(event, ())
            split = self._hooks[event] = (tuple(h for h in hooks if h.replace), tuple(h for h in hooks if not h.replace))
        replacing, ordinary = split
        replaced = False
        for hook in replacing:
            if self._fire(hook, params):
                replaced = True
                if state["result"] is not None:
                    return replaced
        if not replaced:
            in_play, midway = self.in_play, plan.when
            cards, missed = self._card_index.changes, []
            before = cards.version
            for hook in ordinary:  # self._applies(hook, params), its commonest outcomes inline
                if hook.owner is not None and not in_play(hook.owner):
                    missed.append(hook)
                    continue
                if hook.per_copy:
                    self._fire(hook, params)
                    if state["result"] is not None:
                        return replaced
                    if midway:
                        self._midway()
                    continue
                if not hook.filters and hook.when is None:
                    ctx = False
                else:
                    ctx = self._applies(hook, params)
                    if ctx is None:
                        continue
                self._run(hook, params, ctx)
                if state["result"] is not None:
                    return replaced
                if midway:
                    self._midway()
            if missed and cards.version != before:
                self._late(missed, params)
        if plan.at or plan.when:
            self._check_objectives(event)
        return replaced

    def _late(self, missed: list, params: dict) -> None:
        """The hooks of cards that were not on the table when their turn in an event came and are now: a
        card an earlier hook of the same event brought into a hand hears the event too, after the hooks
        already due (Just What I Needed takes Faith back at the start of a Move Action, whose hooks run in
        order of title: Faith's turn had passed). Each runs once, in the event's order. Cards only: a unit
        that comes into play during an event takes no part in it (a new Hero sits the step out)."""
        for hook in missed:
            if not hook.owner.startswith("card:") or not self.in_play(hook.owner):
                continue
            if hook.per_copy:
                self._fire(hook, params)
            else:
                ctx = self._applies(hook, params)
                if ctx is None:
                    continue
                self._run(hook, params, ctx)
            if self.state["result"] is not None:
                return
            if self._plan.when:
                self._midway()

    def _fire(self, hook, params: dict, done=None) -> bool:
        """Run the hook for this event where it applies; True when it ran (an `instead of` hook: when it
        replaced the event, so not when it said `decline`). A per-copy hook (a card's hook that names
        `self`) runs once for each copy of its card on the table that it applies to, `self` that copy, in
        table order, a copy a run before took off the table skipped; an `instead of` one replaces the event
        once, for the first copy it applies to that does not `decline`. `done` (no arguments), when given,
        is asked after each copy's run: true stops the rest (a card's play window: the card was cancelled).
        (_run lets a `decline` out of `instead of` hooks only.)"""
        if not hook.per_copy:
            ctx = self._applies(hook, params)
            if ctx is None:
                return False
            try:
                self._run(hook, params, ctx)
            except interp.Decline:
                return False
            return True
        ran = went = False  # went: a copy's run began (and may have taken later copies off the table)
        for copy in self.owner_copies(hook.owner):
            if went and not self.on_table(copy):
                continue
            ctx = self._applies_as(hook, params, copy)
            if ctx is None:
                continue
            went = True
            try:
                self._run(hook, params, ctx)
            except interp.Decline:
                continue  # this copy gave the replacement up
            ran = True
            if hook.replace or self.state["result"] is not None or (done is not None and done()):
                break
        return ran

    def _applies(self, hook, params: dict):
        """Whether the hook applies to this event: None when not, else the context it runs in (False when
        it has neither filters nor `when`, so its context is made only if it runs). A per-copy hook: the
        context of the first copy of its card it applies to."""
        if hook.owner is not None and not self.in_play(hook.owner):
            return None
        if hook.per_copy:
            for copy in self.owner_copies(hook.owner):
                ctx = self._applies_as(hook, params, copy)
                if ctx is not None:
                    return ctx
            return None
        if not hook.filters and hook.when is None:
            return False
        name = getattr(hook.when, "self_test", None)
        if name is not None and hook.owner is not None and not hook.filters and name in params \
                and name not in ("event", "self"):
            # `when card == self` read straight from the event and the owner, no context made: the same verdict
            # (the context would bind NAME to params[NAME] and self to owner_ref); only a yes is worked out in full
            if not interp._eq(self, params[name], self.owner_ref(hook.owner)):
                return None
        ctx = self._context(hook, params)
        for prep, value in hook.filters.items():
            if not self._filter_matches(params.get(prep), value(ctx)):
                return None
        return ctx if hook.when is None or hook.when(ctx) else None

    def _applies_as(self, hook, params: dict, copy: Ref):
        """_applies for one copy of a per-copy hook's card: the context, `self` that copy, or None."""
        if hook.if_played and self.state["cards"][copy.id]["where"] != "play":
            return None  # `when self.played and …` of a copy held: no context made
        name = getattr(hook.when, "self_test", None)
        if name is not None and not hook.filters and name in params and name not in ("event", "self") \
                and not interp._eq(self, params[name], copy):
            return None
        ctx = Context(self, {**hook.env, **params, "event": params, "self": copy}, hook.rule)
        for prep, value in hook.filters.items():
            if not self._filter_matches(params.get(prep), value(ctx)):
                return None
        return ctx if hook.when is None or hook.when(ctx) else None

    def asker(self, hook, params: dict, keys: tuple[str, ...]):
        """For asking one hook about many values of some params of an event in a row, while nothing on the
        table changes (a move's search asks each refusal hook of every step it comes to: the space and the
        one it is entered from): a function (values, in the order of `keys`) → whether the hook applies to
        the event with those params. The same verdict as _applies, with its contexts (one for each copy of
        a per-copy hook's card) made once and the values put into them, instead of a context made for
        every step."""
        if hook.owner is not None and not self.in_play(hook.owner):
            return lambda *values: False
        if not hook.filters and hook.when is None:
            return lambda *values: True
        params = dict(params)
        if hook.per_copy:
            cards = self.state["cards"]
            selves = [c for c in self.owner_copies(hook.owner) if not hook.if_played or cards[c.id]["where"] == "play"]
        else:
            selves = [self.owner_ref(hook.owner) if hook.owner is not None else None]
        contexts = []
        for me in selves:
            env = {**hook.env, **params, "event": params}
            if hook.owner is not None:
                env["self"] = me
            contexts.append(Context(self, env, hook.rule))
        filters, when, matches = tuple(hook.filters.items()), hook.when, self._filter_matches
        split = _fixed_part(hook, keys)
        if split is not None:  # its `when` starts with tests the asked values cannot change: worked out once
            fixed, when = split
            contexts = [ctx for ctx in contexts if fixed(ctx)]
            if not contexts:
                return never

        def put(values) -> None:
            for key, value in zip(keys, values):
                params[key] = value
                for ctx in contexts:
                    ctx.env[key] = value

        def ask(*values) -> bool:
            put(values)
            for ctx in contexts:
                if all(matches(params.get(prep), wanted(ctx)) for prep, wanted in filters) \
                        and (when is None or when(ctx)):
                    return True
            return False

        def ask_when(*values) -> bool:  # ask() of a hook with no filters: the `when` alone
            put(values)
            for ctx in contexts:
                if when(ctx):
                    return True
            return False

        gated = None if filters or len(keys) < 2 else _gated_part(hook, keys)
        if gated is not None:  # the `when` goes on with tests of the first param alone: once for each value of it
            gate, rest = gated
            passed: dict = {}
            first = keys[0]

            def ask_gated(*values) -> bool:
                value = values[0]
                open_ = passed.get(value)
                if open_ is None:
                    params[first] = value
                    for ctx in contexts:
                        ctx.env[first] = value
                    open_ = passed[value] = [ctx for ctx in contexts if gate(ctx)]
                if not open_:
                    return False
                if rest is None:
                    return True
                put(values)
                for ctx in open_:
                    if rest(ctx):
                        return True
                return False

            return ask_gated
        return ask if filters else ask_when

    def _filter_matches(self, actual, wanted) -> bool:
        if actual is None:
            return False
        if isinstance(wanted, Ref) and wanted.kind in ("kind", "side"):
            return self.table.is_(actual, wanted)
        return actual == wanted

    def _context(self, hook, params: dict) -> Context:
        env = {**hook.env, **params, "event": params}
        if hook.owner is not None:
            env["self"] = self.owner_ref(hook.owner)
        return Context(self, env, hook.rule)

    def _run(self, hook, params: dict, ctx: Context | None = None) -> None:
        self.fired[hook.rule["rule"]] = self.fired.get(hook.rule["rule"], 0) + 1
        if not ctx:  # its filters and `when` only read the context they were worked out in: it can serve
            ctx = self._context(hook, params)
        try:
            interp.run_block(ctx, hook.body)
        except interp.EndAction:
            raise
        except interp.Decline:
            if hook.replace:
                raise
            raise hook_error(hook, "`decline` outside an `instead of` hook") from None
        except interp.RuleError as err:
            raise hook_error(hook, err) from err

    # ---- objectives and results ------------------------------------------------------------------

    def _check_objectives(self, event: str, keyed: bool = False) -> None:
        """After each event, the first objective (in scenario order) that is met decides the game: one
        named for this event (`at`), or one whose `when` holds. A `when` made only of counters, tracks
        and constants is worked out again only when one of those counters or tracks changed. `keyed`
        (_midway): only those; a `when` that reads more waits for the event's end."""
        state = self.state
        if state["result"] is not None:
            return
        counters, tracks = state["counters"], state["tracks"]
        stamp = (counters.stamp, tracks.stamp) if type(counters) is Counted and type(tracks) is Counted else None
        plan = self._plan
        quiet = event not in plan.at and plan.always is None
        if quiet and stamp is not None and stamp == plan.quiet:
            return  # no counter or track changed since every `when` was found unmet
        ctx = None
        for index, objective, inputs in plan.when if event not in plan.at else plan.all:
            if inputs is None:  # an `at` objective
                if objective.get("at") != event:
                    continue
            elif inputs is False:
                if keyed:
                    continue
                ctx = ctx or self._plain_ctx()
                if not self._holds(objective, ctx):
                    continue
            else:
                key = inputs(self.state)
                if key is not None and plan.unmet.get(index) == key:
                    continue
                ctx = ctx or self._plain_ctx()
                if not self._holds(objective, ctx):
                    plan.unmet[index] = key
                    continue
            self.met.add(index)
            self.finish(objective["side"], objective["result"], objective["text"], self.scenario_rule)
            return
        if quiet:
            plan.quiet = stamp

    def _midway(self) -> None:
        """Between two hooks of one event: a `when` objective a hook's counter or track met ends the game
        at once (LNOE: the game "immediately ends"), before the event's next hook asks anything. A play-test
        escaped in the Truck, then was asked whom First Aid heals, then saw the game end. Only when a
        counter or track changed since the last look (a `when` that reads the board waits for the event's end)."""
        counters, tracks, plan = self.state["counters"], self.state["tracks"], self._plan
        if type(counters) is not Counted or type(tracks) is not Counted:
            return
        stamp = (counters.stamp, tracks.stamp)
        if stamp == plan.midway:
            return
        plan.midway = stamp
        self._check_objectives("", keyed=True)

    def _holds(self, objective: dict, ctx) -> bool:
        try:
            return objective["test"](ctx)
        except interp.RuleError as err:
            raise GameError(f"{self.scenario_rule['title']}, objective `{objective['text']}`: {err}") from err

    def _plan_objectives(self) -> None:
        """How each objective is checked (see _check_objectives): the `when` ones with the function
        giving the values its verdict depends on (None: cannot tell), or False to work it out each time."""
        plan = self._plan = Plan()
        plan.all, plan.unmet = [], {}
        for index, objective in enumerate(self.objectives):
            inputs = None
            if "when" in objective:
                inputs = _inputs(objective["when"], self.state["counters"], self.model.names)
            plan.all.append((index, objective, inputs))
        plan.when = [entry for entry in plan.all if entry[2] is not None]
        plan.always = next((entry for entry in plan.when if entry[2] is False), None)
        plan.quiet = None  # (counters, tracks) stamps when every `when` was last found unmet
        plan.midway = None  # (counters, tracks) stamps when _midway last looked
        plan.at = {}
        for index, objective in enumerate(self.objectives):
            if objective.get("at"):
                plan.at.setdefault(objective["at"], []).append(index)

    def _plain_ctx(self) -> Context:
        return Context(self, {}, None)

    def decide(self, side, verdict: str, rule: dict | None) -> None:
        side_id = side.id if isinstance(side, Ref) else str(side)  # the cause names the rule: `zombies win: Zombie Victory`
        cause = f"{side_id} {verdict}: {rule['title']}" if rule and rule.get("title") else f"{side_id} {verdict}"
        self.finish(side_id, verdict, cause, rule)

    def finish(self, side: str, verdict: str, cause: str, rule: dict | None) -> None:
        if self.state["result"] is not None:
            return
        winner = side if verdict == "win" else self._other_side(side)
        self.state["result"] = {"winner": winner, "side": side, "verdict": verdict, "cause": cause,
                                "round": self.state["round"]}
        self.log({"type": "result", "winner": winner, "cause": cause}, rule)
        self._note_objectives()
        if self.queue or self.depth:
            raise interp.GameOver()  # stop the hook that decided it (caught where the events are drained)

    def _note_objectives(self) -> None:
        """At the end, which `when` objectives hold too, though a rule or an earlier objective decided the
        game first: simulations report objectives that never held in any game (`check --simulate`)."""
        ctx = self._plain_ctx()
        for index, objective in enumerate(self.objectives):
            if "when" in objective and index not in self.met:
                try:
                    if objective["test"](ctx):
                        self.met.add(index)
                except Exception:  # noqa: BLE001 - only a note: a test that cannot be worked out now does not hold
                    pass

    def _other_side(self, side: str) -> str | None:
        others = [s for s in self.model.sides if s != side and self.units_of_side(s, anywhere=True)]
        return others[0] if len(others) == 1 else None

    # ---- choices and the log ---------------------------------------------------------------------

    def choose(self, options: list, by, optional: bool, label: str, rule: dict | None, prefer=None):
        """Ask the side's policy. `prefer` (option → score) is the rules' own advice for the `ai` policy
        (`choose … prefer EXPR`): computed only when a policy asks for it (`preferences`)."""
        if not options:
            return None
        side = by.id if isinstance(by, Ref) and by.kind == "side" else (self.acting_side or self.model.sides[0])
        policy = self.policies[side]
        choices = list(options) + ([None] if optional else [])
        self._prefer = prefer
        try:
            index = policy.choose(self, side, label, choices)
        finally:
            self._prefer = None
        self.state["choices"] += 1
        if type(index) is not int or not 0 <= index < len(choices):
            raise GameError(f"the {side} policy answered {index!r} to a choice of {len(choices)} (an index from 0 is due)")
        picked = choices[index]
        self.log({"type": "choice", "side": side, "label": label, "options": len(choices), "index": index,
                  "picked": None if picked is None else _shown(picked)}, rule)
        return picked

    def preferences(self, choices: list) -> list[tuple] | None:
        """The rules' scores of the current choice's options, each a tuple compared in order (a `prefer`
        list is a priority list; yes/no counts as 1/0); None for declining, and None overall when the
        rules give no advice for this choice."""
        prefer = self._prefer
        if prefer is None:
            return None
        return [None if c is None else _criteria(prefer(c)) for c in choices]

    def preferred(self, choices: list) -> tuple[list[int], float | None] | None:
        """The best-scored real options of the current choice (their indices, in order) and the best
        score's first criterion (None for an empty score, and for a priority list's only option when it
        cannot be declined: nothing is worked out); None when the rules give no advice. The same
        answer as comparing every option's whole score (`preferences`), but a priority list's criteria
        are worked out one at a time, each only for the options still tied on those before it."""
        prefer = self._prefer
        if prefer is None:
            return None
        real = [i for i, c in enumerate(choices) if c is not None]
        parts = getattr(prefer, "parts", None)
        if parts is not None and len(choices) == 1 and real:
            return real, None  # one option and no declining: nothing to weigh (the criteria are pure)
        if parts is None or not real:
            scores = {i: _criteria(prefer(choices[i])) for i in real}
            best = max(scores.values(), default=())
            return [i for i in real if scores[i] == best], (best[0] if best else None)
        first = None
        for k in range(len(parts)):
            values = prefer.values(k, real, choices)
            top = max(values)
            if k == 0:
                first = top
            real = [i for i, v in zip(real, values) if v == top]
            if len(real) == 1:
                break  # the rest cannot change which option is best
        return real, first

    def log(self, entry: dict, rule: dict | None) -> None:
        state, derived = self.state, self.derived
        at = state["at"]
        if at is not derived.at_list:  # the position's text, joined once per position (flow sets a new list)
            derived.at_list, derived.at_text = at, ".".join(at)
        entry = {"n": len(self.entries), "round": state["round"], "at": derived.at_text, **entry}
        if rule is not None:
            entry["rule"] = rule["title"]
            if rule.get("source"):
                entry["source"] = rule["source"]
        self.entries.append(entry)

    # ---- saving ----------------------------------------------------------------------------------

    def save(self) -> str:
        """The whole game as JSON, between two steps: state, the dice's state, how much was logged."""
        from spawnpit.engine.state import dumps

        return dumps({**self.state, "rng": self.chance.state(), "logged": len(self.entries)})

    @classmethod
    def restore(cls, pack: dict, text: str, policies: dict, log: list | None = None) -> "Game":
        from spawnpit.engine.state import loads

        state = loads(text)
        scenario = next((o for o in pack["objects"] if o["kind"] == "scenario" and o["id"] == state["scenario"]
                         and o["system"] == state["system"]), None)
        if scenario is None:
            raise GameError(f"the saved game is of scenario `{state['scenario']}`, which this pack does not have")
        game = cls(pack, scenario, state["seed"], policies, log)
        game.chance.restore(state.pop("rng"))
        state.pop("logged", None)
        index_records(state, game)
        game.state = state
        return game

    def new_unit_id(self) -> str:
        return new_id(self.state, "u")


_SIMPLE_OPS = {"==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "%"}


def _inputs(ir, counters: dict, names: dict):
    """For a `when` that reads only counters, tracks and constant names through comparisons and arithmetic,
    a function of the state giving the values it depends on; False for any other expression."""
    used: set[str] = set()

    def simple(node) -> bool:
        if not isinstance(node, dict):
            return False
        if "lit" in node:
            return True
        if "name" in node:
            used.add(node["name"])
            return True
        if "op" in node:
            return node["op"] in ("and", "or", "not", "-") and all(simple(a) for a in node["args"])
        if "chain" in node:
            chain = node["chain"]
            return all(op in _SIMPLE_OPS for op in chain[1::2]) and all(simple(e) for e in chain[::2])
        return False

    if not simple(ir):
        return False
    reads = []
    for name in sorted(used):
        if name in counters:
            reads.append(("counters", name))
        elif name in ("round", "rounds", "event", "self"):
            return False
        elif names.get(name, ("",))[0] == "track":
            reads.append(("tracks", names[name][1]))
        elif name not in names:
            return False  # a space, a building or an unknown name: worked out each time
    missing = object()

    def values(state: dict):
        key = tuple(state[table].get(name, missing) for table, name in reads)
        return None if missing in key else key

    return values


def never(*values) -> bool:
    """Game.asker's answer for a hook that cannot apply, whatever the values asked about."""
    return False


def _tests(hook) -> list | None:
    """The tests of a pure `when` of the form `A and B and …`, in order; None for any other `when`."""
    when = hook.when_ir
    if hook.reads is not None and isinstance(when, dict) and when.get("op") == "and":
        return when["args"]
    return None


def _leading(tests: list, start: int, unread: frozenset) -> int:
    """Where the run of tests from `start` that read none of the names in `unread` ends."""
    k = start
    while k < len(tests) and not interp._free(tests[k])[0] & unread:
        k += 1
    return k


def _joined(tests: list):
    """Tests joined by `and`, compiled once."""
    return interp.expr(tests[0] if len(tests) == 1 else {"op": "and", "args": tests})


def _fixed_part(hook, keys: tuple[str, ...]):
    """A hook's `when` of the form `A and B and …` split in two, each compiled once: the tests it starts
    with that read neither the event's params in `keys` nor the event as a whole, and the rest. What the
    first say cannot change while only those params do; when they hold, the `when` holds as the rest
    does. None when no test can be moved (or all can), or the `when` is not pure."""
    if keys in hook.fixed:
        return hook.fixed[keys]
    found, tests = None, _tests(hook)
    if tests is not None:
        k = _leading(tests, 0, frozenset(keys) | {"event"})
        if 0 < k < len(tests):
            found = (_joined(tests[:k]), _joined(tests[k:]))
    hook.fixed[keys] = found
    return found


def _gated_part(hook, keys: tuple[str, ...]):
    """After the tests _fixed_part moves out of a hook's `when` (`A and B and …`), the tests that read the
    first of `keys` but none of the others nor the event as a whole: (those, the rest or None), each
    compiled once. A move's search asks about each space from every space next to it; a `when` such as
    `space has M and event.from has M and …` then reads each space once, not once for each way in. None
    when there is no such test, or the `when` is not pure."""
    cache_key = ("gated",) + keys
    if cache_key in hook.fixed:
        return hook.fixed[cache_key]
    found, tests = None, _tests(hook)
    if tests is not None:
        k = _leading(tests, 0, frozenset(keys) | {"event"})
        k = 0 if k == len(tests) else k  # (_fixed_part moves nothing then: the whole `when` is asked)
        j = _leading(tests, k, frozenset(keys[1:]) | {"event"})
        if j > k:
            found = (_joined(tests[k:j]), _joined(tests[j:]) if j < len(tests) else None)
    hook.fixed[cache_key] = found
    return found


def _criteria(value) -> tuple:
    items = value if isinstance(value, (list, tuple)) else [value]
    return tuple(interp.criterion(item) for item in items)


def _shown(picked) -> str:
    """How a choice reads in the log: an action by its id, anything else by its string form."""
    if isinstance(picked, dict):
        return picked.get("id", "?")
    return str(picked)
