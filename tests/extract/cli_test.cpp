// `quire extract` through the binary: bad input gives a documented exit code, one line on
// stderr naming the file, and no output file; good input gives the same bytes at any --jobs;
// the Poppler and OCR modules are loaded only by the runs that use them.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

const std::string kBooks = std::string(QUIRE_SOURCE_DIR) + "/fixtures/books/";
const std::string kRIntro = "/usr/share/R/doc/manual/R-intro.pdf";

struct Result {
  int code = -1;  // exit code; -1 when killed by a signal (a crash)
  std::string out, err;
};

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct TempDir {
  fs::path path;
  TempDir() {
    std::string t = (fs::temp_directory_path() / "quire-extract-XXXXXX").string();
    path = mkdtemp(t.data());
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

Result quire(const std::string& args, const fs::path& dir) {
  Result r;
  const fs::path out = dir / "stdout.txt", err = dir / "stderr.txt";
  int status = std::system((std::string(QUIRE_BINARY) + " " + args + " >" + quote(out) + " 2>" + quote(err)).c_str());
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  fs::remove(out);
  fs::remove(err);
  return r;
}

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) out.push_back(l);
  return out;
}

void write(const fs::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary) << bytes;
}

// A failure: the expected code, one stderr line naming the file, and no output file left.
void expect_failure(const Result& r, int code, const std::string& file, const fs::path& output) {
  EXPECT_EQ(r.code, code) << r.err;
  auto l = lines(r.err);
  ASSERT_EQ(l.size(), 1u) << r.err;
  EXPECT_NE(l[0].find(file), std::string::npos) << l[0];
  EXPECT_FALSE(fs::exists(output)) << "partial output left behind";
  for (const auto& e : fs::directory_iterator(output.parent_path()))
    EXPECT_EQ(e.path().filename().string().find("pages.jsonl"), std::string::npos) << e.path();
}

TEST(ExtractCli, MissingFileIsExit5) {
  TempDir t;
  const fs::path out = t.path / "pages.jsonl";
  Result r = quire("extract " + quote((t.path / "absent.pdf").string()) + " -o " + quote(out), t.path);
  expect_failure(r, 5, "absent.pdf", out);
}

TEST(ExtractCli, NotAPdfIsExit6) {
  TempDir t;
  const fs::path out = t.path / "pages.jsonl";
  const fs::path html = t.path / "page.pdf";
  write(html, "<!DOCTYPE html>\n<html><body>Not found</body></html>\n");
  expect_failure(quire("extract " + quote(html) + " -o " + quote(out), t.path), 6, "page.pdf", out);
  const fs::path empty = t.path / "empty.pdf";
  write(empty, "");
  expect_failure(quire("extract " + quote(empty) + " -o " + quote(out), t.path), 6, "empty.pdf", out);
  expect_failure(quire("extract " + quote(empty) + " --engine poppler -o " + quote(out), t.path), 6, "empty.pdf", out);
}

TEST(ExtractCli, TruncatedPdfIsRepairedOrRefusedNeverACrash) {
  TempDir t;
  const std::string whole = slurp(kBooks + "fx-plain.pdf");
  ASSERT_GT(whole.size(), 10000u);
  int repaired = 0;
  // Cuts inside the page content, inside the object streams, and in the trailer.
  for (size_t cut : {whole.size() / 3, whole.size() / 2, whole.size() * 9 / 10, whole.size() - 200, whole.size() - 20}) {
    const std::string name = "cut-" + std::to_string(cut) + ".pdf";
    write(t.path / name, whole.substr(0, cut));
    const fs::path out = t.path / "pages.jsonl";
    Result r = quire("extract " + quote(t.path / name) + " --jobs 2 -o " + quote(out), t.path);
    ASSERT_TRUE(r.code == 0 || r.code == 6) << name << ": exit " << r.code << "\n" << r.err;
    if (r.code == 0) {
      ++repaired;
      EXPECT_NE(r.err.find("warning: " + name), std::string::npos) << name << ": no warning\n" << r.err;
      EXPECT_TRUE(fs::exists(out));
      fs::remove(out);
    } else {
      expect_failure(r, 6, name, out);
    }
  }
  EXPECT_GE(repaired, 1) << "MuPDF repairs a PDF cut in its trailer";
}

TEST(ExtractCli, EncryptedPdfNeedsThePassword) {
  if (std::system("command -v qpdf >/dev/null 2>&1") != 0) GTEST_SKIP() << "qpdf is not installed (Debian package qpdf)";
  TempDir t;
  const fs::path locked = t.path / "locked.pdf";
  const std::string make = "qpdf --encrypt secret owner-pw 256 -- " + quote(kBooks + "fx-plain.pdf") + " " + quote(locked);
  ASSERT_EQ(std::system(make.c_str()), 0);
  const fs::path out = t.path / "pages.jsonl";
  for (const char* engine : {"mupdf", "poppler"}) {
    SCOPED_TRACE(engine);
    const std::string base = "extract " + quote(locked) + " --engine " + engine + " -o " + quote(out);
    Result none = quire(base, t.path);
    expect_failure(none, 7, "locked.pdf", out);
    EXPECT_NE(none.err.find("password"), std::string::npos) << none.err;
    expect_failure(quire(base + " --password wrong", t.path), 7, "locked.pdf", out);
    Result ok = quire(base + " --password secret", t.path);
    EXPECT_EQ(ok.code, 0) << ok.err;
    ASSERT_TRUE(fs::exists(out));
    EXPECT_NE(slurp(out).find("Backup Rotation"), std::string::npos);
    fs::remove(out);
  }
}

