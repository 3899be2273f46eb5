"""Shared fixtures for the printable-aid tests: the built-in pack, every document rendered once per
session, a hostile pack for the escaping tests, and a real headless Chromium that measures and prints
many documents per run.

Tools: the browser tests need Chromium (``chromium``, ``chromium-browser`` or ``google-chrome``, or
``SPAWNPIT_CHROMIUM=/path``) and poppler's ``pdfinfo``; the PDF tests need WeasyPrint's Pango libraries
and poppler's ``pdfinfo`` and ``pdftotext``. A missing tool SKIPs the tests that need it, saying why;
under CI (``CI=true``) it is a FAILURE, so that CI can never pass by skipping everything. .ci/run installs
them on a fresh Debian machine.

On a layout failure the browser tests save a screenshot under tests/artifacts/ (gitignored) and name it
in the assertion message.
"""

from __future__ import annotations

import functools
import json
import math
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pytest

from spawnpit import generators
from spawnpit.generators import Pack

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
PAPERS = ("letter", "a4")
IN_CI = os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")
CARDS_AVAILABLE = (ROOT / "generators" / "cards.py").is_file()
CARDS_MISSING = "generators/cards.py is not written yet: no card sheets to test"
CARDS_PER_PAGE = 9
HOSTILE = "<script>alert(1)</script>"

# Page sizes in PostScript points, as pdfinfo prints them.
PAGE_POINTS = {"letter": (612.0, 792.0), "a4": (595.28, 841.89)}
# CSS px (96 per inch) of the page box, for the screenshot window.
PAGE_PX = {"letter": (816, 1056), "a4": (794, 1123)}


# ---- tools ------------------------------------------------------------------------------------------

def require_tool(what: str, found: str | None, why: str) -> str:
    """The tool's path; otherwise SKIP (a developer's machine) or FAIL (CI) with the reason."""
    if found:
        return found
    message = f"{what} not installed: {why} (Debian: see the apt-get line in .ci/run)"
    if IN_CI:
        pytest.fail(f"CI=true and {message}", pytrace=False)
    pytest.skip(message)


def chromium_path() -> str | None:
    override = os.environ.get("SPAWNPIT_CHROMIUM")
    if override:
        return override if Path(override).exists() else shutil.which(override)
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        if found := shutil.which(name):
            return found
    return None


@pytest.fixture(scope="session")
def chromium() -> str:
    return require_tool("chromium", chromium_path(), "the browser tests load every aid in headless Chromium")


@pytest.fixture(scope="session")
def pdfinfo() -> str:
    return require_tool("pdfinfo", shutil.which("pdfinfo"), "page counts and sizes are read with poppler-utils")


@pytest.fixture(scope="session")
def pdftotext() -> str:
    return require_tool("pdftotext", shutil.which("pdftotext"), "PDF text is read with poppler-utils")


@pytest.fixture(scope="session")
def weasyprint() -> None:
    try:
        import weasyprint  # noqa: F401
    except (ImportError, OSError) as err:  # OSError: Pango is missing
        require_tool("WeasyPrint with Pango", None, f"PDF output needs them ({err})")


