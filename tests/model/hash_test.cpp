// SHA-256 against the FIPS 180-4 examples, across the padding boundaries, and a file's hash
// against the hash of its bytes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "quire/error.h"
#include "quire/hash.h"

namespace {

TEST(Sha256, FipsExamples) {
  EXPECT_EQ(quire::sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(quire::sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(quire::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(quire::sha256_hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, AFileHashesAsItsBytes) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("quire-hash-" + std::to_string(getpid()));
  // Lengths around the 64-byte block and the 56-byte padding limit, and across the reader's
  // 64 KiB buffer.
  for (size_t n : {0ul, 55ul, 56ul, 63ul, 64ul, 65ul, 65535ul, 65536ul, 65537ul, 200001ul}) {
    std::string bytes(n, '\0');
    for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<char>((i * 131 + n) & 0xff);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
    EXPECT_EQ(quire::sha256_file(path.string()), quire::sha256_hex(bytes)) << n << " bytes";
    EXPECT_EQ(quire::sha256_hex(bytes).size(), 64u);
  }
  std::filesystem::remove(path);
  EXPECT_THROW(quire::sha256_file(path.string()), quire::Error);
}

}  // namespace
