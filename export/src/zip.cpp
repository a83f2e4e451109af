// Written here on zlib rather than with libzip: the archive must be the same bytes on every
// run (EPUB readers and `quire diff` compare it), and a container of local headers and a
// central directory is ~80 lines over zlib's deflate and crc32, which extract already links.
// With libzip each entry's time would be set by hand, and which extra fields and version
// fields it writes would be its version's choice, not ours.
#include "zip.h"

#include <zlib.h>

#include "quire/error.h"

namespace quire::exporting {

namespace {

// Deflate level of the entries: zlib's default, fixed so that the bytes do not depend on a
// library default.
constexpr int kDeflateLevel = 6;
// 1980-01-01 00:00 as MS-DOS date and time: the earliest a zip entry can be dated.
constexpr uint16_t kDosDate = (0 << 9) | (1 << 5) | 1, kDosTime = 0;
constexpr uint16_t kVersionNeeded = 20;  // 2.0: deflate

void put16(std::string& out, uint16_t v) {
  out.push_back(static_cast<char>(v & 0xff));
  out.push_back(static_cast<char>(v >> 8));
}
void put32(std::string& out, uint32_t v) {
  put16(out, static_cast<uint16_t>(v & 0xffff));
  put16(out, static_cast<uint16_t>(v >> 16));
}

std::string raw_deflate(std::string_view data) {
  z_stream z{};
  // Negative window bits: a raw deflate stream, as zip entries hold (no zlib header).
  if (deflateInit2(&z, kDeflateLevel, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw Error(ExitCode::Internal, "", 0, "zlib: cannot start deflate");
  std::string out(deflateBound(&z, static_cast<uLong>(data.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  if (rc != Z_STREAM_END) throw Error(ExitCode::Internal, "", 0, "zlib: deflate failed");
  return out;
}

}  // namespace

void ZipWriter::add(std::string name, std::string_view data, bool deflate) {
  if (data.size() > 0xffffffffu || body_.size() > 0xffffffffu)
    throw Error(ExitCode::Internal, name, 0, "too large for a zip archive without zip64");
  Entry e;
  e.name = std::move(name);
  e.crc = static_cast<uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(data.size())));
  e.size = static_cast<uint32_t>(data.size());
  std::string packed;
  if (deflate) packed = raw_deflate(data);
  e.method = deflate ? 8 : 0;
  e.packed_size = static_cast<uint32_t>(deflate ? packed.size() : data.size());
  e.offset = static_cast<uint32_t>(body_.size());
  put32(body_, 0x04034b50);
  put16(body_, kVersionNeeded);
  put16(body_, 0);  // flags
  put16(body_, e.method);
  put16(body_, kDosTime);
  put16(body_, kDosDate);
  put32(body_, e.crc);
  put32(body_, e.packed_size);
  put32(body_, e.size);
  put16(body_, static_cast<uint16_t>(e.name.size()));
  put16(body_, 0);  // no extra field
  body_ += e.name;
  if (deflate) body_ += packed;
  else body_.append(data);
  entries_.push_back(std::move(e));
}

std::string ZipWriter::finish() const {
  std::string out = body_;
  const auto directory_at = static_cast<uint32_t>(out.size());
  for (const auto& e : entries_) {
    put32(out, 0x02014b50);
    put16(out, kVersionNeeded);  // made by: MS-DOS, 2.0 (no file attributes of a host)
    put16(out, kVersionNeeded);
    put16(out, 0);
    put16(out, e.method);
    put16(out, kDosTime);
    put16(out, kDosDate);
    put32(out, e.crc);
    put32(out, e.packed_size);
    put32(out, e.size);
    put16(out, static_cast<uint16_t>(e.name.size()));
    put16(out, 0);  // extra
    put16(out, 0);  // comment
    put16(out, 0);  // disk
    put16(out, 0);  // internal attributes
    put32(out, 0);  // external attributes
    put32(out, e.offset);
    out += e.name;
  }
  const auto directory_size = static_cast<uint32_t>(out.size() - directory_at);
  put32(out, 0x06054b50);
  put16(out, 0);
  put16(out, 0);
  put16(out, static_cast<uint16_t>(entries_.size()));
  put16(out, static_cast<uint16_t>(entries_.size()));
  put32(out, directory_size);
  put32(out, directory_at);
  put16(out, 0);  // comment
  return out;
}

}  // namespace quire::exporting
