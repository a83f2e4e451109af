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
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string html_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size() + s.size() / 8);
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      case '\0': out += "\xEF\xBF\xBD"; break;
      default: out += c;
    }
  }
  return out;
}

// ---- SHA-256 ----
namespace {

constexpr std::array<uint32_t, 64> kK = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

inline uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

void compress(std::array<uint32_t, 8>& h, const unsigned char* block) {
  uint32_t w[64];
  for (int i = 0; i < 16; ++i)
    w[i] = (uint32_t(block[4 * i]) << 24) | (uint32_t(block[4 * i + 1]) << 16) | (uint32_t(block[4 * i + 2]) << 8) |
           uint32_t(block[4 * i + 3]);
  for (int i = 16; i < 64; ++i) {
    uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
    uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
  for (int i = 0; i < 64; ++i) {
    uint32_t s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
    uint32_t ch = (e & f) ^ (~e & g);
    uint32_t t1 = hh + s1 + ch + kK[i] + w[i];
    uint32_t s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
    uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
    uint32_t t2 = s0 + maj;
    hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
  }
  h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

}  // namespace

std::string sha256_hex(std::string_view data) {
  std::array<uint32_t, 8> h = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                               0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
  size_t n = data.size();
  size_t full = n / 64;
  for (size_t i = 0; i < full; ++i) compress(h, p + 64 * i);
  // Padding: 0x80, zeros, then the bit length as a 64-bit big-endian number.
  unsigned char tail[128] = {};
  size_t rest = n - full * 64;
  std::copy(p + full * 64, p + n, tail);
  tail[rest] = 0x80;
  size_t tail_len = rest + 1 + 8 <= 64 ? 64 : 128;
  uint64_t bits = static_cast<uint64_t>(n) * 8;
  for (int i = 0; i < 8; ++i) tail[tail_len - 1 - i] = static_cast<unsigned char>(bits >> (8 * i));
  compress(h, tail);
  if (tail_len == 128) compress(h, tail + 64);
  std::string out;
  char buf[9];
  for (uint32_t v : h) {
    std::snprintf(buf, sizeof buf, "%08x", v);
    out += buf;
  }
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
