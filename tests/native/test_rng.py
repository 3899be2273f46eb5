"""The native Random (engine/native/rng.h) against CPython's random.Random, through rng_probe(seed, ops).

Every test runs the same ops on the native generator and on random.Random (the dice through the engine's
own Chance.roll) and compares the values drawn, the states and the errors. The Python side of an op is
`py_op` below; rng_probe.cpp documents the ops."""

from __future__ import annotations

import hashlib
import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spawnpit.engine.rng import Chance

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


# ---- the Python side ---------------------------------------------------------------------------------

def py_seed(rng: random.Random, seed) -> None:
    if isinstance(seed, (tuple, list)):
        state = seed if len(seed) == 3 else (3, tuple(seed), None)
        rng.setstate((state[0], tuple(state[1]), state[2]))
    else:
        rng.seed(seed)


def py_op(rng: random.Random, op: tuple):
    name, *args = op
    if name == "random":
        return rng.random()
    if name == "getrandbits":
        return rng.getrandbits(*args)
    if name == "randbelow":
        return rng._randbelow(*args)
    if name == "randrange":
        return rng.randrange(*args)
    if name == "randint":
        return rng.randint(*args)
    if name == "choice":
        return rng.choice(range(*args))  # the item of a range is its index
    if name == "shuffle":
        items = list(range(*args))
        rng.shuffle(items)
        return items
    if name == "roll":
        chance = Chance(0)
        chance._random = rng  # the engine's own roll, D216 and all, on this generator
        return chance.roll(*args)
    if name == "getstate":
        return rng.getstate()
    if name == "setstate":
        py_seed(rng, args[0])
        return None
    if name == "seed":
        py_seed(rng, args[0])
        return None
    if name == "sha512":
        text = args[0]
        return hashlib.sha512(text.encode() if isinstance(text, str) else bytes(text)).digest()
    raise AssertionError(f"no Python side for {op!r}")


def python_run(seed, ops) -> list:
    rng = random.Random()
    py_seed(rng, seed)
    return [py_op(rng, op) for op in ops]


def check(native, seed, ops) -> list:
    """Runs `ops` natively and in Python from `seed` and asserts that every result is the same."""
    got = native.rng_probe(seed, ops)
    want = python_run(seed, ops)
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        assert g == w and type(g) is type(w), f"op {i} {ops[i]!r} from seed {seed!r}: native {g!r}, Python {w!r}"
    return got


# A bit of everything, including enough draws to cross the 624-word refill several times.
MIXED = (
    [("getstate",), ("random",), ("randrange", 6), ("randint", 1, 6), ("choice", 7), ("shuffle", 10)]
    + [("getrandbits", k) for k in (0, 1, 5, 31, 32, 33, 40, 63, 64)]
    + [("roll", 3, 6), ("roll", 2, 216), ("roll", 1, 20), ("randrange", 10**12), ("randbelow", 2**64 - 1)]
    + [("shuffle", 700), ("getstate",), ("random",), ("randrange", 2**32 + 1), ("getstate",)]
)

INT_SEEDS = [0, 1, -1, 2, 5, 42, -42, 12345, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**32 + 1, -(2**32),
             2**33 + 7, 10**15, 2**62, 2**63 - 2, INT64_MAX, -INT64_MAX, INT64_MIN,
             2**63, 2**64 - 1, 2**64, -(2**64), 2**100 + 3, 3**300, -(7**200), True, False]


# ---- seeding -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", INT_SEEDS, ids=repr)
def test_int_seeds(native, seed):
    check(native, seed, MIXED)


def test_a_seeds_state_is_pythons(native):
    """Fresh from seeding, the whole state (624 words, position 624) is Python's, for seeds of every size."""
    for seed in INT_SEEDS + list(range(-300, 300)) + [2**k + d for k in range(20, 70) for d in (-1, 0, 1)]:
        assert native.rng_probe(seed, [("getstate",)]) == [random.Random(seed).getstate()], seed


def test_the_sign_of_an_int_seed_is_dropped(native):
    """As CPython: Random(-n) is Random(n); and the words of |n| count, so 1 and 2**32 + 1 differ."""
    ops = [("randrange", 10**9)] * 5
    assert native.rng_probe(-77, ops) == native.rng_probe(77, ops) == python_run(77, ops)
    assert native.rng_probe(INT64_MIN, ops) == python_run(2**63, ops)
    assert native.rng_probe(1, ops) != native.rng_probe(2**32 + 1, ops)


