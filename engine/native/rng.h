// The native core's random numbers: an exact port of CPython 3.11's random.Random (the MT19937 of
// Modules/_randommodule.c and the methods of Lib/random.py the engine uses), so that a game played by
// the native core draws the very numbers the Python engine draws. Checked against random.Random by
// tests/native/test_rng.py through rng_probe (rng_probe.cpp).
//
// What CPython does, and so what this does:
// - Seeding from an int n uses |n| (the sign is dropped: Random(-5) == Random(5)), split into 32-bit
//   words least significant first, with no most-significant zero words (0 is the one word 0), fed to
//   init_by_array. A value that fits in 32 bits is one word: Random(1) is not Random(2**32 + 1).
// - Seeding from a str s (version 2, the default) uses the int
//   int.from_bytes(s.encode('utf-8') + sha512(s.encode('utf-8')).digest(), 'big'), so again its words
//   least significant first: the digest's last four bytes are word 0. Leading zero bytes (a str that
//   starts with '\0') are not words of that int: they are dropped. bytes seed the same way.
// - getrandbits(k), 0 < k <= 32, is one draw shifted right by 32 - k (its high bits are kept); for
//   k > 32 the words are drawn least significant first, each a full draw except the last (most
//   significant) one, shifted right to the bits that remain. getrandbits(0) draws nothing.
// - _randbelow(n) draws getrandbits(n.bit_length()) until the value is below n (rejection, no
//   modulo); randrange(n), randint(a, b) (= a + _randbelow(b - a + 1)), choice (= _randbelow(len))
//   and shuffle all go through it. random() is (a*2**26 + b) / 2**53 with a = draw >> 5, b = draw >> 6.
// - shuffle goes from the last index down to 1: j = _randbelow(i + 1), swap items i and j.
// - The state (getstate()[1]) is the 624 words followed by the position, 0..624; a freshly seeded
//   generator is at 624 (the next draw regenerates the words first).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

namespace spawnpit {

class Random {
   public:
    static constexpr int N = 624;  // words of state
    static constexpr int M = 397;

    Random() { seed(int64_t(0)); }  // (CPython's Random() seeds from the OS: here it is Random(0))
    explicit Random(int64_t n) { seed(n); }
    explicit Random(std::string_view text) { seed(text); }

    // ---- seeding (as random.Random(x) / .seed(x)) ---------------------------------------------
    void seed(int64_t n);                              // an int: its absolute value
    void seed(std::string_view text);                  // a str's UTF-8 bytes (or bytes), by the SHA-512 rule
    void seed_words(const uint32_t *key, size_t len);  // an int of any size: |n|'s 32-bit words, least significant first

    // ---- state (as getstate()[1] / setstate((3, state, None))) ------------------------------
    int getstate(uint32_t words[N]) const;             // copies the words, returns the position 0..624
    void setstate(const uint32_t words[N], int index); // std::invalid_argument unless 0 <= index <= 624

    // ---- draws --------------------------------------------------------------------------------
    uint32_t genrand_uint32() {
        if (index_ >= N) generate();
        uint32_t y = mt_[index_++];
        y ^= (y >> 11);
        y ^= (y << 7) & 0x9d2c5680U;
        y ^= (y << 15) & 0xefc60000U;
        y ^= (y >> 18);
        return y;
    }

    // getrandbits(k) for 0 <= k <= 64 (std::invalid_argument otherwise).
    uint64_t getrandbits(int k) {
        if (k <= 32) {
            if (k <= 0) {
                if (k == 0) return 0;
                throw std::invalid_argument("getrandbits: the number of bits must be 0..64");
            }
            return genrand_uint32() >> (32 - k);
        }
        if (k > 64) throw std::invalid_argument("getrandbits: the number of bits must be 0..64");
        uint64_t low = genrand_uint32();
        uint64_t high = genrand_uint32() >> (64 - k);
        return low | (high << 32);
    }

    // random(): a float in [0, 1) with 53 random bits.
    double random() {
        uint32_t a = genrand_uint32() >> 5, b = genrand_uint32() >> 6;
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
    }

    // _randbelow(n): 0 <= r < n. (n == 0 gives 0 and draws nothing; CPython's would never return.)
    uint64_t randbelow(uint64_t n) {
        if (n == 0) return 0;
        int k = 64 - __builtin_clzll(n);
        if (k <= 32) {
            int shift = 32 - k;
            uint32_t r;
            do r = genrand_uint32() >> shift; while (r >= n);
            return r;
        }
        uint64_t r;
        do r = getrandbits(k); while (r >= n);
        return r;
    }

    // randrange(n) for n > 0 (std::invalid_argument otherwise, as Python's ValueError).
    int64_t randrange(int64_t n) {
        if (n <= 0) throw std::invalid_argument("empty range for randrange()");
        return int64_t(randbelow(uint64_t(n)));
    }

    // randint(a, b) = a + _randbelow(b - a + 1) for a <= b (std::invalid_argument otherwise).
    int64_t randint(int64_t a, int64_t b) {
        if (b < a) throw std::invalid_argument("empty range for randint()");
        uint64_t width = uint64_t(b) - uint64_t(a) + 1;  // 0 here means 2**64: the whole int64 range
        return int64_t(uint64_t(a) + (width ? randbelow(width) : randbelow_2_64()));
    }

    // choice(seq) draws the index _randbelow(len(seq)); std::out_of_range for an empty sequence.
    size_t choice_index(size_t len) {
        if (len == 0) throw std::out_of_range("Cannot choose from an empty sequence");
        return size_t(randbelow(len));
    }

    // shuffle(x), in place.
    template <class T>
    void shuffle(T *items, size_t len) {
        for (size_t i = len > 0 ? len - 1 : 0; i >= 1; --i) {
            size_t j = size_t(randbelow(i + 1));
            using std::swap;
            swap(items[i], items[j]);
        }
    }
    template <class T>
    void shuffle(std::vector<T> &items) { shuffle(items.data(), items.size()); }

    // One die of engine/rng.py's Chance.roll: randint(1, sides), except that a D216 is three
    // randint(1, 6) read as the digits of a number (111..666), the first roll the hundreds.
    int64_t roll_die(int64_t sides) {
        if (sides == 216) {
            int64_t a = randint(1, 6), b = randint(1, 6), c = randint(1, 6);
            return 100 * a + 10 * b + c;
        }
        return randint(1, sides);
    }
    // Chance.roll(count, sides): `count` dice one after the other (none when count <= 0).
    template <class Out>
    Out roll(int64_t count, int64_t sides, Out out) {
        for (int64_t i = 0; i < count; ++i) *out++ = roll_die(sides);
        return out;
    }
    std::vector<int64_t> roll(int64_t count, int64_t sides) {
        std::vector<int64_t> dice;
        if (count > 0) dice.reserve(size_t(count));
        for (int64_t i = 0; i < count; ++i) dice.push_back(roll_die(sides));
        return dice;
    }

   private:
    void generate();          // the next N words (CPython's genrand_uint32 refill)
    uint64_t randbelow_2_64();  // _randbelow(2**64): getrandbits(65) until below 2**64
    void init_by_array(const uint32_t *key, size_t len);

    uint32_t mt_[N];
    int index_;
};

}  // namespace spawnpit
