// A deterministic zip archive in memory, for EPUB: entries in the order they are added, no
// time stamps (every entry dated 1980-01-01 00:00, the format's first day), no extra fields,
// no comments, no data descriptors. The same entries give the same bytes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace quire::exporting {

class ZipWriter {
 public:
  // `name`: the entry's path in the archive (ASCII, '/'-separated). `deflate`: compressed
  // with zlib's deflate at a fixed level, else stored as it is (EPUB's mimetype must be).
  void add(std::string name, std::string_view data, bool deflate = true);
  // The archive's bytes: local entries, then the central directory and its end record.
  std::string finish() const;

 private:
  struct Entry {
    std::string name;
    uint32_t crc = 0, size = 0, packed_size = 0;
    uint16_t method = 0;
    uint32_t offset = 0;
  };
  std::vector<Entry> entries_;
  std::string body_;  // the local headers and data written so far
};

}  // namespace quire::exporting
