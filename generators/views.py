"""View models: what each printed aid shows, computed from rule objects. Templates only lay them out."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from spawnpit.generators import text as T
from spawnpit.generators.pack import Pack, PackError, blocks, keyed, prop_list

OTHER = "other"


def natural(number: str) -> tuple:
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", number or "~"))


def titles_of(system: dict) -> dict[str, str]:
    """Display titles of every name the system declares (sides, events, tracks, …)."""
    out = {}
    for block in system.get("blocks", []):
        if "title" in block:
            out[block["id"]] = block["title"]
    return out


def at_event(system: dict, event: str, titles: dict) -> str:
    """An objective reached at an event, by the event's own title ("at the end of the Sun Track"): a rule
    of the same name ("Sundown") must not lend it its title. A leading "The" reads "the"."""
    title = next((b["title"] for b in system.get("blocks", []) if b.get("kind") == "event" and b.get("id") == event
                  and b.get("title")), None) or titles.get(event) or T.words(event)
    return f"at {re.sub(r'^The ', 'the ', title)}"


def _title(obj: dict) -> str:
    return obj["props"].get("title") or obj.get("title") or T.words(obj["id"])


# ---- scenario sheet ---------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class RuleInEffect:
    number: str
    title: str
    side: str
    dots: str
    text: str
    source: str


@dataclass(frozen=True, slots=True)
class Objective:
    side: str
    result: str
    text: str


@dataclass(frozen=True, slots=True)
class ScenarioSheet:
    id: str
    system: str
    system_title: str
    title: str
    number: str
    source: str
    text: str
    board: str
    board_id: str
    alternates: list[str]
    rounds: str
    players: list[tuple[str, str]]
    starting: list[tuple[str, str]]
    setup: list[str]
    rules: list[RuleInEffect]
    objectives: list[tuple[str, list[Objective]]]
    search_cards: list[str]
    balance: list[tuple[str, str]]
    notes: list[str]
    reconstructed: list[str]
    board_svg: str = ""
    density: str = "normal"


def _range(value) -> str:
    if isinstance(value, list) and len(value) == 2:
        return f"{value[0]}–{value[1]}" if value[0] != value[1] else str(value[0])
    return str(value)


def rule_title(rule: dict, args: dict | None) -> str:
    title = _title(rule)
    if title.endswith(")"):  # the name already shows its parameter, as "Number Counters (1-6/1-8)"
        return title
    if args:
        title += " (" + ", ".join(str(v) for v in args.values()) + ")"
    elif rule.get("params"):
        title += " (" + ", ".join(p["name"] for p in rule["params"]) + ")"
    return title


def declared_order(obj: dict) -> tuple:
    """Where an object was declared (file, line): content order is the order people wrote."""
    path, _, rest = obj.get("at", ":0:0").rpartition(":")
    path, _, line = path.rpartition(":")
    return (path, int(line or 0))


def scenario_sheet(pack: Pack, scenario: dict, board_svg=None) -> ScenarioSheet:
    system = pack.system(scenario["system"])
    titles = titles_of(system)
    props = scenario["props"]
    side_ids = [b["id"] for b in blocks(system, "side")]
    board = pack.get(scenario["system"], "board", props.get("board", ""))
    rules = []
    for entry in scenario.get("rules", []):
        rule = pack.get(scenario["system"], "special_rule", entry["rule"])
        if rule is None:
            continue
        rules.append(RuleInEffect(number=rule["props"].get("number", ""), title=rule_title(rule, entry["args"]),
                                  side=titles.get(rule["props"].get("side", ""), rule["props"].get("side", "")),
                                  dots=_dots_text(rule, entry), text=rule["props"].get("text", ""),
                                  source=rule["props"].get("source", "")))
    for block in blocks(scenario, "rule"):
        rules.append(RuleInEffect(number="", title=_title(block), side="scenario", dots="",
                                  text=block["props"].get("text", ""), source=block["props"].get("source", "")))
    objectives: dict[str, list[Objective]] = {}
    for o in scenario.get("objectives", []):
        what = at_event(system, o["at"], titles) if "at" in o else f"when {T.expr(o['when'], titles)}"
        objectives.setdefault(o["side"], []).append(Objective(side=titles.get(o["side"], o["side"]),
                                                              result=o["result"], text=what))
    sheet = ScenarioSheet(
        id=scenario["id"], system=scenario["system"], system_title=_title(system), title=_title(scenario),
        number=str(props.get("number", "")), source=props.get("source", ""), text=props.get("text", ""),
        board=_title(board) if board else T.words(props.get("board", "")), board_id=props.get("board", ""),
        alternates=[_title(b) if (b := pack.get(scenario["system"], "board", a)) else T.words(a)
                    for a in prop_list(scenario, "alternate")],
        rounds=str(props.get("rounds", "—")),
        players=[(titles.get(k, k) if k else "Total", _range(v)) for k, v in keyed(scenario, "players")],
        starting=[(titles.get(s, s), str(props[s])) for s in side_ids
                  if isinstance(props.get(s), int) and not isinstance(props.get(s), bool)],
        setup=[s for b in blocks(scenario, "setup") for s in prop_list(b, "step")],
        rules=rules,
        objectives=[(titles.get(side, side), objs) for side, objs in objectives.items()],
        search_cards=[_card_title(pack, scenario["system"], c) for c in prop_list(scenario, "search_cards")],
        balance=[(titles.get(k, k), str(v)) for k, v in keyed(scenario, "balance")],
        notes=prop_list(scenario, "note"),
        reconstructed=[x for x in (props.get("approx"), board and board["props"].get("approx")) if x],
        board_svg=board_svg(pack, board) if (board_svg and board) else "",
    )
    return _with_density(sheet)


def _card_title(pack: Pack, system: str, name: str) -> str:
    card = pack.get(system, "card", T.words(name).replace(" ", "_")) or pack.get(system, "card", name)
    return _title(card) if card else name


def _with_density(sheet: ScenarioSheet) -> ScenarioSheet:
    """Long scenarios print in a smaller face so that every sheet fits one page."""
    size = (len(sheet.text) + sum(len(r.text) + 40 for r in sheet.rules) + sum(len(s) + 20 for s in sheet.setup)
            + sum(len(n) for n in sheet.notes) + sum(len(x) for x in sheet.reconstructed))
    density = "normal" if size < 1800 else "compact" if size < 3200 else "dense"
    return ScenarioSheet(**{**{f: getattr(sheet, f) for f in sheet.__slots__}, "density": density})


# ---- special rules rosters -------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class RosterRow:
    in_effect: bool
    always: bool
    number: str
    title: str
    dots: str
    cost: float | None
    source: str
    used_by: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class RosterGroup:
    side: str
    title: str
    rows: list[RosterRow]
    total: str


@dataclass(frozen=True, slots=True)
class Roster:
    title: str
    subtitle: str
    system_title: str
    groups: list[RosterGroup]
    scenario: bool


def _dots_text(rule: dict, entry: dict | None) -> str:
    if rule.get("always"):
        return "Always in Effect"
    if rule.get("dots") is None:
        return "N/A"
    if entry is not None and entry.get("dots") is not None:
        return _number(entry["dots"])
    return T.formula(rule["dots"])


def _number(value) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _groups(pack: Pack, system: str, in_effect: dict[str, dict], used_by: dict[str, list[str]]) -> list[RosterGroup]:
    sys_obj = pack.system(system)
    titles = titles_of(sys_obj)
    order = [b["id"] for b in blocks(sys_obj, "side")] + [OTHER]
    by_side: dict[str, list[dict]] = {}
    for rule in pack.all(system, "special_rule"):
        by_side.setdefault(rule["props"].get("side", OTHER), []).append(rule)
    groups = []
    for side in order + sorted(set(by_side) - set(order)):
        rules = sorted(by_side.get(side, []),
                       key=lambda r: (not r["always"], natural(r["props"].get("number", "")), declared_order(r)))
        if not rules:
            continue
        rows, total = [], 0.0
        for rule in rules:
            entry = in_effect.get(rule["id"])
            active = entry is not None or rule["always"]
            cost = entry.get("dots") if entry else None
            if entry is not None and cost is not None:
                total += cost
            rows.append(RosterRow(in_effect=active, always=rule["always"], number=rule["props"].get("number", ""),
                                  title=rule_title(rule, entry["args"] if entry else None),
                                  dots=_dots_text(rule, entry), cost=cost, source=rule["props"].get("source", ""),
                                  used_by=used_by.get(rule["id"], [])))
        title = titles.get(side, T.words(side).title()) if side != OTHER else "Other"
        groups.append(RosterGroup(side=side, title=title, rows=rows,
                                  total=_number(total) if side != OTHER else "N/A"))
    return groups


def scenario_roster(pack: Pack, scenario: dict) -> Roster:
    in_effect = {e["rule"]: e for e in scenario.get("rules", [])}
    system = pack.system(scenario["system"])
    return Roster(title=f"Special Rules Roster: {_title(scenario)}", subtitle=scenario["props"].get("source", ""),
                  system_title=_title(system), groups=_groups(pack, scenario["system"], in_effect, {}), scenario=True)


def pack_roster(pack: Pack, system: str) -> Roster:
    used_by: dict[str, list[str]] = {}
    for scenario in sorted(pack.all(system, "scenario"), key=lambda s: (s["props"].get("number", 0), s["id"])):
        for entry in scenario.get("rules", []):
            used_by.setdefault(entry["rule"], []).append(_title(scenario))
    sys_obj = pack.system(system)
    return Roster(title=f"Special Rules: {_title(sys_obj)}", subtitle="every special rule in the pack",
                  system_title=_title(sys_obj), groups=_groups(pack, system, {}, used_by), scenario=False)


# ---- player aid ------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class AidItem:
    title: str
    text: str
    detail: str = ""
    children: list["AidItem"] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class PlayerAid:
    title: str
    source: str
    sides: list[str]
    phases: list[AidItem]
    rules: list[AidItem]
    reference: list[tuple[str, str]]


def _actions(block: dict) -> list[AidItem]:
    out = []
    for action in blocks(block, "action"):
        cost = action["props"].get("cost")
        out.append(AidItem(title=_title(action), text=action["props"].get("text", ""),
                           detail=f"{cost} action{'s' if cost != 1 else ''}" if cost is not None else ""))
    return out


def player_aid(pack: Pack, system_name: str) -> PlayerAid:
    system = pack.system(system_name)
    titles = titles_of(system)
    phases = []
    for phase in blocks(system, "phase"):
        steps = [AidItem(title=_title(s), text=s["props"].get("text", ""), children=_actions(s))
                 for s in blocks(phase, "step")]
        side = phase["props"].get("side")
        phases.append(AidItem(title=_title(phase), text=phase["props"].get("text", ""),
                              detail=titles.get(side, side or ""), children=steps + _actions(phase)))
    rules = [AidItem(title=_title(r), text=r["props"].get("text", "")) for r in blocks(system, "rule")]
    reference = []
    if system["props"].get("dice"):
        reference.append(("Dice", ", ".join(prop_list(system, "dice"))))
    for kind, label in (("deck", "Decks"), ("track", "Tracks"), ("stat", "Stats")):
        names = [_title(b) for b in blocks(system, kind)]
        if names:
            reference.append((label, ", ".join(names)))
    return PlayerAid(title=_title(system), source=system["props"].get("source", ""),
                     sides=[_title(b) for b in blocks(system, "side")], phases=phases, rules=rules,
                     reference=reference)


def require_system(pack: Pack, name: str) -> str:
    pack.system(name)
    return name


__all__ = ["PackError", "scenario_sheet", "scenario_roster", "pack_roster", "player_aid"]
