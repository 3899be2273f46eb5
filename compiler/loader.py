"""Reads the files of a pack and everything they import, confined to the pack root.

Each file is read, parsed and built once. Imports are resolved relative to the importing file and must
stay inside the pack root; cycles, depth, missing files and unreadable files become diagnostics.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from pathlib import Path

from spawnpit import resources
from spawnpit.compiler import ast as A
from spawnpit.compiler import cache
from spawnpit.compiler.build import build
from spawnpit.diagnostics import Report, Span
from spawnpit.dsl.limits import MAX_FILE_BYTES

MAX_IMPORT_DEPTH = 16
PACK_MARKER = "pack.toml"


@dataclass(frozen=True, slots=True)
class Loaded:
    files: tuple[A.File, ...]
    texts: dict[str, str]
    lines: int
    relative: dict[str, str]  # shown path → path relative to its pack root

    @property
    def first_path(self) -> str:
        return next(iter(self.texts), "<input>")


def display_path(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return str(path)


@functools.cache
def _frontend_digest() -> str:
    """What a cached AST depends on besides the text: the grammar and the code that builds the AST."""
    from spawnpit import dsl

    here, front = Path(__file__).parent, Path(dsl.__file__).parent
    sources = [front / "spawnpit.lark", front / "parser.py", front / "limits.py",
               here / "build.py", here / "ast.py"]
    return cache.digest(*(p.read_bytes() for p in sources))


def is_builtin(path: Path) -> bool:
    return any(path.is_relative_to(folder) for folder in resources.builtin_paths())


def pack_root(path: Path, given: Path) -> Path:
    if is_builtin(path):
        return resources.content_root()
    for folder in path.parents:
        if (folder / PACK_MARKER).is_file():
            return folder
    return given if given.is_dir() else given.parent


def expand(paths: list[Path], report: Report) -> list[tuple[Path, Path]]:
    """The .pit files named by the command line, each with the pack root it belongs to."""
    out: list[tuple[Path, Path]] = []
    for given in paths:
        given = given.resolve()
        if given.is_dir():
            files = sorted(p for p in given.rglob("*.pit") if p.is_file())
        elif given.is_file():
            files = [given]
        else:
            report.error("E0006", f"no such file or folder: {display_path(given)}", Span.point(display_path(given)))
            continue
        out.extend((f, pack_root(f, given)) for f in files)
    return out


def _load_used_libraries(loader: "Loader") -> None:
    """A file that uses or declares a built-in system is checked with that system's library, so a single
    file (`spawnpit check my_rules.pit` with `using lnoe`) sees the same names as the whole pack."""
    builtin = resources.content_root()
    declared_elsewhere = {d.id for p, f in loader.files.items() if f is not None and not is_builtin(p)
                          for d in f.decls if d.kind.value == "system"}
    used = {u.system.value for f in loader.files.values() if f is not None for u in f.usings}
    used |= {d.id for p, f in loader.files.items() if f is not None and is_builtin(p)
             for d in f.decls if d.kind.value == "system"}
    for name in sorted(used & set(resources.LIBRARIES) - declared_elsewhere):
        index = resources.library_index(name).resolve()
        if index.is_file():
            loader.load(index, builtin)


class Loader:
    def __init__(self, report: Report) -> None:
        self.report = report
        self.files: dict[Path, A.File | None] = {}
        self.texts: dict[str, str] = {}
        self.lines = 0
        self.relative: dict[str, str] = {}
        self.order: list[A.File] = []  # imports before importers
        self._active: list[Path] = []

    def load(self, path: Path, root: Path, via: A.Import | None = None) -> None:
        if path in self._active:
            cycle = " → ".join(display_path(p) for p in self._active[self._active.index(path):] + [path])
            self.report.error("E0103", f"import cycle: {cycle}", via.span if via else Span.point(display_path(path)),
                              help="move what both files need into a third file that both import")
            return
        if path in self.files:
            return
        if len(self._active) > MAX_IMPORT_DEPTH:
            self.report.error("E0104", f"imports are nested more than {MAX_IMPORT_DEPTH} deep", via.span)
            return
        shown = display_path(path)
        text = self._read(path, shown, via)
        self.files[path] = None
        if text is None:
            return
        self.texts[shown] = text
        self.relative[shown] = path.relative_to(root).as_posix() if path.is_relative_to(root) else shown
        self.lines += text.count("\n") + 1
        file = self._parse(text, shown)
        if file is None:
            return
        self.files[path] = file
        self._active.append(path)
        for imp in file.imports:
            target = self._resolve(imp, path, root)
            if target is not None:
                self.load(target[0], target[1], imp)
        self._active.pop()
        self.order.append(file)

    def _parse(self, text: str, shown: str) -> A.File | None:
        """Parse and build one file, or take both from the cache when this exact text was seen before."""
        key = cache.digest(_frontend_digest(), shown, text) if cache.enabled() else ""
        hit = cache.load("ast", key) if key else None
        if hit is not None:
            file, diagnostics = hit
            self.report.extend(diagnostics)
            return file
        from spawnpit.dsl import parse

        result = parse(text, shown)
        self.report.extend(result.diagnostics)
        file = None
        if result.tree is not None:
            try:
                file = build(result.tree, shown)
            except RecursionError:
                self.report.error("E0005", "expressions are nested too deeply to compile", Span.point(shown))
                return None
        cache.store("ast", key, (file, result.diagnostics))
        return file

    def _read(self, path: Path, shown: str, via: A.Import | None) -> str | None:
        span = via.span if via else Span.point(shown)
        try:
            if path.stat().st_size > MAX_FILE_BYTES:
                self.report.error("E0004", f"{shown} is larger than {MAX_FILE_BYTES // 1024} KiB", span,
                                  help="split it into several files and import them")
                return None
            data = path.read_bytes()
            return data.decode("utf-8")
        except UnicodeDecodeError as err:
            line = data.count(b"\n", 0, err.start) + 1
            col = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
            self.report.error("E0006", f"{shown} is not UTF-8 text: byte 0x{data[err.start]:02x} cannot be decoded",
                              Span.point(shown, line, col), help="save the file as UTF-8")
        except OSError as err:
            self.report.error("E0006", f"cannot read {shown}: {err.strerror or err}", span)
        return None

    def _resolve(self, imp: A.Import, importer: Path, root: Path) -> tuple[Path, Path] | None:
        if imp.library:
            if imp.target not in resources.LIBRARIES:
                self.report.error("E0108", f"there is no built-in library `{imp.target}`", imp.span,
                                  help="the libraries are: " + ", ".join(resources.LIBRARIES))
                return None
            return resources.library_index(imp.target).resolve(), resources.content_root()
        name = imp.target if imp.target.endswith(".pit") else imp.target + ".pit"
        if os.path.isabs(name):
            self.report.error("E0102", f"`{imp.target}` is an absolute path", imp.span,
                              help="import paths are relative to the importing file")
            return None
        target = (importer.parent / name).resolve()
        if not target.is_relative_to(root):
            self.report.error("E0102", f"`{imp.target}` leads outside the pack", imp.span,
                              help=f"content may only import files inside its pack root ({display_path(root)}, "
                                   "the nearest folder holding pack.toml)")
            return None
        if not target.is_file():
            self.report.error("E0101", f"cannot find `{imp.target}` (looked for {display_path(target)})", imp.span)
            return None
        return target, root


def load(paths: list[Path], report: Report) -> Loaded:
    loader = Loader(report)
    for path, root in expand(paths, report):
        loader.load(path, root)
    _load_used_libraries(loader)
    files = tuple(loader.order)
    return Loaded(files=files, texts=loader.texts, lines=loader.lines, relative=loader.relative)
