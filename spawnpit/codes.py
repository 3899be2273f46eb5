"""Every diagnostic code spawnpit can report, with its title and long explanation.

`spawnpit explain CODE` prints these; a test checks that every code has a fixture in
tests/fixtures/invalid/ that triggers it. E… codes are errors, W… codes are warnings.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Code:
    title: str
    explanation: str


def _c(title: str, explanation: str) -> Code:
    return Code(title, " ".join(explanation.split()))


CODES: dict[str, Code] = {
    # ---- reading and parsing ---------------------------------------------------------------------
    "E0001": _c("syntax error", """The parser met a token it did not expect here. The message lists what
        would have been valid. Common causes: a missing closing brace `}`, two properties on one line
        (separate them with a newline or `;`), or a reserved word (`on`, `for`, `in`, `to`, `at`, …) used
        as a name."""),
    "E0002": _c("unexpected character", """A character that cannot start any token of the language, such
        as `$` or `@` outside a string. Names use letters, digits and `_`; text goes inside double
        quotes."""),
    "E0003": _c("unexpected end of file", """The file ended in the middle of a declaration, usually
        because a `{` or a `\"\"\"` text block was never closed. The span points at the end of the file;
        look for the last block that was opened."""),
    "E0004": _c("file too large", """Content files are limited in size (1 MiB) so that checking a pack
        stays fast and a malicious file cannot exhaust memory. Split the content into several files and
        `import` them."""),
    "E0005": _c("nesting too deep", """Blocks, brackets or expressions are nested deeper than the limit
        (48 levels). Real rules never need that much nesting; flatten the rule with `let` or split it into
        several hooks."""),
    "E0006": _c("cannot read file", """The file does not exist, is not a regular file, or is not valid
        UTF-8 text. spawnpit content files are UTF-8 text files ending in `.pit`."""),
    # ---- imports and declarations ---------------------------------------------------------------
    "E0101": _c("import not found", """An `import "path"` names a file that does not exist. Paths are
        relative to the importing file; the `.pit` extension may be left out. `import lnoe` (no quotes)
        imports a built-in library: lnoe, notld or dotz."""),
    "E0102": _c("import outside the pack", """Imports may only reach files inside the pack root: the
        nearest folder above the file that holds a `pack.toml`, or the folder given on the command
        line. This keeps content from reading arbitrary files on the machine of the person who checks
        it."""),
    "E0103": _c("import cycle", """Files import each other in a circle. spawnpit loads every file once,
        so a cycle is never needed: move the shared declarations into a file both can import."""),
    "E0104": _c("imports nested too deeply", """A chain of imports is longer than the limit (16). Import
        the files you need directly from the top file instead of through long chains."""),
    "E0105": _c("unknown system", """A `using` line or a `system` property names a system that is not
        declared in the pack. Declare it with `system NAME { … }` or import the file or library that
        declares it (for example `import lnoe`)."""),
    "E0106": _c("duplicate definition", """Two declarations of the same kind have the same name in the
        same system (names are compared as slugs: \"Die Zombies, Die!\" and die_zombies_die are the same).
        Rename one of them; the secondary label shows the first definition."""),
    "E0107": _c("declaration without a system", """Every card, unit, board, rule and scenario belongs to
        a game system, whose vocabulary it is checked against. Put `using NAME` at the top of the file or
        a `system NAME` property inside the declaration."""),
    "E0108": _c("unknown library", """`import NAME` without quotes imports a built-in library, and there
        is no library of that name. The built-in libraries are lnoe, notld and dotz."""),
    # ---- names and vocabulary -------------------------------------------------------------------
    "E0201": _c("unknown declaration kind", """The first word of a declaration is not a kind spawnpit
        knows (system, board, card, deck, table, special rule, scenario) and not a unit kind declared by
        the system (such as hero or zombie)."""),
    "E0202": _c("unknown property", """This declaration or block does not take a property of that name.
        The help lists the nearest valid property; `spawnpit explain` of the declaration's kind lists them
        all in the language reference (docs/LANGUAGE.md)."""),
    "E0203": _c("unknown event", """A hook (`on EVENT`, `instead of EVENT`) or an objective names an
        event the system does not declare. Events come from the system: every phase, step and action
        gives NAME, NAME.start and NAME.end; `event` entries add others; `unit event` entries exist for
        every unit kind (zombie.killed). A misspelt hook would silently never fire, so this is an
        error."""),
    "E0204": _c("unknown stat", """A stat (such as health, range or strength) is not declared by the
        system, or is used on something that does not carry it. Declare it with `stat NAME { … }` in the
        system."""),
    "E0205": _c("unknown keyword", """A keyword (a trait such as strong_man or a card keyword such as
        gun) is not declared by the system. Declare it with `keyword NAME \"Title\"` in the system."""),
    "E0206": _c("unknown name", """A name used in an expression is not a variable in scope, a counter,
        a side, a deck, a track, a unit kind, a marker, a keyword or anything else the system declares.
        Variables come from `for each`, `choose`, `let` and `as`."""),
    "E0207": _c("unknown card", """A card is referred to that no `card` declaration of this system
        defines."""),
    "E0208": _c("unknown deck", """A deck is referred to that the system does not declare. Decks are
        declared with `deck NAME \"Title\" { … }` in the system or at the top level."""),
    "E0209": _c("unknown special rule", """A scenario puts a special rule in effect that no `special rule`
        declaration of the system defines."""),
    "E0210": _c("unknown board", """A scenario uses a board (or an alternate board) that no `board`
        declaration defines."""),
    "E0211": _c("unknown unit kind", """A unit kind (hero, zombie, ghoul, zed, …) is used that the system
        does not declare with `kind NAME { … }`."""),
    "E0212": _c("unknown side", """A side is named that the system does not declare with
        `side NAME { … }`."""),
    "E0213": _c("unknown effect", """A statement in a hook starts with a word that is not an effect. The
        effects are: move, place, remove, wound, heal, kill, roll, draw, discard, shuffle, search, spawn,
        gain, spend, set, flip, mark, unmark, cancel, reveal, give, advance, retreat, lookup, log, end,
        and a few more; see docs/LANGUAGE.md."""),
    "E0214": _c("unknown function", """A call `name(…)` in an expression names a function spawnpit does
        not provide. Functions are: count, roll, any, all, min, max, distance, adjacent, sight, random,
        stat."""),
    "E0215": _c("unknown table", """A `lookup` names a table no `table` declaration defines."""),
    "E0216": _c("unknown space", """A board connection, building, spawn point or start area names a
        space or zone that the board does not declare."""),
    # ---- types and values -----------------------------------------------------------------------
    "E0301": _c("wrong type", """A value of one type is used where another is needed: wounding a deck,
        rolling a card, drawing from a unit, adding a space to a number. The message says what was
        expected and what was found."""),
    "E0302": _c("value out of range", """A number is outside what the rules allow: negative rounds, a
        Dot cost below zero, a target of 7+ on a D6, a stat outside the range the system declares for it,
        a table row outside the die's range."""),
    "E0303": _c("missing property", """This declaration needs a property it does not have (for example a
        scenario without a board, or a card without a deck)."""),
    "E0304": _c("property given twice", """A property that takes one value is given twice in the same
        block; the label shows the first one. Remove one of them."""),
    "E0305": _c("wrong kind of value", """A property got a value of the wrong kind: text where a number
        is needed, a name where text is needed, a list where one value is expected."""),
    "E0306": _c("Dot cost on an always-in-effect rule", """A special rule marked `always` is in effect in
        every game and has no Dot cost (Complete Rulebook 16.1). Remove `dots` or `always`."""),
    "E0307": _c("invalid dice", """A dice expression is not of the form [N]D[S] with N between 1 and 20
        and S a die the system declares (D3, D6, D216, …)."""),
    "E0308": _c("wrong arguments", """A special rule is put in effect with arguments that do not match its
        parameters: an unknown parameter name, a missing required argument, too many arguments, or a
        value that breaks the rule's `require` constraint."""),
    "E0309": _c("search card not in a deck", """A scenario's search cards must be cards of one of the
        system's decks, otherwise nobody could ever find them. Declare the card with `deck` set to one of
        the system's decks."""),
    "E0310": _c("wrong effect argument", """An effect got an argument it does not take (`wound h to s`),
        or lacks one it needs (`move z` without `to`), or a `log` text has not as many `{}` as values in
        its `with` list (`log "{} fires {}" with [h, w]`; a text with values must be written out in
        quotes). The help shows the forms the effect accepts."""),
    "E0311": _c("break of the layering", """An `instead of` replacement names an event that cannot be
        replaced (the start or end of a phase), a hook assigns to something that is not a counter or
        a variable, `decline` (giving up a replacement) stands outside an `instead of` hook, or a
        `card_target` hook (a card naming its target as it is played) stands anywhere but on a card, or
        would replace the naming."""),
    "E0312": _c("unit event without the engine's parameter", """The engine raises some unit events by
        itself, with fixed parameters: KIND.moved (from, to), KIND.killed (by), KIND.wounded (by),
        KIND.spawned (space) and KIND.entered (space), each also with `unit` (the table is
        engine/events.py). A system's `unit_event` of one of these names declares a parameter the engine
        never gives, so every hook reading it would fail, or never match, in play. Declare the
        engine's parameters instead (`unit_event killed { params \"by\" }`), or give the event another
        name and raise it yourself with `emit`."""),
    # ---- warnings -------------------------------------------------------------------------------
    "W0401": _c("text and behaviour disagree", """A card, ability or special rule has printed `text`
        but no hooks (it will be printed but never run), or hooks but no `text` (it will run but a player
        reading the printed aid cannot know it). Add the missing half, or mark a text-only rule with
        `behaviour manual` when players apply it by hand."""),
    "W0402": _c("objective on a counter that never changes", """An objective tests a counter that no hook
        ever changes, so the objective can never become true (or is always true). Add a hook that updates
        the counter, or fix the counter's name."""),
    "W0403": _c("two rules replace the same event", """Two special rules at the same layer both have an
        `instead of` the same event; only one replacement can apply, and which one is not obvious. Make
        one of them conditional, or move it to another layer."""),
    "W0404": _c("unit event leaves out an engine parameter", """A system's `unit_event` is one the engine
        raises by itself (moved, killed, wounded, spawned, entered) but does not declare every parameter
        the engine gives it, so no hook can filter on or read the missing ones (`on zombie.killed by
        hero` needs `by`). Add them to its `params`; see E0312 for the list."""),
    # ---- simulation (`spawnpit check --simulate N`) ---------------------------------------------------
    "E0501": _c("a rule failed in a simulated game", """`spawnpit check --simulate N` played N random games
        of the scenario and a rule went wrong in one of them: a hook asked for something impossible
        (wounding a unit that is not there, a name with no value), or events triggered each other without
        end (a runaway chain). The message names the rule, the event and the seed of a game where it
        happens; `spawnpit play SCENARIO --side SIDE=random … --seed SEED` (every side random) replays
        it. Fix the rule, or guard the effect with an `if`."""),
    "W0501": _c("objective never met in simulated games", """In none of the N random games of
        `spawnpit check --simulate N` did this objective hold (a `when` test) or its event happen (an
        `at` objective). It may just be hard to reach by random play, but often it can never happen: a
        counter nobody raises far enough, an event nothing emits, a test that contradicts the board.
        Play it by hand, raise N, or fix the objective."""),
    "W0502": _c("simulated games ended without a result", """Some of the N random games of
        `spawnpit check --simulate N` ended without a winner: they ran out of rounds with no objective
        met, or a rule ended the game with no side winning. A scenario usually says who wins when time
        runs out (`zombies win at sundown`, `heroes win at round.end when round == rounds`). The message
        gives how many games and the seed of one of them to replay."""),
    "W0503": _c("simulation not run", """`spawnpit check --simulate N` could not start the scenario's
        games (for example its board cannot be assembled, or the content has errors), so nothing about
        its play was checked. The message says why."""),
    # ---- our own bugs ---------------------------------------------------------------------------
    "E0901": _c("compiled object fails its schema", """The compiler produced a rule object that does not
        match its JSON Schema in schemas/. This is a bug in spawnpit, not in your content; please report
        it with the file that triggered it."""),
}