STRING_SEEDS = ["", "0", "5/heroes/12/ai", "5/heroes/12", "12345/zombies/0", "9999999999/zombies/4321/ai",
                "é", "zombie 🧟/héros/日本語/∞", "\u2028", "\x00", "\x00\x00\x00\x00\x00abc", "\x00" * 9,
                "a" * 111, "a" * 112, "a" * 127, "a" * 128, "a" * 129, "a" * 256, "a" * 300, "b" * 1000]


@pytest.mark.parametrize("seed", STRING_SEEDS, ids=lambda s: repr(s)[:30])
def test_string_seeds(native, seed):
    check(native, seed, MIXED)


@pytest.mark.parametrize("seed", [b"", b"\x00", b"\xff" * 70, bytearray(b"5/heroes/12/ai"), bytes(range(256))],
                         ids=lambda s: repr(s)[:30])
def test_bytes_seeds(native, seed):
    check(native, seed, MIXED[:8])


def test_string_seeds_of_every_length(native):
    """Seeds of 0..300 characters: SHA-512's padding (one block or two) and the key's word boundaries."""
    for n in range(301):
        text = "".join(chr(33 + (i * 7 + n) % 90) for i in range(n))
        assert native.rng_probe(text, [("getstate",), ("randrange", 1000)]) == python_run(
            text, [("getstate",), ("randrange", 1000)]), n


def test_leading_zero_bytes_are_not_words(native):
    """int.from_bytes drops leading zero bytes: a str of NULs whose digest starts with a zero byte too
    makes an int shorter than its bytes by more than the text (the native key must not keep them)."""
    found = [k for k in range(1, 3000) if hashlib.sha512(b"\x00" * k).digest()[0] == 0][:3]
    assert found, "no all-NUL text with a digest starting 00 below 3000 characters"
    for k in found:
        seed = "\x00" * k
        assert native.rng_probe(seed, [("getstate",)]) == [random.Random(seed).getstate()], k


def test_the_policies_streams(native):
    """RandomPolicy and AIPolicy: a fresh Random per choice from f"{seed}/{side}/{n}" (and "/ai")."""
    for seed in (0, 1, 7, 123456789, 2**40):
        for side in ("heroes", "zombies"):
            for n in range(0, 400, 7):
                count = 1 + (n * 31 + seed) % 23
                key = f"{seed}/{side}/{n}"
                assert native.rng_probe(key, [("randrange", count)]) == [random.Random(key).randrange(count)], key
                options = list(range(count))
                assert native.rng_probe(key + "/ai", [("choice", count)]) == [
                    options.index(random.Random(key + "/ai").choice(options))], key


# ---- the draws ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [0, 99, "7/zombies/3/ai", INT64_MAX])
def test_long_sequences(native, seed):
    """Thousands of draws of each kind: the state is refilled many times over."""
    sizes = [1, 2, 3, 6, 7, 10, 52, 100, 216, 1000, 2**31, 2**31 + 1, 2**32 - 1, 2**32, 2**32 + 1, 10**15, INT64_MAX]
    check(native, seed, [("randrange", n) for n in itertools.islice(itertools.cycle(sizes), 8000)] + [("getstate",)])
    check(native, seed, [("random",)] * 3000 + [("getstate",)])
    check(native, seed, [("getrandbits", k % 65) for k in range(4000)] + [("getstate",)])
    check(native, seed, [("randint", a, a + w) for a, w in zip(range(-1000, 1000), itertools.cycle([0, 1, 5, 99, 2**40]))])
    check(native, seed, [("choice", 1 + i % 40) for i in range(3000)] + [("shuffle", 52)] * 200 + [("getstate",)])
    check(native, seed, [("roll", 1 + i % 4, (6, 216, 10, 20, 3)[i % 5]) for i in range(2000)] + [("getstate",)])


def test_getrandbits_every_width(native):
    """k <= 32: one draw's high bits; k > 32: words least significant first, the last one cut."""
    for k in range(65):
        check(native, k, [("getrandbits", k)] * 50 + [("getstate",)])
        check(native, k, [("getrandbits", k), ("getrandbits", 32)] * 20)


