"""The native core's JSON (engine/native/json.cpp) against CPython's json module: what it writes must be
byte-identical to json.dumps (the game log and the saved state), what it reads must be what json.loads
reads, and a text json.loads refuses must be refused with json.loads's message.

Most tests go through `_native.json_probe(text, sort_keys=True, ensure_ascii=False)`, which reads the text
natively and writes it back; test_cpp_api builds a small C++ program for what the probe cannot reach
(REF and DICE values, JsonError's fields, a cycle, bytes that are not UTF-8)."""

from __future__ import annotations

import json
import random
import shutil
import struct
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent.parent
NATIVE = ROOT / "engine" / "native"
INT64 = (-(2**63), 2**63 - 1)

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def dumps(value, sort_keys=True, ensure_ascii=False) -> str:
    return json.dumps(value, sort_keys=sort_keys, separators=(",", ":"), ensure_ascii=ensure_ascii)


def python_error(text: str) -> str | None:
    try:
        json.loads(text)
    except json.JSONDecodeError as err:
        return str(err)
    return None


def ints_fit(value) -> bool:
    """Whether every int in value fits the core's int64 (the one place the core reads less than Python)."""
    if isinstance(value, bool) or value is None or isinstance(value, (str, float)):
        return True
    if isinstance(value, int):
        return INT64[0] <= value <= INT64[1]
    if isinstance(value, list):
        return all(ints_fit(v) for v in value)
    return all(ints_fit(v) for v in value.values())


