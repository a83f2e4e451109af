#include "tex_encodings.h"

#include <array>

namespace quire::detail {

namespace {

using Table = std::array<std::u32string_view, 32>;

// Codes 0x00-0x0A of T1 and TS1: accents, set alone where TeX composes no letter.
constexpr std::u32string_view kAccents[11] = {U"\u0060", U"\u00B4", U"\u02C6", U"\u02DC", U"\u00A8", U"\u02DD",
                                              U"\u02DA", U"\u02C7", U"\u02D8", U"\u00AF", U"\u02D9"};

// T1 (Cork) 0x0B-0x1F, from t1enc.def; 0x17 is the compound word mark, which has no width
// and no character; 0x18 the small zero of "%0", TeX's per-mille sign.
constexpr Table kT1Low = {U"", U"", U"", U"", U"", U"", U"", U"", U"", U"", U"",  // accents
                          U"\u00B8", U"\u02DB", U"\u201A", U"\u2039", U"\u203A", U"\u201C", U"\u201D",
                          U"\u201E", U"\u00AB", U"\u00BB", U"\u2013", U"\u2014", U"", U"0", U"\u0131",
                          U"\u0237", U"ff", U"fi", U"fl", U"ffi", U"ffl"};
// T1 0x80-0x9F: the accented capitals of Central European languages, then IJ, İ, đ, §.
constexpr Table kT1High = {U"\u0102", U"\u0104", U"\u0106", U"\u010C", U"\u010E", U"\u011A", U"\u0118", U"\u011E",
                           U"\u0139", U"\u013D", U"\u0141", U"\u0143", U"\u0147", U"\u014A", U"\u0150", U"\u0154",
                           U"\u0158", U"\u015A", U"\u0160", U"\u015E", U"\u0164", U"\u0162", U"\u0170", U"\u016E",
                           U"\u0178", U"\u0179", U"\u017D", U"\u017B", U"\u0132", U"\u0130", U"\u0111", U"\u00A7"};
// OT1 (TeX's own text encoding) 0x00-0x1F: Greek capitals, the ligatures, dotless i and j,
// accents, ß æ œ ø Æ Œ Ø.
constexpr Table kOT1Low = {U"\u0393", U"\u0394", U"\u0398", U"\u039B", U"\u039E", U"\u03A0", U"\u03A3", U"\u03A5",
                           U"\u03A6", U"\u03A8", U"\u03A9", U"ff",     U"fi",     U"fl",     U"ffi",    U"ffl",
                           U"\u0131", U"\u0237", U"\u0060", U"\u00B4", U"\u02C7", U"\u02D8", U"\u00AF", U"\u02DA",
                           U"\u00B8", U"\u00DF", U"\u00E6", U"\u0153", U"\u00F8", U"\u00C6", U"\u0152", U"\u00D8"};
// TS1 (textcomp) 0x0B-0x1F, from ts1enc.def: straight base quotes, dashes, arrows, ties,
// and two more compound word marks.
constexpr Table kTS1Low = {U"", U"", U"", U"", U"", U"", U"", U"", U"", U"", U"",  // accents
                           U"",  U"",  U"\u201A", U"", U"", U"", U"", U"\u201E", U"", U"", U"\u2013", U"\u2014",
                           U"",  U"\u2190", U"\u2192", U"\u2040", U"\u2040", U"\u2040", U"\u2040", U"", U""};
// TS1 0x80-0x9F.
constexpr Table kTS1High = {U"\u02D8", U"\u02C7", U"\u02DD", U"\u02F5", U"\u2020", U"\u2021", U"\u2016", U"\u2030",
                            U"\u2022", U"\u2103", U"$",      U"\u00A2", U"\u0192", U"\u20A1", U"\u20A9", U"\u20A6",
                            U"\u20B2", U"\u20B1", U"\u20A4", U"\u211E", U"\u203D", U"\u2E18", U"\u20AB", U"\u2122",
                            U"\u2031", U"\u00B6", U"\u0E3F", U"\u2116", U"\u2052", U"\u212E", U"\u25E6", U"\u2120"};

}  // namespace

void TexGlyphUse::add(char32_t c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) ++letters;
  else if (c >= 0x0B && c <= 0x0F) ++ot1_ligatures;
  else if (c >= 0x1B && c <= 0x1F) ++t1_ligatures;
  else if (c < 0x20 || c == 0x7F) ++other_controls;
}

TexEncoding guess_tex_encoding(const TexGlyphUse& use) {
  if (use.letters > 0) return use.ot1_ligatures > use.t1_ligatures ? TexEncoding::OT1 : TexEncoding::T1;
  if (use.ot1_ligatures + use.t1_ligatures + use.other_controls == 0) return TexEncoding::TS1;
  return TexEncoding::Unknown;
}

std::u32string_view tex_glyph_text(TexEncoding encoding, char32_t code) {
  const bool low = code < 0x20, high = code >= 0x80 && code <= 0x9F;
  switch (encoding) {
    case TexEncoding::T1:
      if (code <= 0x0A) return kAccents[code];
      if (low) return kT1Low[code];
      if (code == 0x7F) return U"-";  // the hyphen TeX sets where it breaks a word (\hyphenchar 127)
      if (high) return kT1High[code - 0x80];
      break;
    case TexEncoding::OT1:
      if (low) return kOT1Low[code];
      if (code == 0x7F) return U"\u00A8";
      break;  // OT1 has 128 codes
    case TexEncoding::TS1:
      if (code <= 0x0A) return kAccents[code];
      if (low) return kTS1Low[code];
      if (code == 0x7F) return U"-";  // the double hyphen TS1 offers as a line-end hyphen
      if (high) return kTS1High[code - 0x80];
      break;
    case TexEncoding::Unknown:
      break;
  }
  return {};
}

}  // namespace quire::detail