def test_randbelow_near_powers_of_two(native):
    """Rejection sampling at the edges of each width (2**k + 1 rejects almost half the draws)."""
    for k in (1, 2, 8, 31, 32, 33, 48, 62, 63, 64):
        for n in (2**k - 1, 2**k, 2**k + 1):
            if 1 <= n < 2**64:
                check(native, k * 1000 + n % 997, [("randbelow", n)] * 100 + [("getstate",)])


def test_randint_extremes(native):
    ranges = [(INT64_MIN, INT64_MAX), (0, INT64_MAX), (INT64_MIN, 0), (INT64_MIN, -1), (-1, INT64_MAX),
              (INT64_MAX, INT64_MAX), (INT64_MIN, INT64_MIN), (-5, -5), (-7, 3), (1, 6), (1, 216)]
    for seed in range(10):
        check(native, seed, [("randint", a, b) for a, b in ranges] * 20 + [("getstate",)])


def test_shuffle_sizes(native):
    check(native, 3, [("shuffle", n) for n in range(0, 70)] + [("shuffle", 624), ("shuffle", 2000), ("getstate",)])


def test_roll_is_chances_roll(native):
    """Against Chance itself: dice, the D216, picks and shuffles, and a state saved and restored."""
    for seed in (0, 1, 2026, 2**35):
        chance = Chance(seed)
        want = [chance.roll(3, 6), chance.roll(2, 216), chance.roll(0, 6), chance.roll(1, 1), chance.roll(4, 20)]
        items = list(range(30))
        chance.shuffle(items)
        want += [items, chance.randrange(17), chance.choice(list(range(9)))]
        saved = chance.state()
        got = native.rng_probe(seed, [("roll", 3, 6), ("roll", 2, 216), ("roll", 0, 6), ("roll", 1, 1),
                                      ("roll", 4, 20), ("shuffle", 30), ("randrange", 17), ("choice", 9),
                                      ("getstate",)])
        assert got[:-1] == want
        assert list(got[-1]) == [saved[0], tuple(saved[1]), saved[2]]
        # the engine's saved form (a list of lists) restores natively
        later = [("roll", 5, 216), ("shuffle", 12), ("getstate",)]
        restored = Chance(0)
        restored.restore(saved)
        items = list(range(12))
        expect = [restored.roll(5, 216), None, None]
        restored.shuffle(items)
        expect[1] = items
        expect[2] = restored._random.getstate()
        assert native.rng_probe(saved, later) == expect
        assert native.rng_probe(1, [("setstate", saved)] + later)[1:] == expect


def test_d216_reads_three_d6_as_digits(native):
    dice = native.rng_probe(11, [("roll", 500, 216)])[0]
    assert all(str(d).isdigit() and len(str(d)) == 3 and set(str(d)) <= set("123456") for d in dice)
    d6 = native.rng_probe(11, [("randint", 1, 6)] * 30)
    assert dice[:10] == [100 * a + 10 * b + c for a, b, c in zip(d6[0::3], d6[1::3], d6[2::3])]


# ---- states ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("drawn", [0, 1, 2, 311, 622, 623, 624, 625, 1247, 1248, 1249, 3000])
def test_python_state_continues_natively(native, drawn):
    """A Python generator's state at every kind of position (fresh, mid-block, at and past the refill)
    handed to the native one: the same draws follow, and the state goes back to Python unchanged."""
    rng = random.Random("state test")
    for _ in range(drawn):
        rng.getrandbits(32)
    state = rng.getstate()
    assert native.rng_probe(state, [("getstate",)]) == [state]
    assert native.rng_probe(state[1], [("getstate",)]) == [state]
    check(native, state, MIXED)


@pytest.mark.parametrize("drawn", [0, 5, 624, 700])
def test_native_state_continues_in_python(native, drawn):
    ops = [("getrandbits", 32)] * drawn + [("getstate",)] + MIXED
    got = native.rng_probe(8, ops)
    state = got[drawn]
    rng = random.Random()
    rng.setstate(state)
    assert [py_op(rng, op) for op in MIXED] == got[drawn + 1:]


def test_setstate_and_seed_mid_stream(native):
    earlier = random.Random(31)
    for _ in range(1000):
        earlier.random()
    ops = MIXED + [("setstate", earlier.getstate())] + MIXED + [("seed", "5/heroes/12/ai")] + MIXED
    ops += [("seed", -3)] + MIXED + [("seed", 2**80)] + MIXED + [("seed", b"x")] + MIXED
    check(native, 4, ops)


