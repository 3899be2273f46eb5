"""The cache makes runs faster, never different; the fast validator never disagrees with jsonschema."""

from __future__ import annotations

import copy
import json

import pytest

from spawnpit.compiler import cache, compile_paths, dumps
from spawnpit.compiler.validate import _fast, _validators
from spawnpit.resources import builtin_paths
from tests.conftest import MINI


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SPAWNPIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("SPAWNPIT_NO_CACHE", raising=False)
    cache.folder.cache_clear()
    yield tmp_path / "cache"
    cache.folder.cache_clear()


def test_warm_run_gives_the_same_pack_and_diagnostics(fresh_cache, write_pack):
    pack = write_pack({"main.pit": 'using mini\ncard "X" { deck nope }\n'})
    cold = compile_paths([MINI]), compile_paths([pack])
    assert any(fresh_cache.rglob("*")), "the first run filled the cache"
    warm = compile_paths([MINI]), compile_paths([pack])
    assert dumps(cold[0].pack) == dumps(warm[0].pack)
    assert cold[1].diagnostics == warm[1].diagnostics and warm[1].diagnostics[0].code == "E0208"


def test_a_corrupt_cache_entry_is_a_miss(fresh_cache):
    first = compile_paths([MINI])
    for entry in fresh_cache.rglob("*"):
        if entry.is_file():
            entry.write_bytes(b"not a pickle")
    assert dumps(compile_paths([MINI]).pack) == dumps(first.pack)


def test_another_interpreters_entries_are_never_read(fresh_cache, monkeypatch):
    """Pickles are kept per interpreter: PyPy 3.9 pickles a slotted dataclass as a dict, which CPython
    3.11 reads back as its field names (a real poisoned cache). Entries of another interpreter, here
    well-formed pickles of the wrong things, are never read."""
    import pickle

    first = compile_paths([MINI])
    ours = cache._interpreter
    monkeypatch.setattr(cache, "_interpreter", lambda: "otherpy-39")
    cache.folder.cache_clear()
    assert dumps(compile_paths([MINI]).pack) == dumps(first.pack)
    others = [e for e in (fresh_cache / cache.__version__ / "otherpy-39").rglob("*") if e.is_file()]
    assert others, "the other interpreter filled its own folder"
    for entry in others:
        entry.write_bytes(pickle.dumps(("poison", ())))
    monkeypatch.setattr(cache, "_interpreter", ours)
    cache.folder.cache_clear()
    assert cache.folder() == fresh_cache / cache.__version__ / ours()
    assert dumps(compile_paths([MINI]).pack) == dumps(first.pack)


def test_edited_text_is_never_served_from_the_cache(fresh_cache, write_pack):
    pack = write_pack({"main.pit": 'using mini\ncard "X" { deck hero_deck; text "a"; behaviour manual }\n'})
    assert compile_paths([pack]).ok
    (pack / "main.pit").write_text('using mini\ncard "X" { deck hero_dek; text "a"; behaviour manual }\n')
    assert [d.code for d in compile_paths([pack]).diagnostics] == ["E0208"]


def test_no_cache_switch(fresh_cache, monkeypatch):
    monkeypatch.setenv("SPAWNPIT_NO_CACHE", "1")
    compile_paths([MINI])
    assert not fresh_cache.exists() or not any(p.is_file() for p in fresh_cache.rglob("*"))


def _objects():
    pack = compile_paths(builtin_paths()).pack
    return [(o["kind"], o) for o in list(pack["systems"].values()) + pack["objects"]]


def test_every_builtin_object_is_valid_for_both_validators():
    for kind, obj in _objects():
        assert _fast(kind, obj), obj["id"]
        assert not list(_validators()[kind].iter_errors(obj)), obj["id"]


BREAKAGES = [
    lambda o: o.pop("props"),
    lambda o: o.__setitem__("at", "nowhere"),
    lambda o: o.setdefault("hooks", []).append({"event": "x", "replace": "yes", "body": [], "at": "a:1:1"}),
    lambda o: o.setdefault("hooks", []).append({"event": "x", "replace": True, "at": "a:1:1",
                                                "body": [{"do": "wound", "what": {"lit": 1}, "args": {}}]}),
    lambda o: o.setdefault("hooks", []).append({"event": "x", "replace": True, "at": "a:1:1",
                                                "body": [{"do": "wound", "what": {"attr": "h"}, "args": {}}]}),
    lambda o: o.setdefault("objectives", []).append({"side": "heroes", "result": "draw", "at": "sundown"}),
]


@pytest.mark.parametrize("index", range(len(BREAKAGES)))
def test_both_validators_reject_broken_objects(index):
    for kind, obj in _objects()[:40]:
        broken = copy.deepcopy(obj)
        BREAKAGES[index](broken)
        assert not _fast(kind, broken), (kind, obj["id"])
        assert list(_validators()[kind].iter_errors(broken)), (kind, obj["id"])


def test_schemas_declare_draft_2020_12_and_ids():
    from spawnpit.resources import schemas_dir

    for path in schemas_dir().glob("*.schema.json"):
        doc = json.loads(path.read_text())
        assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert doc["$id"].endswith(path.name)
