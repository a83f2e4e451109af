// TeX's fonts that MuPDF cannot read as text by itself.
// - Bitmap fonts (Type 3, glyphs named /a<code>, no ToUnicode map) as pdfTeX embeds them where
//   a font has no Type 1 version: their ligatures, quotes, dashes, line-end hyphens and
//   textcomp's bullet are read in TeX's encodings, not as the control characters of their
//   codes. A Type 3 font whose own ToUnicode map gives a control character is left as it says.
// - The picture environment's fonts (LINE10, LCIRCLE10...): their glyphs are drawing, kept as
//   filled paths, not text.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "helpers.h"

namespace quire {
namespace {

// A Type 3 font named `name` whose glyphs, each a filled box, sit at `codes` and are named
// /a<code>, with `extra` added to the font's dictionary.
std::string type3_font(const std::string& name, const std::vector<int>& codes, const std::string& procs_ref,
                       const std::string& extra = "") {
  std::string differences, widths;
  const int first = codes.front(), last = codes.back();
  for (int c : codes) differences += std::to_string(c) + " /a" + std::to_string(c) + " ";
  for (int c = first; c <= last; ++c) widths += "500 ";
  return "<< /Type /Font /Subtype /Type3 /Name /" + name +
         " /FontBBox [0 0 500 700] /FontMatrix [0.001 0 0 0.001 0 0] /Resources << >> /FirstChar " +
         std::to_string(first) + " /LastChar " + std::to_string(last) + " /Widths [" + widths +
         "] /Encoding << /Type /Encoding /Differences [" + differences + "] >> /CharProcs " + procs_ref + extra + " >>";
}

// The CharProcs dictionary naming one shared glyph procedure (object `glyph`) for each code.
std::string char_procs(const std::vector<int>& codes, int glyph) {
  std::string d = "<< ";
  for (int c : codes) d += "/a" + std::to_string(c) + " " + std::to_string(glyph) + " 0 R ";
  return d + ">>";
}

// A PDF string of the given bytes, each as an octal escape.
std::string pdf_string(const std::vector<int>& bytes) {
  std::string s = "(";
  char buf[8];
  for (int b : bytes) {
    std::snprintf(buf, sizeof buf, "\\%03o", b);
    s += buf;
  }
  return s + ")";
}

std::vector<int> bytes_of(const std::string& ascii) { return std::vector<int>(ascii.begin(), ascii.end()); }

std::vector<int> operator+(std::vector<int> a, const std::vector<int>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// The distinct codes of `bytes`, in order: a font's glyphs.
std::vector<int> codes_of(std::vector<int> bytes) {
  std::sort(bytes.begin(), bytes.end());
  bytes.erase(std::unique(bytes.begin(), bytes.end()), bytes.end());
  return bytes;
}

std::string page_text(const Document& doc) {
  std::string all;
  for (const auto& l : doc.pages.at(0).lines) {
    for (const auto& s : l.spans) all += s.text;
    all += "\n";
  }
  return all;
}

TEST(TexBitmapFonts, GlyphsAreReadInTexEncodings) {
  // F1: a T1 (EC) text font: "Modi" fi "ed" | “quoted” – "exam" line-end hyphen.
  // F2: an OT1 text font: "e" ff "ect" ("effect", OT1's ff at 0x0B).
  // F3: a TS1 font of symbols: the bullet (0x88) and the trademark sign (0x97).
  // F4: a T1-looking font with a ToUnicode map that gives 0x0D for "c": left as mapped.
  // F5: a font of METAFONT pictures (no letters, low codes): no encoding reads it.
  const std::vector<int> t1 = bytes_of("Modi") + std::vector<int>{0x1C} + bytes_of("ed ") + std::vector<int>{0x10} +
                              bytes_of("quoted") + std::vector<int>{0x11, 0x20, 0x15, 0x20} + bytes_of("exam") +
                              std::vector<int>{0x7F};
  const std::vector<int> ot1 = bytes_of("e") + std::vector<int>{0x0B} + bytes_of("ect");
  const std::vector<int> ts1 = {0x88, 0x97};
  const std::vector<int> mapped = bytes_of("sour") + std::vector<int>{'c'} + bytes_of("e");
  const std::vector<int> pictures = {0x0C, 0x0C, 0x1C, 0x0E};
  const std::string ops = "BT /F1 12 Tf 72 700 Td " + pdf_string(t1) + " Tj ET BT /F2 12 Tf 72 660 Td " + pdf_string(ot1) +
                          " Tj ET BT /F3 12 Tf 72 620 Td " + pdf_string(ts1) + " Tj ET BT /F4 12 Tf 72 580 Td " +
                          pdf_string(mapped) + " Tj ET BT /F5 12 Tf 72 540 Td " + pdf_string(pictures) + " Tj ET";
  const std::string tounicode = "/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapType 2 def "
                                "1 begincodespacerange <00> <ff> endcodespacerange 1 beginbfchar <63> <000d> endbfchar "
                                "endcmap CMapName currentdict /CMap defineresource pop end end";
  const std::vector<std::string> objects = {
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R "
      "/F2 6 0 R /F3 7 0 R /F4 8 0 R /F5 15 0 R >> >> >>",
      test::stream_object(ops),
      type3_font("F1", codes_of(t1), "10 0 R"),
      type3_font("F2", codes_of(ot1), "11 0 R"),
      type3_font("F3", codes_of(ts1), "12 0 R"),
      type3_font("F4", codes_of(mapped), "13 0 R", " /ToUnicode 14 0 R"),
      test::stream_object("500 0 0 0 400 600 d1 50 0 400 600 re f"),  // 9: the glyph
      char_procs(codes_of(t1), 9),
      char_procs(codes_of(ot1), 9),
      char_procs(codes_of(ts1), 9),
      char_procs(codes_of(mapped), 9),
      test::stream_object(tounicode),
      type3_font("F5", codes_of(pictures), "16 0 R"),
      char_procs(codes_of(pictures), 9),
  };
  const Document doc = test::extract_objects(objects, "quire-tex-fonts");
  ASSERT_EQ(doc.pages.size(), 1u);
  const std::string text = page_text(doc);
  EXPECT_NE(text.find("Modified \u201Cquoted\u201D \u2013 exam-"), std::string::npos) << text;
  EXPECT_NE(text.find("effect"), std::string::npos) << text;
  EXPECT_NE(text.find("\u2022\u2122"), std::string::npos) << text;
  EXPECT_NE(text.find("sour\re"), std::string::npos) << text;  // its own map's word, unread
  EXPECT_NE(text.find("\x0C\x0C\x1C\x0E"), std::string::npos) << text;
  // A ligature's letters share its width: one position per character, in order.
  for (const auto& l : doc.pages[0].lines)
    for (const auto& s : l.spans) {
      size_t chars = 0;
      for (unsigned char c : s.text) chars += (c & 0xC0) != 0x80;
      EXPECT_EQ(s.xs.size(), chars) << s.text;
      EXPECT_TRUE(std::is_sorted(s.xs.begin(), s.xs.end())) << s.text;
    }
}

TEST(TexPictureFonts, GlyphsAreDrawingNotText) {
  // A slanted line's piece of LINE10 ("@", 600 units high at 12 pt: 7.2 pt) beside a word.
  const std::vector<int> piece = {'@'}, word = bytes_of("Flow");
  const std::string ops = "BT /F1 12 Tf 100 700 Td " + pdf_string(piece) + " Tj ET BT /F2 12 Tf 200 700 Td " +
                          pdf_string(word) + " Tj ET";
  const std::vector<std::string> objects = {
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R "
      "/F2 6 0 R >> >> >>",
      test::stream_object(ops),
      type3_font("LINE10", codes_of(piece), "8 0 R"),
      type3_font("F2", codes_of(word), "9 0 R"),
      test::stream_object("500 0 0 0 400 600 d1 50 0 400 600 re f"),  // 7: the glyph
      char_procs(codes_of(piece), 7),
      char_procs(codes_of(word), 7),
  };
  const Document doc = test::extract_objects(objects, "quire-tex-fonts");
  ASSERT_EQ(doc.pages.size(), 1u);
  EXPECT_EQ(page_text(doc), "Flow\n");
  const auto& paths = doc.pages[0].paths;
  ASSERT_EQ(paths.size(), 1u);
  EXPECT_TRUE(paths[0].fill);
  // The glyph's box: x from 100 to 104.8, from the baseline (792 - 700) up 7.2 pt.
  EXPECT_NEAR(paths[0].bbox.x0, 100, 1.0);
  EXPECT_NEAR(paths[0].bbox.x1, 104.8, 1.0);
  EXPECT_NEAR(paths[0].bbox.y0, 84.8, 1.0);
  EXPECT_NEAR(paths[0].bbox.y1, 92, 1.0);
}

}  // namespace
}  // namespace quire