def test_gauss_next_is_carried(native):
    """gauss_next (set by gauss()) is not the native core's, but its state carries it as Python's does."""
    rng = random.Random(6)
    rng.gauss()
    state = rng.getstate()
    assert state[2] is not None
    assert native.rng_probe(state, [("getstate",), ("seed", 1), ("getstate",)]) == [
        state, None, random.Random(1).getstate()]


def test_any_state_the_generator_can_be_given(native):
    """Arbitrary words and positions (not only states a seed reaches), an all-zero state included."""
    for words, index in [([0] * 624, 624), ([0] * 624, 0), ([2**32 - 1] * 624, 624),
                         ([(i * 2654435761) % 2**32 for i in range(624)], 300)]:
        check(native, (3, tuple(words) + (index,), None), MIXED)


# ---- property tests ----------------------------------------------------------------------------------

SEEDS = st.one_of(
    st.integers(INT64_MIN, INT64_MAX),
    st.integers(-(2**400), 2**400),
    st.text(max_size=200),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40),
    st.binary(max_size=200),
    st.builds(lambda s, side, n, ai: f"{s}/{side}/{n}" + ("/ai" if ai else ""),
              st.integers(0, 2**63 - 1), st.sampled_from(["heroes", "zombies"]), st.integers(0, 10**6), st.booleans()),
)

OPS = st.one_of(
    st.just(("random",)),
    st.tuples(st.just("getrandbits"), st.integers(0, 64)),
    st.tuples(st.just("randbelow"), st.one_of(st.integers(1, 300), st.integers(1, 2**64 - 1))),
    st.tuples(st.just("randrange"), st.one_of(st.integers(1, 300), st.integers(1, INT64_MAX))),
    st.tuples(st.integers(INT64_MIN, INT64_MAX), st.integers(INT64_MIN, INT64_MAX)).map(
        lambda ab: ("randint", min(ab), max(ab))),
    st.tuples(st.integers(-100, 100), st.integers(0, 50)).map(lambda aw: ("randint", aw[0], aw[0] + aw[1])),
    st.tuples(st.just("choice"), st.integers(1, 500)),
    st.tuples(st.just("shuffle"), st.integers(0, 800)),
    st.tuples(st.just("roll"), st.integers(0, 6), st.sampled_from([1, 2, 3, 6, 10, 20, 100, 216, 1000])),
    st.just(("getstate",)),
    st.tuples(st.just("seed"), SEEDS),
)


@SETTINGS
@given(seed=SEEDS, ops=st.lists(OPS, max_size=40))
def test_any_seed_and_ops(native, seed, ops):
    check(native, seed, ops + [("getstate",)])


@SETTINGS
@given(words=st.lists(st.integers(0, 2**32 - 1), min_size=624, max_size=624), index=st.integers(0, 624),
       ops=st.lists(OPS, max_size=20))
def test_any_state_and_ops(native, words, index, ops):
    check(native, (3, tuple(words) + (index,), None), ops + [("shuffle", 700), ("getstate",)])


# ---- SHA-512 -----------------------------------------------------------------------------------------

def test_sha512_every_length(native):
    """Lengths 0..600: one, two and more blocks, and every padding case (111/112 bytes in the last block)."""
    texts = [bytes((i * 131 + n) % 256 for i in range(n)) for n in range(601)]
    assert native.rng_probe(0, [("sha512", t) for t in texts]) == [hashlib.sha512(t).digest() for t in texts]


@SETTINGS
@given(text=st.one_of(st.text(max_size=500), st.binary(max_size=2000)))
def test_sha512_any_text(native, text):
    want = hashlib.sha512(text.encode() if isinstance(text, str) else text).digest()
    assert native.rng_probe(0, [("sha512", text)]) == [want]