def agrees(native, text: str, sort_keys: bool = True, ensure_ascii: bool = False) -> None:
    """The probe reads `text` as json.loads does: the same output, or the same error."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as err:
        with pytest.raises(ValueError) as caught:
            native.json_probe(text, sort_keys, ensure_ascii)
        assert str(caught.value) == str(err), text
        return
    if not ints_fit(value):
        with pytest.raises(ValueError, match="int64"):
            native.json_probe(text, sort_keys, ensure_ascii)
        return
    assert native.json_probe(text, sort_keys, ensure_ascii) == dumps(value, sort_keys, ensure_ascii), text


# ---- values of every kind, through json.dumps ---------------------------------------------------------

CHARS = st.characters(blacklist_categories=("Cs",))  # every plane; no surrogates (a str of them is odd)
SPECIAL = st.sampled_from(list('"\\/\x00\x01\x08\x0c\x1f\x7f\x80\xa0\xe9\u2028\u2029\ufeff\uffff'
                               "\U00010000\U0001f600\U0010ffff\n\r\t\b\f §"))
TEXT = st.text(CHARS | SPECIAL, max_size=12)
FLOATS = st.floats(allow_nan=True, allow_infinity=True, allow_subnormal=True) | st.sampled_from(
    [0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 1e16, 1e15, 1e-4, 1e-5,
     9999999999999998.0, 0.1, 1 / 3, 123456789012345680.0, 1e22, 1e23])
SCALARS = st.none() | st.booleans() | st.integers(*INT64) | FLOATS | TEXT
VALUES = st.recursive(SCALARS, lambda kids: st.lists(kids, max_size=5) | st.dictionaries(TEXT, kids, max_size=6),
                      max_leaves=40)


@SETTINGS
@given(VALUES, st.booleans())
def test_values_written_as_python_writes_them(native, value, sort_keys):
    # the input is json.dumps's default: ASCII with \uXXXX escapes (surrogate pairs beyond the BMP) to decode
    assert native.json_probe(json.dumps(value), sort_keys) == dumps(value, sort_keys)


@SETTINGS
@given(VALUES, st.booleans())
def test_ensure_ascii_written_as_python_writes_it(native, value, sort_keys):
    text = json.dumps(value, ensure_ascii=False)
    assert native.json_probe(text, sort_keys, True) == dumps(value, sort_keys, ensure_ascii=True)
    assert native.json_probe(text, sort_keys, False) == dumps(value, sort_keys)


@SETTINGS
@given(VALUES, st.sampled_from([None, 0, 2, "\t", " \r\n"]), st.sampled_from([(",", ":"), (", ", ": "), (" ,\n", "\t:\r ")]),
       st.booleans())
def test_whitespace_and_indent(native, value, indent, separators, ensure_ascii):
    text = json.dumps(value, indent=indent, separators=separators, ensure_ascii=ensure_ascii)
    assert native.json_probe(" \n\t" + text + "\r\n ", False) == dumps(value, sort_keys=False)


def test_floats_of_every_bit_pattern(native):
    rnd = random.Random(20240521)
    floats = [struct.unpack("<d", struct.pack("<Q", rnd.getrandbits(64)))[0] for _ in range(200_000)]
    floats += [struct.unpack("<d", struct.pack("<Q", bits))[0] for bits in range(1, 2000)]  # subnormals
    floats += [10.0 ** e for e in range(-330, 309)] + [2.0 ** e for e in range(-1075, 1024)]
    floats += [x * s for x in (1e16, 1e-4, 1e-5, 9999999999999998.0, 0.0001, 0.00009999999999999999) for s in (1, -1)]
    floats += [float(n) for n in range(-1000, 1000)] + [n / 10 for n in range(-1000, 1000)]
    for x in floats[:3000]:
        assert native.json_probe(json.dumps(x)) == json.dumps(x), x
    assert native.json_probe(json.dumps(floats)) == dumps(floats)


def test_decimal_text_read_as_float_reads_it(native):
    rnd = random.Random(5)
    texts = ["1e400", "-1e400", "1e-400", "-1e-400", "2.4703282292062327e-324", "2.4703282292062328e-324",
             "-2.4703282292062327e-324", "1.7976931348623157e308", "1.7976931348623158e308",
             "1.7976931348623159e308", "-1.7976931348623159e308", "2.2250738585072011e-308",
             "2.2250738585072012e-308", "1.00000000000000011102230246251565404236316680908203125",
             "1.00000000000000011102230246251565404236316680908203126", "9007199254740993.0",
             "0.1000000000000000055511151231257827021181583404541015625", "1" + "0" * 400 + ".0",
             "-" + "0" * 1 + "." + "0" * 400 + "1", "0." + "0" * 330 + "1e10", "0.0e99999999999999999999",
             "1e-99999999999999999999", "1e99999999999999999999", "123.456E+7", "5E-1", "0.0", "-0.0", "0e0"]
    for _ in range(20_000):
        digits = "".join(rnd.choice("0123456789") for _ in range(rnd.randint(1, 25))).lstrip("0") or "0"
        point = rnd.randint(0, len(digits) - 1)
        text = digits[:point + 1] + ("." + digits[point + 1:] if point + 1 < len(digits) else ".0")
        texts.append(rnd.choice(["", "-"]) + text + rnd.choice(["", f"e{rnd.randint(-345, 330)}",
                                                                  f"E+{rnd.randint(0, 330)}"]))
    assert native.json_probe("[" + ",".join(texts) + "]") == dumps([float(t) for t in texts])


def test_integers_of_int64(native):
    for n in (0, 1, -1, 2**31, -(2**31) - 1, 2**53 + 1, INT64[0], INT64[1], 10**18, -(10**18)):
        assert native.json_probe(f"[{n}, -0, 0]") == f"[{n},0,0]"
    for n in (2**63, -(2**63) - 1, 10**19, 10**30):
        with pytest.raises(ValueError, match=r"int64.*char 1\)"):
            native.json_probe(f"[{n}]")


def test_named_constants(native):
    assert native.json_probe("[NaN,Infinity,-Infinity,true,false,null]") == "[NaN,Infinity,-Infinity,true,false,null]"


# ---- strings ----------------------------------------------------------------------------------------------

def test_escapes_and_characters(native):
    cases = [r'"\"\\\/\b\f\n\r\t"', r'"\u00e9\u00E9\u20AC\u2028\u0000\u001F\u007f\u0080"', r'"\ud83d\ude00"',
             r'"\uD83D\uDE00x"', '"é€😀\U0010ffff\u2028\x7f"', r'"\u0041\u0062"', '""', r'"\\u0041"',
             '"' + "".join(chr(c) for c in range(0x20, 0x80) if chr(c) not in '"\\') + '"']
    for text in cases:
        for ensure_ascii in (False, True):
            agrees(native, text, True, ensure_ascii)
    assert native.json_probe(r'"\u0001\u001f"') == r'"\u0001\u001f"'  # lowercase hex, as Python writes it
    assert native.json_probe('"\U0001f600"', True, True) == r'"\ud83d\ude00"'


def test_lone_surrogates_as_python_keeps_them(native):
    # json.loads keeps a lone surrogate escape as a lone surrogate in its str; so does the core
    cases = [r'"\ud800"', r'"\udc00\ud800"', r'"\ud800x"', r'"\ud800\u0041"', r'"\ud800\ud800\udc00"',
             r'"\udbff\udfff"', '"\ud800"', '"\ud83d\ude00"', r'"\ud83d' + '\ude00"',
             r'{"\ue000":1,"\ud800":2,"\ud83d\ude00":3,"\uffff":4,"z":5}']
    for text in cases:
        for sort_keys in (False, True):
            for ensure_ascii in (False, True):
                agrees(native, text, sort_keys, ensure_ascii)


def test_keys_sorted_by_code_point(native):
    keys = ["b", "a", "B", "", "ab", "a\x00", "é", "z", "\uffff", "\U00010000", "\ue000", "€", "aa", "~", "\x7f"]
    value = {k: i for i, k in enumerate(keys)}
    assert native.json_probe(json.dumps(value)) == dumps(value)
    assert native.json_probe(json.dumps(value), False) == dumps(value, sort_keys=False)
    nested = {"b": {"y": [{"d": 1, "c": 2}], "x": {}}, "a": [[], {}, {"k": {"j": None, "i": True}}]}
    assert native.json_probe(json.dumps(nested)) == dumps(nested)


def test_repeated_keys_keep_first_place_last_value(native):
    cases = ['{"a":1,"b":2,"a":3}', '{"a":1,"a":2,"a":{"x":1,"x":[2]}}', '{"b":0,"a":1,"b":2,"c":3,"a":4}',
             "{" + ",".join(f'"k{i % 17}":{i}' for i in range(60)) + "}",  # past the small-dict scan
             "{" + ",".join(f'"k{i}":{i}' for i in range(40)) + ',"k0":"last"}',
             "{" + ",".join(f'"k{i}":{i}' for i in range(40)) + "}"]
    for text in cases:
        for sort_keys in (False, True):
            agrees(native, text, sort_keys)
    assert native.json_probe('{"b":1,"a":2,"b":3}', False) == '{"b":3,"a":2}'


# ---- malformed text --------------------------------------------------------------------------------------

MALFORMED = [
    "", " ", "\n\n  ", "[", "{", "]", "}", "[1,]", '{"a":1,}', "{'a':1}", '{"a" 1}', '{"a":1 "b":2}', "[1 2]",
    '{"a"', '{"a":', '{"a":}', "{1:2}", '{"a":1', "[1", "[1,", "[,1]", "01", "1.", "-", "--1", "+1", ".5", "1e",
    "1e+", "1.e5", "-01", "0x10", "tru", "nul", "fals", "True", "nan", "inf", "-Inf", "-Infinit", "NaNa",
    "Infinityy", '"abc', '"a\\', '"\\x"', '"\\u12"', '"\\u12G4"', '"\\u12"x', '"\\ud800\\u12"', '"\\ud800\\uzzzz"',
    '"\\ud800\\u12', '"\\u00e', '"a\nb"', '"\x00"', '"\x1f"', '"\t"', "[1]x", "[1] [2]", "\ufeff[]", "é", "[é]",
    '["é", }', '{"é": x}', "[1,\n  2\n  x]", "\n\n   {\"a\" : \n tru}", '"\\', '"\\u', "[\"a\",\n\"b\"\n,]",
    "1 2", "nulll", "[true false]", "{\"a\":1}}", "[[[]]", "\u2028[]", "[\u00a01]", "[1,\u3000 2]", "\x00",
    '"\\u00e9\\ud83d\\ude0', '"😀\\q"', '{"😀😀": 1, "b" 2}', "[1e5.5]", "[-]", "[-a]", "[1.5e]",
]


@pytest.mark.parametrize("text", MALFORMED)
def test_malformed_text_refused_as_python_refuses_it(native, text):
    assert python_error(text) is not None, "not malformed for Python"
    with pytest.raises(ValueError) as caught:
        native.json_probe(text)
    assert str(caught.value) == python_error(text)


def test_valid_edge_texts(native):
    for text in ["0", "-0", "1.5e5", "1E-5", "[1.0e+5]", ' "x" ', "[]", "{}", "[ ]", "{ }", "[[],{}]", "1.5e", "2e+"]:
        agrees(native, text)  # "1.5e" and "2e+" are a number then extra data, as for Python


def test_nesting_limit_and_no_crash(native):
    assert native.json_probe("[" * 1000 + "]" * 1000) == "[" * 1000 + "]" * 1000
    assert native.json_probe('{"a":' * 1000 + "1" + "}" * 1000) == '{"a":' * 1000 + "1" + "}" * 1000
    for text in ["[" * 1001 + "]" * 1001, "[" * 200_000, '{"a":' * 100_000, "[{\"a\":" * 50_000]:
        with pytest.raises(ValueError, match="Nesting too deep"):
            native.json_probe(text)


FUZZ_ALPHABET = st.sampled_from(list('{}[],:"\\ .-+eE0123456789tfnrulsaINy\n\t/é😀') + ["\ud800", "\u2028", "\x01"])


@SETTINGS
@given(st.text(FUZZ_ALPHABET, max_size=40), st.booleans())
def test_fuzz_reads_as_python_reads(native, text, sort_keys):
    agrees(native, text, sort_keys)


@SETTINGS
@given(VALUES, st.lists(st.tuples(st.floats(0, 1), st.integers(0, 3), st.sampled_from(list('{}[],:"\\ .-0e1nN"tu'))),
                        min_size=1, max_size=4))
def test_fuzz_damaged_json(native, value, edits):
    text = json.dumps(value, indent=1)
    for where, how, char in edits:
        at = int(where * len(text))
        if how == 0:
            text = text[:at] + text[at + 1:]  # drop a character
        elif how == 1:
            text = text[:at] + char + text[at:]  # insert one
        else:
            text = text[:at] + char + text[at + 1:]  # replace one
    agrees(native, text)


def test_bad_arguments_raise(native):
    with pytest.raises(TypeError):
        native.json_probe(b"[]")
    with pytest.raises(TypeError):
        native.json_probe()
    with pytest.raises(TypeError):
        native.json_probe("[]", True, False, "extra")


# ---- the engine's own JSON --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def played():
    from spawnpit.compiler import compile_paths
    from spawnpit.engine import new_game, play
    from spawnpit.resources import builtin_paths

    pack = compile_paths(builtin_paths()).pack
    game = new_game(pack, "lnoe:die_zombies_die", seed=1)
    play(game)
    return game


def test_log_lines_byte_identical(native, played):
    from spawnpit.engine import log

    lines = [log.line(entry) for entry in played.entries]
    assert len(lines) > 100 and any(not line.isascii() for line in lines)
    for entry, line in zip(played.entries, lines):
        assert native.json_probe(line) == line
        assert native.json_probe(json.dumps(entry)) == line  # from ASCII, keys unsorted
    head = log.line(log.header(played, {}))
    assert native.json_probe(head) == head


def test_saved_state_byte_identical(native, played):
    saved = played.save()  # engine.state.dumps: keys in insertion order, ensure_ascii left True
    assert native.json_probe(saved, False, True) == saved
    assert native.json_probe(saved, False, False) == dumps(json.loads(saved), sort_keys=False)
    assert native.json_probe(saved, True, True) == json.dumps(json.loads(saved), sort_keys=True, separators=(",", ":"))


# ---- the C++ interface: REF and DICE, JsonError, a cycle ---------------------------------------------------

CPP_TEST = r"""
#include "json.h"
#include <cmath>
#include <cstdio>
using namespace spawnpit;

