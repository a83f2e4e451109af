// The map parser: any bytes give a CorpusMap or a quire::Error with file:line:column.
#include <unistd.h>

#include <fstream>
#include <string>

#include "quire/error.h"
#include "quire/export.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = "/tmp/quire-fuzz-map-" + std::to_string(getpid()) + ".toml";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    quire::read_map(path, "/tmp");
  } catch (const quire::Error& e) {
    if (e.message().empty()) __builtin_trap();
  }
  return 0;
}
