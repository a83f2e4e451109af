// The intermediate JSON Lines reader: any bytes give a Document or a quire::Error, never a crash;
// a Document that was read writes back and reads again to an equal value.
#include <sstream>

#include "quire/json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    quire::Document d = quire::read_pages_jsonl(in, "fuzz.jsonl");
    std::ostringstream out;
    quire::write_pages_jsonl(out, d);
    std::istringstream again(out.str());
    quire::Document e = quire::read_pages_jsonl(again, "again.jsonl");
    std::ostringstream out2;
    quire::write_pages_jsonl(out2, e);
    if (out.str() != out2.str()) __builtin_trap();
  } catch (const quire::Error&) {
  }
  return 0;
}
