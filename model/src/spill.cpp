#include "quire/spill.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string_view>
#include <filesystem>
#include <memory>
#include <type_traits>

#include "quire/error.h"

namespace quire {

namespace {

// The file is read back by the process that wrote it: values go in their in-memory bytes.
// A page's record is measured first and then written through a cursor into a buffer of that
// size: appended value by value, each append asked the string for room (a page is written
// three to four times in a build, after extraction and after each pass that changes it).
// One walk over the page's fields (put_record) does both, with a sink that counts the bytes
// and one that copies them.
struct Measure {
  size_t size = 0;
  void raw(const void*, size_t n) { size += n; }
};

struct Copy {
  char* p;
  void raw(const void* data, size_t n) {
    if (n == 0) return;  // (an empty container's data() may be null, which memcpy must not get)
    std::memcpy(p, data, n);
    p += n;
  }
};

template <class Sink>
struct Writer {
  Sink& sink;
  template <class T>
  void put(T v) {
    static_assert(std::is_trivially_copyable_v<T>);
    sink.raw(&v, sizeof v);
  }
  void put(const std::string& s) {
    put(static_cast<uint32_t>(s.size()));
    sink.raw(s.data(), s.size());
  }
  void put(const Box& b) {
    put(b.x0), put(b.y0), put(b.x1), put(b.y1);
  }
};

template <class Sink>
void put_record(const Page& page, Sink& sink) {
  Writer<Sink> w{sink};
  w.put(static_cast<uint32_t>(page.lines.size()));
  for (const auto& l : page.lines) {
    w.put(l.bbox);
    w.put(static_cast<int32_t>(l.direction));
    w.put(static_cast<uint32_t>(l.spans.size()));
    for (const auto& s : l.spans) {
      w.put(s.text);
      w.put(s.bbox);
      w.put(s.font);
      w.put(s.size);
      w.put(static_cast<uint8_t>(s.monospace | s.bold << 1 | s.italic << 2 | s.ocr << 3));
      w.put(s.color);
      w.put(s.baseline);
      w.put(s.last_advance);
      w.put(s.confidence);
      w.put(static_cast<uint32_t>(s.xs.size()));
      sink.raw(s.xs.data(), s.xs.size() * sizeof(float));
    }
  }
  w.put(static_cast<uint32_t>(page.paths.size()));
  for (const auto& v : page.paths) {
    w.put(v.bbox);
    w.put(static_cast<uint8_t>(v.fill | v.stroke << 1 | v.paper << 2));
    w.put(v.line_width);
    w.put(v.color);
  }
}

class Reader {
 public:
  Reader(const char* data, size_t size) : p(data), end(data + size) {}
  template <class T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    need(sizeof(T));
    T v;
    std::memcpy(&v, p, sizeof v);
    p += sizeof v;
    return v;
  }
  void get(std::string& s) {
    const auto n = get<uint32_t>();
    need(n);
    s.assign(p, n);
    p += n;
  }
  void get(std::vector<float>& v, size_t n) {
    need(n * sizeof(float));
    v.resize(n);
    if (n == 0) return;  // (an empty vector's data() may be null, which memcpy must not get)
    std::memcpy(v.data(), p, n * sizeof(float));
    p += n * sizeof(float);
  }
  void get(Box& b) {
    b.x0 = get<double>(), b.y0 = get<double>(), b.x1 = get<double>(), b.y1 = get<double>();
  }
  // Every byte of the record read: no more than the page's content was written.
  void finish() const {
    if (p != end) throw std::runtime_error("page spill file: a page's record is longer than its content");
  }
  void need(size_t n) const {
    if (static_cast<size_t>(end - p) < n) throw std::runtime_error("page spill file: a page's record is cut short");
  }

 private:
  const char* p;
  const char* end;
};

// A page's record, in a buffer each thread reuses for every page it writes (grown as needed,
// never cleared: encode writes every byte of the record).
struct Record {
  std::unique_ptr<char[]> bytes;
  size_t capacity = 0, size = 0;
};

void encode(const Page& page, Record& out) {
  Measure measure;
  put_record(page, measure);
  out.size = measure.size;
  if (out.capacity < out.size) {
    out.capacity = std::max(out.size, 2 * out.capacity);
    out.bytes = std::make_unique_for_overwrite<char[]>(out.capacity);
  }
  Copy copy{out.bytes.get()};
  put_record(page, copy);
}

void decode(const char* bytes, size_t size, Page& page) {
  Reader r(bytes, size);
  page.lines.resize(r.get<uint32_t>());
  for (auto& l : page.lines) {
    r.get(l.bbox);
    l.direction = r.get<int32_t>();
    l.spans.resize(r.get<uint32_t>());
    for (auto& s : l.spans) {
      r.get(s.text);
      r.get(s.bbox);
      r.get(s.font);
      s.size = r.get<double>();
      const auto flags = r.get<uint8_t>();
      s.monospace = flags & 1;
      s.bold = flags & 2;
      s.italic = flags & 4;
      s.ocr = flags & 8;
      s.color = r.get<uint32_t>();
      s.baseline = r.get<double>();
      s.last_advance = r.get<float>();
      s.confidence = r.get<float>();
      r.get(s.xs, r.get<uint32_t>());
    }
  }
  page.paths.resize(r.get<uint32_t>());
  for (auto& v : page.paths) {
    r.get(v.bbox);
    const auto flags = r.get<uint8_t>();
    v.fill = flags & 1;
    v.stroke = flags & 2;
    v.paper = flags & 4;
    v.line_width = r.get<double>();
    v.color = r.get<uint32_t>();
  }
  r.finish();
}

size_t heap_bytes(const std::string& s) { return s.capacity() > 15 ? s.capacity() + 1 : 0; }

}  // namespace

