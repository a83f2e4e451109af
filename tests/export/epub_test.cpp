// The EPUBs of `quire build --epub`: the same bytes at every run and thread count, a zip
// whose form EPUB asks for, text escaped for XML. epubcheck itself runs in epubcheck.sh.
#include <gtest/gtest.h>

#include <zlib.h>

#include <cstdint>
#include <map>

#include "helpers.h"

namespace quire {
namespace {

namespace fs = std::filesystem;
using test::read;

uint32_t get16(const std::string& s, size_t at) {
  return static_cast<uint32_t>(static_cast<unsigned char>(s[at])) |
         static_cast<uint32_t>(static_cast<unsigned char>(s[at + 1])) << 8;
}
uint32_t get32(const std::string& s, size_t at) { return get16(s, at) | get16(s, at + 2) << 16; }

struct ZipEntry {
  std::string name;
  uint32_t method = 0, time = 0, date = 0, extra = 0;
  std::string data;  // inflated
};

// The local entries of an archive, in order, read the way a reading system reads them.
std::vector<ZipEntry> entries(const std::string& zip) {
  std::vector<ZipEntry> out;
  size_t at = 0;
  while (at + 30 <= zip.size() && get32(zip, at) == 0x04034b50) {
    ZipEntry e;
    e.method = get16(zip, at + 8);
    e.time = get16(zip, at + 10);
    e.date = get16(zip, at + 12);
    const uint32_t packed = get32(zip, at + 18), size = get32(zip, at + 22);
    const uint32_t name_len = get16(zip, at + 26);
    e.extra = get16(zip, at + 28);
    e.name = zip.substr(at + 30, name_len);
    const std::string body = zip.substr(at + 30 + name_len + e.extra, packed);
    if (e.method == 0) {
      e.data = body;
    } else {
      e.data.assign(size, '\0');
      z_stream z{};
      inflateInit2(&z, -15);
      z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(body.data()));
      z.avail_in = static_cast<uInt>(body.size());
      z.next_out = reinterpret_cast<Bytef*>(e.data.data());
      z.avail_out = static_cast<uInt>(e.data.size());
      EXPECT_EQ(inflate(&z, Z_FINISH), Z_STREAM_END) << e.name;
      inflateEnd(&z);
    }
    EXPECT_EQ(static_cast<uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(e.data.data()),
                                          static_cast<uInt>(e.data.size()))),
              get32(zip, at + 14))
        << e.name;
    at += 30 + name_len + e.extra + packed;
    out.push_back(std::move(e));
  }
  EXPECT_EQ(get32(zip, at), 0x02014b50u) << "the central directory follows the entries";
  return out;
}

std::map<std::string, std::string> epubs_of(std::vector<Book> books, const std::string& name, int jobs) {
  test::TempDir out(name);
  std::vector<std::string> ids;
  for (auto& b : books) {
    export_book(b, out.str(), test::png_renderer());
    ids.push_back(b.id);
  }
  ExportOptions o;
  o.epub = true;
  o.jobs = jobs;
  export_index(out.str(), ids, nullptr, o);
  std::map<std::string, std::string> files;
  for (const auto& e : fs::directory_iterator(out.path / "epub")) files[e.path().filename().string()] = read(e.path());
  return files;
}

TEST(Epub, TheSameBytesAtEveryRunAndThreadCount) {
  const std::vector<Book> books = {test::sample_book("ringlog"), test::sample_book("second")};
  const auto one = epubs_of(books, "epub-jobs1", 1);
  ASSERT_EQ(one.size(), 3u);
  EXPECT_TRUE(one.count("ringlog.epub"));
  EXPECT_TRUE(one.count("second.epub"));
  EXPECT_TRUE(one.count("map.epub"));
  EXPECT_EQ(epubs_of(books, "epub-jobs1-again", 1), one);
  EXPECT_EQ(epubs_of(books, "epub-jobs3", 3), one);
}

TEST(Epub, TheMimetypeComesFirstStoredAndNoEntryCarriesATimeOrExtraField) {
  const auto files = epubs_of({test::sample_book()}, "epub-zip", 1);
  for (const auto& [name, bytes] : files) {
    const auto list = entries(bytes);
    ASSERT_GE(list.size(), 4u) << name;
    EXPECT_EQ(list[0].name, "mimetype") << name;
    EXPECT_EQ(list[0].method, 0u) << name;
    EXPECT_EQ(list[0].data, "application/epub+zip") << name;
    EXPECT_EQ(list[1].name, "META-INF/container.xml") << name;
    for (const auto& e : list) {
      EXPECT_EQ(e.extra, 0u) << name << ": " << e.name;
      EXPECT_EQ(e.time, 0u) << name << ": " << e.name;
      EXPECT_EQ(e.date, (1u << 5) | 1u) << name << ": " << e.name << " is dated 1980-01-01";
    }
  }
}

TEST(Epub, ChaptersFiguresAndNavigationAreInTheBook) {
  const auto files = epubs_of({test::sample_book()}, "epub-parts", 1);
  std::map<std::string, std::string> parts;
  for (auto& e : entries(files.at("ringlog.epub"))) parts[e.name] = e.data;
  ASSERT_TRUE(parts.count("EPUB/package.opf"));
  ASSERT_TRUE(parts.count("EPUB/nav.xhtml"));
  ASSERT_TRUE(parts.count("EPUB/text/ringlog/02-getting-started.xhtml"));
  const std::string& chapter = parts["EPUB/text/ringlog/02-getting-started.xhtml"];
  EXPECT_NE(chapter.find("<img src=\"../../images/ringlog/"), std::string::npos) << chapter;
  EXPECT_NE(chapter.find("<pre"), std::string::npos) << chapter;
  bool image = false;
  for (const auto& [name, data] : parts) image |= name.rfind("EPUB/images/ringlog/", 0) == 0;
  EXPECT_TRUE(image);
  EXPECT_NE(parts["EPUB/nav.xhtml"].find("href=\"text/ringlog/02-getting-started.xhtml\""), std::string::npos);
  EXPECT_NE(parts["EPUB/package.opf"].find("<dc:title>"), std::string::npos);
  EXPECT_NE(parts["EPUB/package.opf"].find("properties=\"nav\""), std::string::npos);
}

TEST(Epub, TextIsEscapedForXmlAndControlsAreReplaced) {
  Book book = test::sample_book();
  book.chapters[1].blocks.push_back(test::block(BlockType::Paragraph, "a <b> & \"c\" \f end", 7));
  const auto files = epubs_of({book}, "epub-escape", 1);
  std::string chapter;
  for (auto& e : entries(files.at("ringlog.epub")))
    if (e.name == "EPUB/text/ringlog/02-getting-started.xhtml") chapter = e.data;
  EXPECT_NE(chapter.find("a &lt;b&gt; &amp; &quot;c&quot; \xEF\xBF\xBD end"), std::string::npos) << chapter;
  EXPECT_EQ(chapter.find('\f'), std::string::npos);
}

TEST(Epub, ABookCalledMapLeavesTheMapItsOwnFile) {
  const auto files = epubs_of({test::sample_book("map")}, "epub-map-id", 1);
  EXPECT_TRUE(files.count("map.epub"));
  EXPECT_TRUE(files.count("learning-map.epub"));
}

}  // namespace
}  // namespace quire