static void line(const std::string &s) { std::fwrite(s.data(), 1, s.size(), stdout); std::fputc('\n', stdout); }

int main() {
    Value d = Value::new_dict();
    d.entries()[intern("unit")] = Value::make_ref(intern("unit"), intern("u3"));
    d.entries()[intern("roll")] = Value::make_dice(2, 6);
    d.entries()[intern("b")] = Value::new_list({Value::integer(-7), Value::real(0.5), Value::str("\xc3\xa9\n"),
                                                Value::boolean(true), Value::none(), Value::new_dict()});
    std::string out;
    write_json(out, d, true); line(out);
    out.clear(); write_json(out, d, false); line(out);
    out.clear(); write_json(out, d, false, true); line(out);
    out = "keep:"; write_json(out, Value::integer(1), true); line(out);  // appends
    Value cycle = Value::new_list();
    cycle.items().push_back(cycle);
    try { out.clear(); write_json(out, cycle, true); line("no error"); }
    catch (const JsonError &e) { line(std::string("cycle: ") + e.what()); }
    cycle.items().clear();
    try { parse_json("[1,\n 2 x]"); line("no error"); }
    catch (const JsonError &e) {
        line(e.msg() + "|" + std::to_string(e.pos) + "|" + std::to_string(e.lineno) + "|" + std::to_string(e.colno));
    }
    Value v = parse_json("{\"a\": [1, 2.5, \"x\"], \"a\": {}}");
    line(std::to_string(v.entries().items.size()) + " " + std::to_string(v.entries().find(intern("a"))->tag));
    out.clear();
    for (double x : {HUGE_VAL, -HUGE_VAL, std::nan(""), 1e16, 0.1, -0.0}) { append_float_repr(out, x); out += ' '; }
    line(out);
    out.clear();  // bytes that are not UTF-8 in a string are refused; a surrogate's 3 bytes are not
    for (const char *bad : {"\"\xff\"", "\"\xc3\"", "\"\xc0\x80\"", "\"\xe0\x80\x80\"", "\"\xf4\x90\x80\x80\"",
                            "\"\xf8\x88\x80\x80\x80\"", "\"a\x80\"", "\"\xed\xa0\x80\"", "\"\xf0\x9f\x98\x80\""}) {
        try { parse_json(bad); out += "ok "; }
        catch (const JsonError &e) { out += e.msg() == "Invalid UTF-8 in a string" ? "bad " : "?? "; }
    }
    line(out);
    return 0;
}
"""


def test_cpp_api(tmp_path):
    compiler = shutil.which("g++") or shutil.which("c++")
    if compiler is None:
        pytest.skip("no C++ compiler to build the C++ test with")
    (tmp_path / "main.cpp").write_text(CPP_TEST)
    program = tmp_path / "json_test"
    subprocess.run([compiler, "-std=c++17", "-O1", "-Wall", "-Werror", f"-I{NATIVE}", str(tmp_path / "main.cpp"),
                    str(NATIVE / "json.cpp"), str(NATIVE / "value.cpp"), "-o", str(program)], check=True)
    got = subprocess.run([str(program)], check=True, capture_output=True).stdout.decode("utf-8").split("\n")
    value = {"unit": "u3", "roll": ["dice", 2, 6], "b": [-7, 0.5, "é\n", True, None, {}]}
    assert got[0] == dumps(value)
    assert got[1] == dumps(value, sort_keys=False)
    assert got[2] == dumps(value, sort_keys=False, ensure_ascii=True)
    assert got[3] == "keep:1"
    assert got[4].startswith("cycle: ") and "circular" in got[4]
    with pytest.raises(json.JSONDecodeError) as err:
        json.loads("[1,\n 2 x]")
    assert got[5] == f"{err.value.msg}|{err.value.pos}|{err.value.lineno}|{err.value.colno}"
    assert got[6] == "1 8"  # one key, and a DICT (Value::DICT): the last value of a repeated key
    assert got[7] == " ".join(repr(x) for x in (float("inf"), float("-inf"), float("nan"), 1e16, 0.1, -0.0)) + " "
    assert got[8] == "bad " * 7 + "ok ok "