PageSpill::PageSpill(size_t pages, std::shared_ptr<SpillBudget> budget, const std::string& source,
                     const std::string& dir)
    : source_(source), budget_(std::move(budget)), slots_(pages) {
  std::filesystem::path where = dir;
  if (where.empty()) {
    const char* tmpdir = std::getenv("TMPDIR");
    where = tmpdir && *tmpdir ? tmpdir : "/tmp";
  }
  path_ = (where / "quire-pages-XXXXXX").string();
  std::vector<char> name(path_.begin(), path_.end());
  name.push_back('\0');
  fd_ = ::mkstemp(name.data());
  if (fd_ < 0)
    throw Error(ExitCode::Io, source_, 0, "cannot make the page spill file " + path_ + ": " + std::strerror(errno));
  path_ = name.data();
  ::unlink(path_.c_str());
}

PageSpill::~PageSpill() {
  budget_->give_back(kept_.load());
  if (fd_ >= 0) ::close(fd_);
}

size_t PageSpill::content_bytes(const Page& page) {
  size_t n = page.lines.capacity() * sizeof(Line) + page.paths.capacity() * sizeof(VectorPath);
  for (const auto& l : page.lines) {
    n += l.spans.capacity() * sizeof(Span);
    for (const auto& s : l.spans) n += heap_bytes(s.text) + heap_bytes(s.font) + s.xs.capacity() * sizeof(float);
  }
  return n;
}

void PageSpill::settle(size_t index, Page& page) {
  Slot& slot = slots_[index];
  if (slot.spilled) return;
  // Settled before and changed since (a page read again by OCR): counted afresh.
  kept_ -= slot.kept;
  budget_->give_back(slot.kept);
  slot.kept = 0;
  const size_t bytes = content_bytes(page);
  if (budget_->take(bytes)) {
    kept_ += bytes;
    slot.kept = bytes;
    return;
  }
  write(index, page);
  slot.spilled = true;
  ++spilled_count_;
  std::vector<Line>().swap(page.lines);
  std::vector<VectorPath>().swap(page.paths);
}

void PageSpill::write(size_t index, const Page& page) {
  thread_local Record record;
  encode(page, record);
  const std::string_view bytes(record.bytes.get(), record.size);
  Slot& slot = slots_[index];
  if (bytes.size() > slot.capacity) {
    slot.offset = end_.fetch_add(bytes.size());
    slot.capacity = bytes.size();
  }
  slot.size = bytes.size();
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::pwrite(fd_, bytes.data() + done, bytes.size() - done, static_cast<off_t>(slot.offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw Error(ExitCode::Io, source_, page.number,
                  "cannot write the page spill file " + path_ + ": " + (n < 0 ? std::strerror(errno) : "disk full"));
    done += static_cast<size_t>(n);
  }
}

void PageSpill::load(size_t index, Page& page) const {
  const Slot& slot = slots_[index];
  // One buffer per thread, grown as needed (never cleared: every byte read is written first).
  thread_local std::unique_ptr<char[]> buffer;
  thread_local size_t buffer_size = 0;
  if (buffer_size < slot.size) {
    buffer_size = std::max<size_t>(slot.size, 2 * buffer_size);
    buffer = std::make_unique_for_overwrite<char[]>(buffer_size);
  }
  char* bytes = buffer.get();
  size_t done = 0;
  while (done < slot.size) {
    const ssize_t n = ::pread(fd_, bytes + done, slot.size - done, static_cast<off_t>(slot.offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw Error(ExitCode::Io, source_, page.number,
                  "cannot read the page spill file " + path_ + ": " + (n < 0 ? std::strerror(errno) : "file cut short"));
    done += static_cast<size_t>(n);
  }
  decode(bytes, slot.size, page);
}

namespace spill_detail {

Spare& thread_spare() {
  thread_local Spare spare;
  return spare;
}

}  // namespace spill_detail

}  // namespace quire
