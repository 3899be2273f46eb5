"""Semantic checks of every declaration against the tables in specs.py and its system's vocabulary."""

from __future__ import annotations

from spawnpit.compiler import ast as A
from spawnpit.compiler.consts import NotConstant, evaluate
from spawnpit.compiler.exprs import PREFERABLE, HookChecker, Scope
from spawnpit.compiler.resolve import Resolved
from spawnpit.compiler.specs import (ACTIVATIONS, AFTER_LAST_ROUND, APPLIES, BEHAVIOURS, BLOCKS, DECLS, EDGE_KINDS,
                                     LAYERS, STAT_TYPES, UNIT, Kind, P)
from spawnpit.compiler.vocab import blocks, first_value, props
from spawnpit.diagnostics import Label, Report, did_you_mean

RESERVED_PARAMS = {"by", "from", "to", "in", "at", "of", "for", "with", "as", "on", "into"}  # quoted in `params`
TEXT_AND_BEHAVIOUR = {"card", "ability", "special_rule", "rule"}
WORDS = {"type": STAT_TYPES, "applies": APPLIES, "layer": LAYERS, "behaviour": BEHAVIOURS,
         "owner": ("game", "side", "unit"), "activation": ACTIVATIONS, "through": EDGE_KINDS,
         "after_last_round": AFTER_LAST_ROUND}


