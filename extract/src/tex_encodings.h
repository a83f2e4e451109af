// TeX's font encodings, for Type 3 fonts that carry no Unicode of their own.
//
// pdfTeX embeds a font that has only METAFONT bitmaps (the EC fonts of `\usepackage[T1]
// {fontenc}` where no Type 1 version is installed, TS1's textcomp symbols beside them) as a
// Type 3 font whose glyphs are named /a0 ... /a255 after their codes, with no ToUnicode map.
// MuPDF reads such a glyph as the Unicode character of its code. That is right for letters
// and digits, which sit at their ASCII places, and wrong for what TeX keeps elsewhere:
// ligatures (T1 0x1C "fi"), dashes and quotes (0x15, 0x16, 0x10, 0x11), the hyphen TeX adds
// at a line's end (T1 0x7F), the bullet (TS1 0x88). Those come out as control characters,
// which no text holds; here they are read back in the font's encoding.
#pragma once

#include <string_view>

namespace quire::detail {

enum class TexEncoding { T1, OT1, TS1, Unknown };

// A Unicode control character: C0, DEL or C1. No font maps a glyph to one on purpose.
inline bool is_control_character(char32_t c) { return c < 0x20 || (c >= 0x7F && c <= 0x9F); }

// What one Type 3 font's glyphs on a page say about its encoding.
struct TexGlyphUse {
  int letters = 0;        // ASCII letters, at the same places in T1 and OT1
  int ot1_ligatures = 0;  // codes 0x0B-0x0F: OT1's ff fi fl ffi ffl (T1's accents, seldom alone)
  int t1_ligatures = 0;   // codes 0x1B-0x1F: T1's ff fi fl ffi ffl (OT1's æ œ ø Æ Œ Ø)
  int other_controls = 0; // other codes under 0x20, and 0x7F
  void add(char32_t c);
};

// The encoding the use points to: for a font of letters, OT1 where its ligatures outnumber
// T1's, else T1; for a font without letters, TS1 (textcomp's symbols) where it has only codes
// of TS1's symbols at 0x80-0x9F; Unknown otherwise (a font of METAFONT pictures or patterns,
// whose codes are no text in any encoding).
TexEncoding guess_tex_encoding(const TexGlyphUse& use);

// The text of the glyph at `code` in `encoding`, for a code that was read as a control
// character; empty where the encoding has no character there to give (a compound word mark,
// an unused place). Not for Unknown.
std::u32string_view tex_glyph_text(TexEncoding encoding, char32_t code);

}  // namespace quire::detail
