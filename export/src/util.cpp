#include "util.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "quire/error.h"

namespace quire::exporting {

namespace fs = std::filesystem;

void write_file(const std::string& path, std::string_view content) {
  std::error_code ec;
  fs::path p(path);
  if (p.has_parent_path()) fs::create_directories(p.parent_path(), ec);
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  out.close();
  if (!out) throw Error(ExitCode::Io, path, 0, "cannot write");
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ExitCode::NotFound, path, 0, "cannot read");
  // Into a string reserved at the file's size (a chapter's JSON runs to megabytes), not
  // through a string stream that grows by doubling and is then copied out.
  std::string text;
  std::error_code size_unknown;
  const auto size = fs::file_size(path, size_unknown);
  if (!size_unknown) text.reserve(static_cast<size_t>(size));
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) text.append(chunk, static_cast<size_t>(in.gcount()));
  return text;
}

std::string html_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size() + s.size() / 8);
  // Runs of characters that stand as they are go in at once.
  size_t from = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char* entity;
    switch (s[i]) {
      case '&': entity = "&amp;"; break;
      case '<': entity = "&lt;"; break;
      case '>': entity = "&gt;"; break;
      case '"': entity = "&quot;"; break;
      case '\'': entity = "&#39;"; break;
      case '\0': entity = "\xEF\xBF\xBD"; break;
      default: continue;
    }
    out.append(s.data() + from, i - from);
    out += entity;
    from = i + 1;
  }
  out.append(s.data() + from, s.size() - from);
  return out;
}