def test_sha512_known_answers(native):
    """FIPS 180-4's examples, so the check does not rest on hashlib alone."""
    assert native.rng_probe(0, [("sha512", "abc")])[0].hex() == (
        "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
        "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
    assert native.rng_probe(0, [("sha512", "")])[0].hex() == (
        "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
        "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e")


# ---- errors ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed, ops, error, words", [
    (0, [("randrange", 0)], ValueError, "empty range"),
    (0, [("randrange", -3)], ValueError, "empty range"),
    (0, [("randint", 5, 4)], ValueError, "empty range"),
    (0, [("roll", 1, 0)], ValueError, "empty range"),
    (0, [("choice", 0)], IndexError, "empty sequence"),
    (0, [("getrandbits", -1)], ValueError, "0..64"),
    (0, [("getrandbits", 65)], ValueError, "0..64"),
    (0, [("randbelow", 0)], ValueError, "positive"),
    (0, [("randbelow", 2**64)], ValueError, "2**64"),
    (0, [("randrange", 2**63)], ValueError, "int64"),
    (0, [("randint", 0, 2**70)], ValueError, "int64"),
    (0, [("shuffle", -1)], ValueError, "shuffle"),
    (0, [("nope",)], ValueError, "unknown op"),
    (0, [()], TypeError, "an op is a tuple"),
    (0, ["random"], TypeError, "an op is a tuple"),
    (0, [(3,)], TypeError, "name must be a str"),
    (0, [("randrange",)], TypeError, "takes 1 argument"),
    (0, [("random", 1)], TypeError, "takes 0 argument"),
    (0, [("randrange", "3")], TypeError, "must be an int"),
    (0, [("randrange", 3.0)], TypeError, "must be an int"),
    (0, [("sha512", 5)], TypeError, "str or bytes"),
    (0, [("setstate", 5)], TypeError, "tuple"),
    (0, [("seed", 1.5)], TypeError, "the seed must be"),
    (0, 5, TypeError, "ops must be a list"),
    (1.5, [], TypeError, "the seed must be"),
    (None, [], TypeError, "the seed must be"),
    ((3, (0,) * 624, None), [], ValueError, "624 words"),
    ((3, (0,) * 624 + (625,), None), [], ValueError, "invalid state"),
    ((3, (0,) * 624 + (-1,), None), [], ValueError, "invalid state"),
    ((3, (2**32,) + (0,) * 623 + (624,), None), [], ValueError, "0..2**32-1"),
    ((3, (-1,) + (0,) * 623 + (624,), None), [], ValueError, "0..2**64-1"),
    ((3, ("x",) + (0,) * 623 + (624,), None), [], TypeError, "must be an int"),
    ((2, (0,) * 624 + (624,), None), [], ValueError, "version must be 3"),
    ((3, 7, None), [], TypeError, "must be a tuple"),
])
def test_errors(native, seed, ops, error, words):
    with pytest.raises(error, match=words.replace("*", r"\*").replace("(", r"\(").replace(".", r"\.")):
        native.rng_probe(seed, ops)
    assert native.rng_probe(0, [("random",)]) == [random.Random(0).random()]  # and all is well after


def test_errors_are_pythons_where_python_has_them(native):
    """The errors an engine can meet are the ones Python raises, with the op named."""
    for op, error in [(("randrange", 0), ValueError), (("randint", 2, 1), ValueError), (("choice", 0), IndexError),
                      (("getrandbits", -1), ValueError), (("roll", 2, -1), ValueError)]:
        with pytest.raises(error):
            python_run(0, [op])
        with pytest.raises(error, match=r"rng_probe: op 1 "):
            native.rng_probe(0, [("random",), op])
    # a dice roll of no dice raises nothing, whatever the sides (as Chance.roll)
    assert native.rng_probe(0, [("roll", 0, 0), ("roll", -2, 6)]) == python_run(0, [("roll", 0, 0), ("roll", -2, 6)]) == [[], []]


def test_a_lone_surrogate_is_not_a_seed(native):
    """str.encode() refuses a lone surrogate, so random.Random does; so does the probe."""
    with pytest.raises(UnicodeEncodeError):
        random.Random("a\ud800")
    with pytest.raises(UnicodeEncodeError):
        native.rng_probe("a\ud800", [])


def test_int_subclass_seed_uses_ints_own_abs(native):
    """CPython seeds from int.__abs__, never a subclass's own __abs__."""
    class Odd(int):
        def __abs__(self):
            return 12345

    for value in (-(2**70), 2**70, -3):
        assert native.rng_probe(Odd(value), [("getstate",)]) == [random.Random(Odd(value)).getstate()]
