// export/'s own helpers: escaping for the site's pages, and reading the files a build wrote.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include <unistd.h>

#include "quire/error.h"
#include "util.h"

namespace quire::exporting {
namespace {

namespace fs = std::filesystem;

// The escaping rule one character at a time, as the site's pages need it.
std::string escaped_char_by_char(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '"') out += "&quot;";
    else if (c == '\'') out += "&#39;";
    else if (c == '\0') out += "\xEF\xBF\xBD";
    else out += c;
  }
  return out;
}

TEST(ExportUtil, HtmlEscapeReplacesEachSpecialCharacterAndKeepsTheRest) {
  EXPECT_EQ(html_escape(""), "");
  EXPECT_EQ(html_escape("plain words"), "plain words");
  EXPECT_EQ(html_escape("<a href=\"x\">Tom & Jerry's</a>"),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;");
  EXPECT_EQ(html_escape(std::string_view("a\0b", 3)), "a\xEF\xBF\xBD" "b");
  EXPECT_EQ(html_escape("&&"), "&amp;&amp;");
  EXPECT_EQ(html_escape("caf\xC3\xA9 <\xE2\x86\x92>"), "caf\xC3\xA9 &lt;\xE2\x86\x92&gt;");
  // Specials at the start, the end, side by side and alone, among runs of every length.
  std::mt19937 random(7);
  const std::string alphabet = std::string("ab \xC3\xA9<>&\"'") + '\0';
  for (int round = 0; round < 2000; ++round) {
    std::string s(random() % 40, ' ');
    for (char& c : s) c = alphabet[random() % alphabet.size()];
    ASSERT_EQ(html_escape(s), escaped_char_by_char(s)) << round;
  }
}

TEST(ExportUtil, ReadFileGivesEveryByteOfTheFile) {
  const fs::path dir = fs::temp_directory_path() / ("quire-read-file-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto written = [&](const std::string& name, const std::string& bytes) {
    std::ofstream(dir / name, std::ios::binary) << bytes;
    return (dir / name).string();
  };
  EXPECT_EQ(read_file(written("empty", "")), "");
  EXPECT_EQ(read_file(written("small", "{\"a\": 1}\n")), "{\"a\": 1}\n");
  // Larger than any stream buffer, with NUL and high bytes in it.
  std::mt19937 random(11);
  std::string big(3 * 1024 * 1024 + 17, '\0');
  for (char& c : big) c = static_cast<char>(random() & 0xFF);
  EXPECT_EQ(read_file(written("big", big)), big);
  EXPECT_THROW(read_file((dir / "missing").string()), Error);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace quire::exporting