def pdf_info(pdfinfo_bin: str, path: Path) -> dict:
    """Pages and page size (points) of a PDF, from pdfinfo."""
    out = subprocess.run([pdfinfo_bin, str(path)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, f"pdfinfo {path} failed: {out.stderr.strip()}"
    pages = int(re.search(r"^Pages:\s+(\d+)", out.stdout, re.M)[1])
    size = re.search(r"^Page size:\s+([\d.]+) x ([\d.]+) pts", out.stdout, re.M)
    return {"pages": pages, "size": (float(size[1]), float(size[2]))}


def same_size(actual: tuple[float, float], paper: str, tolerance: float = 1.0) -> bool:
    want = PAGE_POINTS[paper]
    return all(abs(a - w) <= tolerance for a, w in zip(actual, want))


# ---- content ---------------------------------------------------------------------------------------

@functools.cache
def builtin_pack() -> Pack:
    """The built-in pack, compiled once (also at collection time, so compiled without the user's cache)."""
    from spawnpit.compiler import compile_paths
    from spawnpit.resources import builtin_paths

    saved = os.environ.get("SPAWNPIT_NO_CACHE")
    os.environ["SPAWNPIT_NO_CACHE"] = "1"
    try:
        result = compile_paths(builtin_paths())
    finally:
        if saved is None:
            os.environ.pop("SPAWNPIT_NO_CACHE", None)
        else:
            os.environ["SPAWNPIT_NO_CACHE"] = saved
    assert result.ok, [f"{d.span} {d.code} {d.message}" for d in result.diagnostics]
    return Pack(result.pack)


def scenario_ids() -> list[str]:
    return sorted(o["id"] for o in builtin_pack().every("scenario"))


def system_ids() -> list[str]:
    return sorted(builtin_pack().systems)


def card_selections(pack: Pack) -> list[tuple[str, dict, int]]:
    """Card sheets the tests print: (name, options for generators.cards, number of card faces)."""
    out = []
    for system in sorted(pack.systems):
        cards = [c for c in pack.every("card") if c["system"] == system]
        if cards:
            out.append((f"system-{system}", {"system": system}, _faces(cards)))
    lnoe_hero = [c for c in pack.every("card") if c["system"] == "lnoe" and c["props"].get("deck") == "hero_deck"]
    if lnoe_hero:
        out.append(("deck-hero_deck", {"system": "lnoe", "deck": "hero_deck"}, _faces(lnoe_hero)))
    return out


def _faces(cards: list[dict]) -> int:
    """Card faces printed for these cards: one per copy (`count`, default 1)."""
    return sum(int(c["props"].get("count", 1) or 1) for c in cards)


def render_cards(pack: Pack, fmt: str, paper: str, **options) -> bytes:
    """Card sheets through the package's public entry (generators.card_sheet)."""
    return generators.card_sheet(pack, fmt, paper, **options)


def expected_card_pages(faces: int) -> int:
    return math.ceil(faces / CARDS_PER_PAGE)


# The filtered card sheet kept as a golden: three named cards of one deck.
GOLDEN_CARD_NAMES = ("Keys", "Gasoline", "Pump Shotgun")


def hostile_sources() -> dict[str, str]:
    """A pack whose scenario, special rule and card are all named `<script>alert(1)</script>`."""
    h = HOSTILE
    main = f"""import "system.pit"
using mini

special rule "{h}" {{
  side zombies
  dots 1
  source "{h}"
  text "{h} <img src=x onerror=alert(2)>"
  behaviour manual
}}

card "{h}" {{ deck hero_deck; type item; source "{h}"; text "{h}"; behaviour manual }}

scenario "{h}" {{
  number 1
  source "{h}"
  board yard
  rounds 8
  players 2-3
  rules script_alert_1_script
  search_cards "{h}"
  heroes win at sundown
}}
"""
    return {"pack.toml": 'name = "hostile"\n', "main.pit": main,
            "system.pit": (ROOT / "tests" / "fixtures" / "mini" / "system.pit").read_text(encoding="utf-8")}


@pytest.fixture(scope="session")
def hostile_pack(tmp_path_factory) -> Pack:
    from spawnpit.compiler import compile_paths

    folder = tmp_path_factory.mktemp("hostile")
    for name, text in hostile_sources().items():
        (folder / name).write_text(text, encoding="utf-8")
    result = compile_paths([folder])
    assert result.ok and not result.diagnostics, [f"{d.code} {d.message}" for d in result.diagnostics]
    return Pack(result.pack)


# ---- documents -------------------------------------------------------------------------------------

@dataclass
class Doc:
    """One printable document: how to render it and how many printed pages it must have."""

    key: str
    kind: str  # sheet, roster, aid, cards
    paper: str
    render: Callable[[str], bytes]  # fmt -> bytes
    pages: tuple[str, int]  # ("==", 1) or (">=", 1)
    _cache: dict = field(default_factory=dict, repr=False)

    def get(self, fmt: str) -> bytes:
        """Rendered once per session and format."""
        if fmt not in self._cache:
            self._cache[fmt] = self.render(fmt)
        return self._cache[fmt]

    def pages_ok(self, count: int) -> bool:
        op, n = self.pages
        return count == n if op == "==" else count >= n

    def pages_text(self) -> str:
        op, n = self.pages
        return f"exactly {n}" if op == "==" else f"at least {n}"


def builtin_docs(pack: Pack) -> dict[str, Doc]:
    docs: dict[str, Doc] = {}

    def add(key, kind, paper, render, pages):
        docs[key] = Doc(key, kind, paper, render, pages)

    for paper in PAPERS:
        for sid in scenario_ids():
            add(f"sheet-{sid}-{paper}", "sheet", paper,
                lambda fmt, s=sid, p=paper: generators.sheet(pack, s, fmt, p), ("==", 1))
            add(f"roster-{sid}-{paper}", "roster", paper,
                lambda fmt, s=sid, p=paper: generators.roster(pack, s, fmt=fmt, paper=p), (">=", 1))
        for system in system_ids():
            add(f"roster-pack-{system}-{paper}", "roster", paper,
                lambda fmt, s=system, p=paper: generators.roster(pack, None, s, fmt, p), (">=", 1))
            add(f"aid-{system}-{paper}", "aid", paper,
                lambda fmt, s=system, p=paper: generators.aid(pack, s, fmt, p), (">=", 1))
        if CARDS_AVAILABLE:
            for name, options, faces in card_selections(pack):
                add(f"cards-{name}-{paper}", "cards", paper,
                    lambda fmt, o=options, p=paper: render_cards(pack, fmt, p, **o),
                    ("==", expected_card_pages(faces)))
    return docs


@pytest.fixture(scope="session")
def docs() -> dict[str, Doc]:
    """Every built-in document (both papers), each rendered at most once per format per session."""
    return builtin_docs(builtin_pack())


@pytest.fixture(scope="session")
def hostile_docs(hostile_pack) -> dict[str, Doc]:
    pack = hostile_pack
    sid = "script_alert_1_script"
    out = {
        "hostile-sheet": Doc("hostile-sheet", "sheet", "letter", lambda fmt: generators.sheet(pack, sid, fmt), ("==", 1)),
        "hostile-roster": Doc("hostile-roster", "roster", "letter",
                              lambda fmt: generators.roster(pack, sid, fmt=fmt), (">=", 1)),
        "hostile-pack-roster": Doc("hostile-pack-roster", "roster", "letter",
                                   lambda fmt: generators.roster(pack, None, "mini", fmt), (">=", 1)),
    }
    if CARDS_AVAILABLE:
        out["hostile-cards"] = Doc("hostile-cards", "cards", "letter",
                                   lambda fmt: render_cards(pack, fmt, "letter", system="mini"), (">=", 1))
    return out


# ---- Chromium ----------------------------------------------------------------------------------------
#
# One headless Chromium per session, driven over the DevTools protocol on a pipe (--remote-debugging-pipe:
# JSON messages ending in NUL, commands on the browser's fd 3, answers on its fd 4). Each document is
# opened as a file:// URL in print media, measured with a script, printed with Page.printToPDF (the
# same printing as --print-to-pdf) and counted with pdfinfo. Starting Chromium once instead of once per
# document keeps the whole run to seconds.

CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio", "--no-default-browser-check",
                  "--remote-debugging-pipe")

# Before any script of the document: record alert()/confirm()/prompt() instead of blocking on a dialog.
NO_DIALOGS = ("window.__spawnpit_alerts = [];"
              "window.alert = window.confirm = window.prompt = function (m) { window.__spawnpit_alerts.push(String(m)); };")

# After load: every `.page` box, what overflows it, and every element that sticks out of it.
MEASURE = r"""(() => {
  const TOL = 1;
  const describe = (el) => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += "#" + el.id;
    const cls = el.getAttribute("class");
    if (cls) s += "." + cls.trim().split(/\s+/).join(".");
    return s;
  };
  const pages = Array.from(document.querySelectorAll(".page"), (p, i) => {
    const r = p.getBoundingClientRect(), outside = [];
    for (const el of p.querySelectorAll("*")) {
      const b = el.getBoundingClientRect();
      if (b.width === 0 && b.height === 0) continue;
      const over = {left: r.left - b.left, top: r.top - b.top, right: b.right - r.right, bottom: b.bottom - r.bottom};
      if (Object.values(over).some((v) => v > TOL)) {
        outside.push({element: describe(el), over, text: (el.textContent || "").replace(/\s+/g, " ").trim().slice(0, 70)});
      }
    }
    return {index: i, "class": p.getAttribute("class"), scrollWidth: p.scrollWidth, clientWidth: p.clientWidth,
            scrollHeight: p.scrollHeight, clientHeight: p.clientHeight, width: r.width, height: r.height,
            outside: outside.slice(0, 12), outsideCount: outside.length};
  });
  return {pages, scripts: document.querySelectorAll("script").length, alerts: window.__spawnpit_alerts || [],
          text: document.body ? document.body.innerText : "",
          docWidth: document.documentElement.scrollWidth, docHeight: document.documentElement.scrollHeight};
})()"""


class CDPError(RuntimeError):
    pass


class Chromium:
    """A minimal DevTools-protocol client over Chromium's debugging pipe (one page, used in turn)."""

    def __init__(self, binary: str, profile: Path, timeout: float = 60.0):
        self.timeout = timeout
        profile.mkdir(parents=True, exist_ok=True)
        import fcntl

        def high(fd: int) -> int:  # away from 3 and 4, which the child's ends must become
            moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
            os.close(fd)
            return moved

        to_browser_r, self._to_browser = map(high, os.pipe())
        self._from_browser, from_browser_w = map(high, os.pipe())

        def fds():  # the browser reads commands on fd 3 and writes answers on fd 4 (dup2: inheritable)
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)

        self.log = open(profile / "chromium.log", "wb")
        self.proc = subprocess.Popen([binary, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "about:blank"],
                                     stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT,
                                     preexec_fn=fds, close_fds=False)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._next_id, self._buffer, self._events = 0, b"", []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for method, params in (("Page.enable", {}), ("Runtime.enable", {}),
                               ("Page.addScriptToEvaluateOnNewDocument", {"source": NO_DIALOGS}),
                               ("Emulation.setEmulatedMedia", {"media": "print"})):
            self.call(method, session=self.session, **params)

    # -- protocol --
    def _read(self, deadline: float) -> dict:
        import select
        import time

        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise CDPError("Chromium did not answer in time")
            ready, _, _ = select.select([self._from_browser], [], [], left)
            if ready:
                chunk = os.read(self._from_browser, 1 << 20)
                if not chunk:
                    raise CDPError(f"Chromium closed the pipe (exit {self.proc.poll()}); see its log {self.log.name}")
                self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method: str, session: str | None = None, **params) -> dict:
        import time

        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise CDPError(f"{method}: {reply['error'].get('message')}")
                return reply.get("result", {})
            if "method" in reply:
                self._events.append(reply)

    def wait_event(self, method: str) -> dict:
        import time

        deadline = time.monotonic() + self.timeout
        while True:
            for i, event in enumerate(self._events):
                if event["method"] == method and event.get("sessionId") == self.session:
                    return self._events.pop(i)
            self._events.append(self._read(deadline))

    # -- pages --
    def open(self, url: str) -> None:
        self._events.clear()
        self.call("Page.navigate", session=self.session, url=url)
        self.wait_event("Page.loadEventFired")

    def evaluate(self, expression: str):
        result = self.call("Runtime.evaluate", session=self.session, expression=expression, returnByValue=True,
                           awaitPromise=True)
        if "exceptionDetails" in result:
            raise CDPError(f"script failed: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def print_pdf(self) -> bytes:
        import base64

        data = self.call("Page.printToPDF", session=self.session, preferCSSPageSize=True, printBackground=True,
                         displayHeaderFooter=False)["data"]
        return base64.b64decode(data)

    def screenshot(self, width: int, height: int) -> bytes:
        import base64

        self.call("Emulation.setDeviceMetricsOverride", session=self.session, width=width, height=height,
                  deviceScaleFactor=1, mobile=False)
        try:
            data = self.call("Page.captureScreenshot", session=self.session, format="png",
                             captureBeyondViewport=True)["data"]
        finally:
            self.call("Emulation.clearDeviceMetricsOverride", session=self.session)
        return base64.b64decode(data)

    def close(self) -> None:
        try:
            self.call("Browser.close")
        except (CDPError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._to_browser, self._from_browser):
            os.close(fd)
        self.log.close()


@dataclass
class BrowserResult:
    doc: Doc
    html_path: Path | None
    measure: dict | None = None
    pdf: dict | None = None  # {"pages", "size"} from pdfinfo
    error: str = ""


class Browser:
    """Every document loaded, measured and printed in one Chromium; screenshots on demand."""

    def __init__(self, binary: str, pdfinfo_bin: str, workdir: Path):
        self.pdfinfo, self.workdir = pdfinfo_bin, workdir
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.chromium = Chromium(binary, workdir / "profile")

    def run(self, docs: list[Doc]) -> dict[str, BrowserResult]:
        results: dict[str, BrowserResult] = {}
        for doc in docs:
            results[doc.key] = result = BrowserResult(doc, None)
            try:
                html = doc.get("html")
            except Exception as err:  # a generator crash fails this document's test, not the whole run
                result.error = f"rendering failed: {type(err).__name__}: {err}"
                continue
            result.html_path = self.workdir / f"{doc.key}.html"
            result.html_path.write_bytes(html)
            try:
                self.chromium.open(result.html_path.as_uri())
                result.measure = self.chromium.evaluate(MEASURE)
                pdf = self.workdir / f"{doc.key}.pdf"
                pdf.write_bytes(self.chromium.print_pdf())
                result.pdf = pdf_info(self.pdfinfo, pdf)
            except CDPError as err:
                result.error = f"Chromium: {err}"
        return results

    def screenshot(self, r: BrowserResult) -> Path | None:
        """The document as Chromium lays it out, with a copy of its HTML, under tests/artifacts/."""
        if r.html_path is None:
            return None
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(r.html_path, ARTIFACTS / r.html_path.name)
        width, height = PAGE_PX[r.doc.paper]
        if r.measure:
            width = max(width, int(r.measure.get("docWidth", width)))
        target = ARTIFACTS / f"{r.doc.key}.png"
        try:
            self.chromium.open(r.html_path.as_uri())
            target.write_bytes(self.chromium.screenshot(width, height))
        except CDPError:
            return None
        return target

    def close(self) -> None:
        self.chromium.close()


@pytest.fixture(scope="session")
def browser(chromium, pdfinfo, tmp_path_factory):
    b = Browser(chromium, pdfinfo, tmp_path_factory.mktemp("chromium"))
    yield b
    b.close()


PROBE_HTML = ("<!DOCTYPE html><html><head><style>@page { size: 8.5in 11in; margin: 0 }"
              " .page { width: 8.5in; height: 11in; padding: 0.45in; overflow: hidden; box-sizing: border-box }"
              " .page.aid { height: auto; overflow: visible }</style></head><body>"
              "<div class='page'><div style='height: 12in'>too tall</div></div>"
              "<div class='page aid'><div style='width: 9in; height: 20in'>too wide, two pages</div></div>"
              "</body></html>")


@pytest.fixture(scope="session")
def probe_docs() -> dict[str, Doc]:
    """A document that overflows on purpose: proves the measurement sees what it must catch."""
    return {"probe-overflow": Doc("probe-overflow", "probe", "letter", lambda fmt: PROBE_HTML.encode(), (">=", 2))}


@pytest.fixture(scope="session")
def browser_results(browser, docs, hostile_docs, probe_docs) -> dict[str, BrowserResult]:
    """Every document measured and printed by Chromium, once per session."""
    return browser.run([*docs.values(), *hostile_docs.values(), *probe_docs.values()])
