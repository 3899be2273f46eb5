// SHA-512 (FIPS 180-4), for seeding the native Random from a string exactly as CPython's
// random.Random(str) does: int.from_bytes(s.encode() + sha512(s.encode()).digest(), 'big').
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace spawnpit {

class Sha512 {
   public:
    static constexpr size_t DIGEST_SIZE = 64;
    static constexpr size_t BLOCK_SIZE = 128;

    Sha512() { reset(); }
    void reset();
    void update(const void *data, size_t size);
    void update(std::string_view text) { update(text.data(), text.size()); }
    // Writes the 64-byte digest; the object must be reset() before it is used again.
    void finish(uint8_t digest[DIGEST_SIZE]);

   private:
    void compress(const uint8_t *block);

    uint64_t h_[8];
    uint64_t length_;  // bytes hashed so far (messages below 2**61 bytes, which is all of them)
    uint8_t buffer_[BLOCK_SIZE];
    size_t used_;      // bytes waiting in buffer_
};

// The digest of one message in one call.
void sha512(const void *data, size_t size, uint8_t digest[Sha512::DIGEST_SIZE]);

}  // namespace spawnpit