TEST(ExtractCli, PageRangeOutOfBoundsIsExit8) {
  TempDir t;
  const fs::path out = t.path / "pages.jsonl";
  for (const char* engine : {"mupdf", "poppler"}) {
    Result r = quire("extract " + quote(kBooks + "fx-plain.pdf") + " --engine " + engine + " --pages 5-60 -o " + quote(out),
                  t.path);
    expect_failure(r, 8, "fx-plain.pdf", out);
    EXPECT_NE(r.err.find("6 pages"), std::string::npos) << r.err;
  }
}

// --jobs 1 and --jobs 2 give the same bytes, for both engines.
void expect_same_bytes_at_any_jobs(const std::string& pdf, const std::string& pages) {
  TempDir t;
  for (const char* engine : {"mupdf", "poppler"}) {
    std::string outputs[2];
    for (int jobs : {1, 2}) {
      const fs::path out = t.path / ("pages-" + std::to_string(jobs) + ".jsonl");
      Result r = quire("extract " + quote(pdf) + " --engine " + engine + " --ocr never --jobs " + std::to_string(jobs) +
                        pages + " -o " + quote(out),
                    t.path);
      ASSERT_EQ(r.code, 0) << r.err;
      outputs[jobs - 1] = slurp(out);
    }
    EXPECT_GT(outputs[0].size(), 1000u) << engine;
    EXPECT_TRUE(outputs[0] == outputs[1]) << engine << ": --jobs 1 and --jobs 2 differ";
  }
}

TEST(ExtractCli, SameBytesAtAnyJobCountFixture) { expect_same_bytes_at_any_jobs(kBooks + "fx-classic.pdf", ""); }

TEST(ExtractCli, SameBytesAtAnyJobCountRIntro) {
  if (!fs::exists(kRIntro)) GTEST_SKIP() << kRIntro << " is absent (Debian package r-doc-pdf)";
  expect_same_bytes_at_any_jobs(kRIntro, "");
}

TEST(ExtractCli, CrossCheckReportAndSummary) {
  TempDir t;
  const fs::path report = t.path / "report.json";
  Result r = quire("extract " + quote(kBooks + "fx-plain.pdf") + " --cross-check --report " + quote(report), t.path);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("6 pages compared, 0 where MuPDF and Poppler disagree"), std::string::npos) << r.err;
  const std::string json = slurp(report);
  EXPECT_NE(json.find("\"pages_compared\": 6"), std::string::npos) << json;
  EXPECT_NE(json.find("\"disagreements\": []"), std::string::npos) << json;
}

// Poppler and Tesseract are modules (extract/src/modules.h): a run that reads text layers
// with MuPDF maps neither; the Poppler engine and a scanned page load each their own. The
// dynamic loader's account of the files a run opened is LD_DEBUG=files, on stderr.
TEST(ExtractCli, EngineModulesAreLoadedOnlyByTheRunsThatUseThem) {
  TempDir t;
  auto loaded = [&](const std::string& pdf, const std::string& options) {
    Result r = quire("extract " + quote(kBooks + pdf) + options + " -o " + quote(t.path / "pages.jsonl"), t.path);
    EXPECT_EQ(r.code, 0) << r.err.substr(0, 2000);
    // The loader did report (else the absences checked below would prove nothing).
    EXPECT_NE(r.err.find("libc.so"), std::string::npos) << r.err.substr(0, 2000);
    return r.err;
  };
  setenv("LD_DEBUG", "files", 1);
  const std::string mupdf = loaded("fx-classic.pdf", "");
  const std::string poppler = loaded("fx-classic.pdf", " --engine poppler");
  const std::string scanned = loaded("fx-classic-scan.pdf", " --pages 1-2");
  unsetenv("LD_DEBUG");
  for (const char* lib : {"quire-poppler.so", "libpoppler", "quire-ocr.so", "libtesseract"})
    EXPECT_EQ(mupdf.find(lib), std::string::npos) << lib;
  EXPECT_NE(poppler.find("quire-poppler.so"), std::string::npos);
  EXPECT_NE(poppler.find("libpoppler"), std::string::npos);
  EXPECT_EQ(poppler.find("libtesseract"), std::string::npos);
  EXPECT_NE(scanned.find("quire-ocr.so"), std::string::npos);
  EXPECT_NE(scanned.find("libtesseract"), std::string::npos);
  EXPECT_EQ(scanned.find("libpoppler"), std::string::npos);
}

}  // namespace
