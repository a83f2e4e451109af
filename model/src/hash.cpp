#include "quire/hash.h"

#include <nettle/sha2.h>

#include <fstream>
#include <vector>

#include "quire/error.h"

namespace quire {

namespace {

std::string hex_digest(sha256_ctx& state) {
  unsigned char digest[SHA256_DIGEST_SIZE];
  sha256_digest(&state, sizeof digest, digest);
  static const char* hex = "0123456789abcdef";
  std::string out;
  out.reserve(2 * sizeof digest);
  for (unsigned char c : digest) {
    out += hex[c >> 4];
    out += hex[c & 15];
  }
  return out;
}

}  // namespace

std::string sha256_hex(std::string_view data) {
  sha256_ctx state;
  sha256_init(&state);
  sha256_update(&state, data.size(), reinterpret_cast<const uint8_t*>(data.data()));
  return hex_digest(state);
}

std::string sha256_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ExitCode::NotFound, path, 0, "no such file or not readable");
  sha256_ctx state;
  sha256_init(&state);
  std::vector<char> buf(1 << 16);
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    if (in.gcount() > 0)
      sha256_update(&state, static_cast<size_t>(in.gcount()), reinterpret_cast<const uint8_t*>(buf.data()));
  }
  return hex_digest(state);
}

}  // namespace quire
