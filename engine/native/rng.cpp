// The seeding and the refill of the native Random (rng.h): CPython's _randommodule.c, line for line.
#include "rng.h"

#include <array>
#include <cstring>

#include "sha512.h"

namespace spawnpit {

namespace {

constexpr uint32_t MATRIX_A = 0x9908b0dfU;
constexpr uint32_t UPPER_MASK = 0x80000000U;
constexpr uint32_t LOWER_MASK = 0x7fffffffU;

// init_genrand(19650218), the start of every init_by_array: computed once, at compile time.
constexpr std::array<uint32_t, Random::N> genrand_19650218() {
    std::array<uint32_t, Random::N> mt{};
    mt[0] = 19650218U;
    for (uint32_t i = 1; i < uint32_t(Random::N); ++i)
        mt[i] = 1812433253U * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i;
    return mt;
}
constexpr std::array<uint32_t, Random::N> BASE = genrand_19650218();

}  // namespace

void Random::init_by_array(const uint32_t *key, size_t len) {
    uint32_t *mt = mt_;
    std::memcpy(mt, BASE.data(), sizeof mt_);
    index_ = N;
    size_t i = 1, j = 0;
    for (size_t k = (size_t(N) > len ? size_t(N) : len); k; --k) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + uint32_t(j);
        ++i; ++j;
        if (i >= size_t(N)) { mt[0] = mt[N - 1]; i = 1; }
        if (j >= len) j = 0;
    }
    for (size_t k = N - 1; k; --k) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - uint32_t(i);
        ++i;
        if (i >= size_t(N)) { mt[0] = mt[N - 1]; i = 1; }
    }
    mt[0] = 0x80000000U;
}

void Random::generate() {
    uint32_t *mt = mt_;
    int kk = 0;
    for (; kk < N - M; ++kk) {
        uint32_t y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
        mt[kk] = mt[kk + M] ^ (y >> 1) ^ ((y & 1U) ? MATRIX_A : 0U);
    }
    for (; kk < N - 1; ++kk) {
        uint32_t y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
        mt[kk] = mt[kk + (M - N)] ^ (y >> 1) ^ ((y & 1U) ? MATRIX_A : 0U);
    }
    uint32_t y = (mt[N - 1] & UPPER_MASK) | (mt[0] & LOWER_MASK);
    mt[N - 1] = mt[M - 1] ^ (y >> 1) ^ ((y & 1U) ? MATRIX_A : 0U);
    index_ = 0;
}

uint64_t Random::randbelow_2_64() {
    for (;;) {
        uint64_t low = genrand_uint32();
        uint64_t high = genrand_uint32();
        uint32_t top = genrand_uint32() >> 31;  // bit 64 of getrandbits(65)
        if (top == 0) return low | (high << 32);
    }
}

void Random::seed(int64_t n) {
    uint64_t magnitude = n < 0 ? 0 - uint64_t(n) : uint64_t(n);
    uint32_t key[2] = {uint32_t(magnitude), uint32_t(magnitude >> 32)};
    init_by_array(key, key[1] ? 2 : 1);
}

void Random::seed_words(const uint32_t *key, size_t len) {
    while (len > 0 && key[len - 1] == 0) --len;  // an int has no most-significant zero words
    if (len == 0) {
        const uint32_t zero = 0;
        init_by_array(&zero, 1);
        return;
    }
    init_by_array(key, len);
}

void Random::seed(std::string_view text) {
    // The int whose big-endian bytes are text + sha512(text), as 32-bit words least significant first.
    uint8_t digest[Sha512::DIGEST_SIZE];
    sha512(text.data(), text.size(), digest);
    const size_t total = text.size() + Sha512::DIGEST_SIZE;
    const size_t words = (total + 3) / 4;
    uint32_t small[96];  // texts up to 320 bytes: no allocation
    std::vector<uint32_t> large;
    uint32_t *key = small;
    if (words > sizeof small / sizeof small[0]) {
        large.resize(words);
        key = large.data();
    }
    const uint8_t *bytes = reinterpret_cast<const uint8_t *>(text.data());
    auto byte_at = [&](size_t p) -> uint32_t { return p < text.size() ? bytes[p] : digest[p - text.size()]; };
    size_t end = total;  // word w is bytes [end - 4, end) big-endian, where end = total - 4 * w
    size_t w = 0;
    for (; end >= 4; end -= 4, ++w)
        key[w] = (byte_at(end - 4) << 24) | (byte_at(end - 3) << 16) | (byte_at(end - 2) << 8) | byte_at(end - 1);
    if (end > 0) {  // the most significant word has only `end` bytes
        uint32_t v = 0;
        for (size_t p = 0; p < end; ++p) v = (v << 8) | byte_at(p);
        key[w++] = v;
    }
    seed_words(key, w);  // drops the words that leading zero bytes made
}

int Random::getstate(uint32_t words[N]) const {
    std::memcpy(words, mt_, sizeof mt_);
    return index_;
}

void Random::setstate(const uint32_t words[N], int index) {
    if (index < 0 || index > N) throw std::invalid_argument("invalid state");
    std::memcpy(mt_, words, sizeof mt_);
    index_ = index;
}

}  // namespace spawnpit