// ---- line diff (Myers' O(ND) algorithm) ----
namespace {

std::vector<std::string_view> split_lines(std::string_view s) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < s.size()) {
    size_t nl = s.find('\n', start);
    if (nl == std::string_view::npos) {
      lines.push_back(s.substr(start));
      break;
    }
    lines.push_back(s.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

enum class Op { Keep, Del, Add };
struct Edit {
  Op op;
  size_t a, b;  // line indexes in expected / actual
};

// Beyond this many differing lines the trace of a full Myers search costs too much memory;
// the differing middle is then shown as one replaced run.
constexpr long kMaxEditDistance = 4000;

std::vector<Edit> diff_lines(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
  std::vector<Edit> edits;
  size_t pre = 0;
  while (pre < a.size() && pre < b.size() && a[pre] == b[pre]) ++pre;
  size_t suf = 0;
  while (suf < a.size() - pre && suf < b.size() - pre && a[a.size() - 1 - suf] == b[b.size() - 1 - suf]) ++suf;
  for (size_t i = 0; i < pre; ++i) edits.push_back({Op::Keep, i, i});
  const long n = static_cast<long>(a.size() - pre - suf), m = static_cast<long>(b.size() - pre - suf);
  auto A = [&](long i) { return a[pre + static_cast<size_t>(i)]; };
  auto B = [&](long j) { return b[pre + static_cast<size_t>(j)]; };
  std::vector<Edit> middle;
  const long max = n + m;
  bool found = false;
  if (max > 0) {
    const long limit = std::min(max, kMaxEditDistance);
    std::vector<long> v(static_cast<size_t>(2 * limit + 2), 0);
    std::vector<std::vector<long>> trace;
    const long off = limit + 1;
    long final_d = -1;
    for (long d = 0; d <= limit && final_d < 0; ++d) {
      trace.push_back(v);
      for (long k = -d; k <= d; k += 2) {
        long x = (k == -d || (k != d && v[off + k - 1] < v[off + k + 1])) ? v[off + k + 1] : v[off + k - 1] + 1;
        long y = x - k;
        while (x < n && y < m && A(x) == B(y)) ++x, ++y;
        v[off + k] = x;
        if (x >= n && y >= m) {
          final_d = d;
          break;
        }
      }
    }
    if (final_d >= 0) {
      found = true;
      long x = n, y = m;
      for (long d = final_d; d > 0; --d) {
        const auto& pv = trace[static_cast<size_t>(d)];
        long k = x - y;
        long pk = (k == -d || (k != d && pv[off + k - 1] < pv[off + k + 1])) ? k + 1 : k - 1;
        long px = pv[off + pk], py = px - pk;
        while (x > px && y > py) middle.push_back({Op::Keep, size_t(--x), size_t(--y)});
        if (x == px) middle.push_back({Op::Add, size_t(x), size_t(--y)});
        else middle.push_back({Op::Del, size_t(--x), size_t(y)});
      }
      while (x > 0 && y > 0) middle.push_back({Op::Keep, size_t(--x), size_t(--y)});
      std::reverse(middle.begin(), middle.end());
    }
  }
  if (!found) {
    for (long i = 0; i < n; ++i) middle.push_back({Op::Del, size_t(i), 0});
    for (long j = 0; j < m; ++j) middle.push_back({Op::Add, size_t(n), size_t(j)});
  }
  for (auto e : middle) edits.push_back({e.op, e.a + pre, e.b + pre});
  for (size_t i = 0; i < suf; ++i) edits.push_back({Op::Keep, a.size() - suf + i, b.size() - suf + i});
  return edits;
}

}  // namespace

std::string unified_diff(std::string_view expected, std::string_view actual, const std::string& expected_name,
                         const std::string& actual_name) {
  if (expected == actual) return {};
  constexpr size_t kContext = 3;
  auto a = split_lines(expected), b = split_lines(actual);
  auto edits = diff_lines(a, b);
  std::ostringstream out;
  out << "--- " << expected_name << "\n+++ " << actual_name << "\n";
  size_t i = 0;
  const bool a_nl = !expected.empty() && expected.back() == '\n';
  const bool b_nl = !actual.empty() && actual.back() == '\n';
  while (i < edits.size()) {
    while (i < edits.size() && edits[i].op == Op::Keep) ++i;
    if (i == edits.size()) break;
    size_t start = i >= kContext ? i - kContext : 0;
    // Extend the hunk while the next change is within 2 * context lines.
    size_t end = i;
    while (true) {
      while (end < edits.size() && edits[end].op != Op::Keep) ++end;
      size_t keep = end;
      while (keep < edits.size() && edits[keep].op == Op::Keep) ++keep;
      if (keep < edits.size() && keep - end <= 2 * kContext) {
        end = keep;
        continue;
      }
      end = std::min(edits.size(), end + kContext);
      break;
    }
    size_t a_start = 0, b_start = 0, a_len = 0, b_len = 0;
    bool first = true;
    for (size_t k = start; k < end; ++k) {
      const Edit& e = edits[k];
      if (first) {
        a_start = e.a;
        b_start = e.b;
        first = false;
      }
      if (e.op != Op::Add) ++a_len;
      if (e.op != Op::Del) ++b_len;
    }
    out << "@@ -" << (a_len ? a_start + 1 : a_start) << "," << a_len << " +" << (b_len ? b_start + 1 : b_start) << ","
        << b_len << " @@\n";
    for (size_t k = start; k < end; ++k) {
      const Edit& e = edits[k];
      if (e.op == Op::Keep) out << ' ' << b[e.b] << "\n";
      else if (e.op == Op::Del) out << '-' << a[e.a] << "\n";
      else out << '+' << b[e.b] << "\n";
      bool last_a = e.op != Op::Add && e.a + 1 == a.size() && !a_nl;
      bool last_b = e.op != Op::Del && e.b + 1 == b.size() && !b_nl;
      if ((e.op == Op::Keep && (last_a || last_b)) || (e.op == Op::Del && last_a) || (e.op == Op::Add && last_b))
        out << "\\ No newline at end of file\n";
    }
    i = end;
  }
  return out.str();
}

std::string count_words(long n, bool capital) {
  static const char* kNames[] = {"no",    "one",  "two",   "three", "four",   "five",  "six",
                                 "seven", "eight", "nine", "ten",   "eleven", "twelve"};
  std::string s = n >= 0 && n <= 12 ? kNames[n] : std::to_string(n);
  if (capital && !s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return s;
}

}  // namespace quire::exporting