class Checker:
    def __init__(self, res: Resolved, report: Report) -> None:
        self.res = res
        self.report = report
        self.changed: dict[str, set[str]] = {}

    def run(self) -> None:
        for name, vocab in self.res.systems.items():
            self.system = name
            self.vocab = vocab
            self.block(vocab.decl, DECLS["system"], {}, self.changed.setdefault(f"{name}:", set()))
            for block in blocks(vocab.decl, "stat"):
                self.stat_decl(block)
            for block in blocks(vocab.decl, "unit_event"):
                self.unit_event_decl(block)
        for decl, system in self.res.decls:
            self.system = system
            self.vocab = self.res.systems[system]
            spec = DECLS.get(decl.kind.value)
            if spec is None and decl.kind.value in self.vocab.kinds:
                spec = UNIT
            if spec is None:
                kinds = set(DECLS) | set(self.vocab.kinds)
                self.report.error("E0201", f"unknown declaration kind `{decl.kind.value}`", decl.kind.span,
                                  help=did_you_mean(decl.kind.value, kinds) or "kinds: " + ", ".join(sorted(kinds)))
                continue
            local = {p.name.value: "num" for p in decl.params}
            local["self"] = {"card": "card", "scenario": "any", "special_rule": "any"}.get(decl.kind.value, "unit")
            changed = self.changed.setdefault(f"{system}:{decl.id}", set())
            self.block(decl, spec, local, changed)
            specific = getattr(self, "decl_" + decl.kind.value, None)
            if specific is not None:
                specific(decl)
            elif spec is UNIT:
                self.decl_unit(decl)

    # ---- generic block walk ----------------------------------------------------------------------

    def block(self, block: A.Block, spec: Kind, local: dict, changed: set | None = None) -> None:
        changed = set() if changed is None else changed
        seen: dict[str, A.Prop] = {}
        local = dict(local)
        for p in props(block, "counter"):
            if isinstance(p.key, A.NameRef):
                local[p.key.name] = "num"
        for item in block.items:
            if isinstance(item, A.Prop):
                self.prop(block, spec, item, seen, local)
            elif isinstance(item, A.Block):
                self.nested(block, spec, item, local, changed)
            elif isinstance(item, A.Hook):
                if not spec.hooks:
                    self.report.error("E0202", f"a {block.kind.value} cannot have hooks", item.event.span,
                                      help="put the hook in a `rule` block or on a card, unit or scenario")
                if item.event.dotted == "card_target":
                    self.card_target(item, local)
                HookChecker(self.report, Scope(self.res.names[self.system], local), changed).hook(item)
            elif isinstance(item, A.Objective):
                self.objective(block, item, local)
        for p in props(block, "hidden"):  # bookkeeping the terminal leaves out: counters, markers, stats
            self.hidden(block, p)
        for p in props(block, "prefer"):  # an action's score for the ai policy, with the acting `unit`
            checker = HookChecker(self.report, Scope(self.res.names[self.system], {**local, "unit": "unit"}), set())
            for v in p.values:
                checker.expect(v, PREFERABLE, "`prefer`")
        if block.kind.value == "action":  # when the action may be taken at all, with the acting `unit`
            for p in props(block, "require"):
                checker = HookChecker(self.report, Scope(self.res.names[self.system], {**local, "unit": "unit"}), set())
                for v in p.values:
                    checker.expect(v, PREFERABLE, "an action's `require`")  # yes/no; a number or thing: not 0/none
        for name, p in spec.props.items():
            if p.required and name not in seen:
                self.report.error("E0303", f"{block.kind.value} `{block.id}` has no `{name}`", block.head_span)
        if block.kind.value in TEXT_AND_BEHAVIOUR:
            self.text_and_behaviour(block)

    def card_target(self, hook: A.Hook, local: dict) -> None:
        """`card_target` runs only the played card's own hooks, before anyone may answer the card: a hook
        anywhere else, or one that would replace the naming, would never run."""
        if local.get("self") != "card":
            self.report.error("E0311", "only the card being played answers `card_target`: this hook would never run",
                              hook.event.span, help="put it on the card (`on card_target when card == self { … }`), "
                                                    "or answer the card in play with `on card_played`")
        elif hook.replace:
            self.report.error("E0311", "`card_target` names a card's target and cannot be replaced", hook.event.span,
                              help="use `on card_target` to name the target, or `instead of card_played` to cancel the card")

    def nested(self, parent: A.Block, spec: Kind, item: A.Block, local: dict, changed: set) -> None:
        kind = item.kind.value
        if kind not in spec.blocks:
            self.report.error("E0202", f"a {parent.kind.value} has no `{kind}` blocks", item.kind.span,
                              help=did_you_mean(kind, spec.blocks) or ("it takes: " + ", ".join(spec.blocks) if spec.blocks else "it takes no blocks"))
            return
        self.block(item, BLOCKS[kind], local, changed)

    def prop(self, block: A.Block, spec: Kind, prop: A.Prop, seen: dict, local: dict) -> None:
        name = prop.name.value
        p = spec.props.get(name)
        if p is None:
            if spec.stats and name in self.vocab.stats:
                self.stat_value(block, spec.stats, prop)
                return
            if block.kind.value == "scenario" and name in self.vocab.sides:
                self.values(prop, P("int"), local)
                return
            options = set(spec.props) | (set(self.vocab.stats) if spec.stats else set())
            self.report.error("E0202", f"a {block.kind.value} has no property `{name}`", prop.name.span,
                              help=did_you_mean(name, options) or "properties: " + ", ".join(sorted(options)))
            return
        if name in seen and not p.repeat:
            self.report.error("E0304", f"`{name}` is given twice", prop.name.span,
                              labels=[Label(span=seen[name].name.span, message="first given here")])
        seen.setdefault(name, prop)
        if p.keyed is not None and p.keyed != (prop.key is not None):
            form = f"{name} KEY = VALUE" if p.keyed else f"{name} VALUE"
            self.report.error("E0305", f"`{name}` is written `{form}`", prop.span)
            return
        if p.kind != "flag" and not prop.values:
            self.report.error("E0305", f"`{name}` needs a value", prop.span)
        elif len(prop.values) > 1 and not p.many:
            self.report.error("E0305", f"`{name}` takes one value, not {len(prop.values)}", prop.values[1].span)
        self.values(prop, p, local)

    def values(self, prop: A.Prop, p: P, local: dict) -> None:
        from spawnpit.compiler.values import check_value

        if prop.key is not None and p.kind in ("int", "range", "expr") and prop.name.value in ("balance", "players"):
            if isinstance(prop.key, A.NameRef) and prop.key.name not in self.vocab.sides:
                self.report.error("E0212", f"unknown side `{prop.key.name}`", prop.key.span,
                                  help=did_you_mean(prop.key.name, self.vocab.sides))
        for value in prop.values:
            check_value(self, p.kind, value, prop, local)

    def hidden(self, block: A.Block, prop: A.Prop) -> None:
        """`hidden NAME, …`: each a counter (the system's or this declaration's), a marker or a stat."""
        known = set(self.vocab.counters) | set(self.vocab.markers) | set(self.vocab.stats)
        known |= {p.key.name for p in props(block, "counter") if isinstance(p.key, A.NameRef)}  # (not its params)
        for value in prop.values:
            if isinstance(value, A.NameRef) and value.name not in known:
                self.report.error("E0206", f"`hidden` names no counter, marker or stat `{value.name}`", value.span,
                                  help=did_you_mean(value.name, known) or "hide a counter, a marker or a stat the system declares")

    # ---- specific declarations -------------------------------------------------------------------

    def stat_decl(self, block: A.Block) -> None:
        type_ = first_value(block, "type")
        if type_ is None:
            self.report.error("E0303", f"stat `{block.id}` has no `type`", block.head_span, help="types: " + ", ".join(STAT_TYPES))

    def unit_event_decl(self, block: A.Block) -> None:
        """A `unit_event` the engine raises by itself must declare the parameters the engine gives it
        (engine/events.py): one it does not give would be unset in every hook that reads it."""
        from spawnpit.engine.events import UNIT_EVENTS

        supplied = UNIT_EVENTS.get(block.id or "")
        if supplied is None:
            return  # the content's own event, raised with `emit`: its parameters are what it declares
        form = ", ".join(f'"{n}"' if n in RESERVED_PARAMS else n for n in supplied)
        given = ", ".join(f"`{n}`" for n in ("unit", *supplied)[:-1]) + f" and `{supplied[-1]}`"
        declared: set[str] = set()
        wrong = False
        for p in props(block, "params"):
            for v in p.values:
                name = v.name if isinstance(v, A.NameRef) else (v.value if isinstance(v, A.Lit) and v.kind == "str" else None)
                if name is None or name == "unit":
                    continue
                declared.add(name)
                if name not in supplied:
                    wrong = True
                    hint = did_you_mean(name, supplied)
                    self.report.error("E0312", f"the engine gives unit event `{block.id}` no parameter `{name}`",
                                      v.span, help=(hint + " " if hint else "") + f"it gives {given}: write `params {form}`")
        missing = [n for n in supplied if n not in declared]
        if missing and not wrong:
            names = ", ".join(f"`{n}`" for n in missing)
            self.report.warn("W0404", f"unit event `{block.id}` leaves out {names}, which the engine supplies",
                             block.head_span, help=f"no hook can filter on it; write `params {form}`")

    def stat_value(self, owner: A.Block, applies: str, prop: A.Prop) -> None:
        from spawnpit.compiler.values import check_stat

        check_stat(self, owner, applies, prop)

    def decl_unit(self, decl: A.Block) -> None:
        allowed = self.vocab.kind_stats(decl.kind.value)
        for prop in decl.items:
            if isinstance(prop, A.Prop) and prop.name.value in self.vocab.stats and allowed and prop.name.value not in allowed:
                self.report.error("E0204", f"`{prop.name.value}` is not a stat of a {decl.kind.value}", prop.name.span,
                                  help="its stats: " + ", ".join(sorted(allowed)))

    def decl_board(self, decl: A.Block) -> None:
        from spawnpit.compiler.values import check_board

        check_board(self, decl)

    def decl_table(self, decl: A.Block) -> None:
        from spawnpit.compiler.values import check_table

        check_table(self, decl)

    def decl_special_rule(self, decl: A.Block) -> None:
        from spawnpit.compiler.values import check_special_rule

        check_special_rule(self, decl)

    def decl_scenario(self, decl: A.Block) -> None:
        from spawnpit.compiler.values import check_scenario

        check_scenario(self, decl)

    def objective(self, block: A.Block, item: A.Objective, local: dict) -> None:
        if block.kind.value != "scenario":
            self.report.error("E0202", f"a {block.kind.value} cannot have objectives", item.span)
            return
        if item.side.value not in self.vocab.sides:
            self.report.error("E0212", f"unknown side `{item.side.value}`", item.side.span,
                              help=did_you_mean(item.side.value, self.vocab.sides))
        checker = HookChecker(self.report, Scope(self.res.names[self.system], local), set())
        if item.at is not None:
            checker.event(item.at)
        else:
            checker.expr(item.when)

    def text_and_behaviour(self, block: A.Block) -> None:
        has_text = first_value(block, "text") is not None
        has_hooks = any(isinstance(i, A.Hook) for i in block.items)
        behaviour = first_value(block, "behaviour")
        # manual: the players apply it; engine: rules elsewhere apply it (a system rule reading a stat or keyword)
        manual = isinstance(behaviour, A.NameRef) and behaviour.name in ("manual", "engine")
        if has_text and not has_hooks and not manual and not props(block, "always"):
            self.report.warn("W0401", f"{block.kind.value.replace('_', ' ')} `{block.id}` has text but no behaviour",
                             block.head_span, help="add hooks, or `behaviour manual` if players apply it by hand")
        elif has_hooks and not has_text:
            self.report.warn("W0401", f"{block.kind.value.replace('_', ' ')} `{block.id}` has behaviour but no printed text",
                             block.head_span, help="add `text \"…\"` so printed aids can show it")


def check(res: Resolved, report: Report) -> Checker:
    checker = Checker(res, report)
    checker.run()
    return checker


def constant(expr, env: dict):
    try:
        return evaluate(expr, env)
    except (NotConstant, TypeError, ArithmeticError):
        return None
