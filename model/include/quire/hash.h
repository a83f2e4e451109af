// SHA-256, the one hash of the project: a book's source PDF in the manifest, cache keys, the
// diff's figure lines. Nettle's, which uses the CPU's SHA instructions where there are some
// (6.5 MB in 5 ms on this project's machine, against 38 ms for MuPDF's portable code).
#pragma once

#include <string>
#include <string_view>

namespace quire {

// SHA-256 of a file's bytes, lowercase hex. Throws Error(NotFound) when it cannot be read.
std::string sha256_file(const std::string& path);
// SHA-256 of bytes, lowercase hex.
std::string sha256_hex(std::string_view data);

}  // namespace quire
