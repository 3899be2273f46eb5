"""Every printable aid of a pack, written into one folder with an index, as `spawnpit build` does.

Layout (per system): SYSTEM/player-aid.*, SYSTEM/special-rules.*, SYSTEM/cards.*, and
SYSTEM/scenarios/ID-sheet.* and ID-roster.* for every scenario; index.html links them all.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from spawnpit.generators.pack import Pack
from spawnpit.generators.render import environment


@dataclass(frozen=True, slots=True)
class Job:
    """One aid in one format: what to make and where it goes (picklable, for worker processes)."""

    aid: str
    subject: str
    fmt: str
    path: str


def jobs(pack: Pack, formats: tuple[str, ...]) -> list[Job]:
    out = []
    for system in sorted(pack.systems):
        for fmt in formats:
            out += [Job("aid", system, fmt, f"{system}/player-aid.{fmt}"),
                    Job("pack-roster", system, fmt, f"{system}/special-rules.{fmt}")]
            if pack.all(system, "card"):
                out.append(Job("cards", system, fmt, f"{system}/cards.{fmt}"))
            for scenario in sorted(pack.all(system, "scenario"), key=lambda s: s["id"]):
                out += [Job("sheet", f"{system}:{scenario['id']}", fmt, f"{system}/scenarios/{scenario['id']}-sheet.{fmt}"),
                        Job("roster", f"{system}:{scenario['id']}", fmt, f"{system}/scenarios/{scenario['id']}-roster.{fmt}")]
    return out


def make(pack: Pack, job: Job, paper: str) -> bytes:
    from spawnpit import generators

    if job.aid == "aid":
        return generators.aid(pack, job.subject, job.fmt, paper)
    if job.aid == "pack-roster":
        return generators.roster(pack, system=job.subject, fmt=job.fmt, paper=paper)
    if job.aid == "cards":
        return generators.card_sheet(pack, job.fmt, paper, system=job.subject)
    if job.aid == "sheet":
        return generators.sheet(pack, job.subject, job.fmt, paper)
    return generators.roster(pack, job.subject, fmt=job.fmt, paper=paper)


_PACK: Pack | None = None


def _init(data: dict) -> None:
    global _PACK
    _PACK = Pack(data)


def _run(args: tuple[Job, str, str]) -> str:
    job, paper, folder = args
    target = Path(folder) / job.path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(make(_PACK, job, paper))
    return job.path


def write_all(pack: Pack, folder: Path, formats: tuple[str, ...] = ("html", "pdf", "md"), paper: str = "letter",
              workers: int = 1) -> list[str]:
    """Write every aid; PDFs are slow to lay out, so they can be spread over worker processes."""
    todo = jobs(pack, formats)
    args = [(job, paper, str(folder)) for job in todo]
    if workers > 1 and len(todo) > 4:
        with ProcessPoolExecutor(workers, initializer=_init, initargs=(pack.data,)) as pool:
            written = list(pool.map(_run, args, chunksize=2))
    else:
        _init(pack.data)
        written = [_run(a) for a in args]
    (folder / "index.html").write_text(index(pack, todo, paper), encoding="utf-8")
    return written + ["index.html"]


def index(pack: Pack, todo: list[Job], paper: str) -> str:
    systems = []
    for system in sorted(pack.systems):
        mine = [j for j in todo if j.path.startswith(f"{system}/")]
        objects = {s["id"]: s for s in pack.all(system, "scenario")}
        scenarios = sorted({j.subject.split(":", 1)[1] for j in mine if ":" in j.subject},
                           key=lambda s: (objects[s]["props"].get("number", 0), s))
        titles = {sid: s["props"].get("title", sid) for sid, s in objects.items()}
        sys_obj = pack.systems[system]
        systems.append({
            "id": system, "title": sys_obj["props"].get("title") or sys_obj.get("title") or system,
            "general": [j for j in mine if ":" not in j.subject],
            "scenarios": [(titles.get(s, s), [j for j in mine if j.subject == f"{system}:{s}"]) for s in scenarios],
        })
    return environment().get_template("index.html.j2").render(systems=systems, paper=paper)
