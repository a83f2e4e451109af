// clean at any thread count: the cleaned pages and the removal log are the same at --jobs 1,
// 2 and 4, on the fixture books (always present) and on R manuals when installed.
#include <gtest/gtest.h>

#include <filesystem>

#include "quire/clean.h"
#include "quire/extract.h"

namespace quire::test {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> thread_books() {
  std::string fixtures = std::string(QUIRE_SOURCE_DIR) + "/fixtures/books/";
  return {fixtures + "fx-classic.pdf", fixtures + "fx-plain.pdf", "/usr/share/R/doc/manual/R-intro.pdf",
          "/usr/share/R/doc/manual/R-exts.pdf"};
}

class CleanThreads : public ::testing::TestWithParam<std::string> {};

TEST_P(CleanThreads, SameResultAtAnyJobCount) {
  const std::string& pdf = GetParam();
  if (!fs::exists(pdf)) GTEST_SKIP() << pdf << " not installed";
  const Document extracted = extract_document(pdf, {});
  Document serial = extracted;
  const CleanResult expected = clean_document(serial, {});
  ASSERT_FALSE(expected.removed.empty()) << "a book with furniture, so that the passes have work";
  for (int jobs : {2, 4}) {
    SCOPED_TRACE("jobs " + std::to_string(jobs));
    Document doc = extracted;
    CleanOptions options;
    options.jobs = jobs;
    const CleanResult r = clean_document(doc, options);
    EXPECT_TRUE(doc == serial) << "cleaned pages differ from the serial run";
    ASSERT_EQ(r.removed.size(), expected.removed.size());
    for (size_t i = 0; i < r.removed.size(); ++i) EXPECT_EQ(r.removed[i], expected.removed[i]) << "removal " << i;
    EXPECT_EQ(r.warnings, expected.warnings);
  }
}

INSTANTIATE_TEST_SUITE_P(Books, CleanThreads, ::testing::ValuesIn(thread_books()), [](const auto& info) {
  std::string name = fs::path(info.param).stem().string();
  for (auto& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
});

}  // namespace
}  // namespace quire::test
