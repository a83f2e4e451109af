// The OCR module, quire-ocr.so: Tesseract's C++ API behind OcrReader (ocr.h). Loaded by
// ocr.cpp the first time a page needs OCR, so that Tesseract's libraries are mapped only
// in the processes that use them.
//
// Only header code of the model is used here (Box and the Ocr* value types): the module
// links Tesseract and nothing of quire's, and no exception leaves it.
#include <memory>
#include <new>
#include <string>

#include <allheaders.h>
#include <tesseract/baseapi.h>
#include <tesseract/resultiterator.h>

#include "ocr.h"

namespace quire::detail {

namespace {

// Height from the top of ascenders to the bottom of descenders, in ems, in common Latin
// text faces (Latin Modern 0.88, Times 0.90, Helvetica 0.93): turns Tesseract's row
// measures into a font size.
constexpr double kAscenderDescenderEm = 0.9;

std::string take_text(char* s) {
  std::string r = s ? s : "";
  delete[] s;
  return r;
}

// Reads Tesseract's result: blocks, lines, words and symbols, boxes converted to points.
Recognised read_result(tesseract::TessBaseAPI& api, double ox, double oy, double scale) {
  Recognised r;
  std::unique_ptr<tesseract::ResultIterator> it(api.GetIterator());
  if (!it) return r;
  auto box_at = [&](tesseract::PageIteratorLevel level, Box& b) {
    int l, t, rr, bt;
    if (!it->BoundingBox(level, &l, &t, &rr, &bt)) return false;
    b = {(l + ox) / scale, (t + oy) / scale, (rr + ox) / scale, (bt + oy) / scale};
    return true;
  };
  int block = -1;
  bool text_block = false;
  it->Begin();
  do {
    if (it->IsAtBeginningOf(tesseract::RIL_BLOCK)) {
      ++block;
      tesseract::PolyBlockType type = it->BlockType();
      text_block = PTIsTextType(type);
      Box b;
      if (!text_block && box_at(tesseract::RIL_BLOCK, b)) {
        if (PTIsImageType(type)) r.pictures.push_back(b);
        else if (PTIsLineType(type)) r.rules.push_back(b);
      }
    }
    if (!text_block) continue;
    if (it->IsAtBeginningOf(tesseract::RIL_TEXTLINE) || r.lines.empty()) {
      OcrLine line;
      line.block = block;
      box_at(tesseract::RIL_TEXTLINE, line.box);
      int x1, y1, x2, y2;
      if (it->Baseline(tesseract::RIL_TEXTLINE, &x1, &y1, &x2, &y2))
        line.baseline = ((y1 + y2) / 2.0 + oy) / scale;
      else
        line.baseline = line.box.y1;
      float row_height = 0, descenders = 0, ascenders = 0;
      it->RowAttributes(&row_height, &descenders, &ascenders);
      // Tesseract's row height runs from the descender line to the ascender line.
      line.size = row_height / scale / kAscenderDescenderEm;
      r.lines.push_back(std::move(line));
    }
    OcrLine& line = r.lines.back();
    if (it->IsAtBeginningOf(tesseract::RIL_WORD) || line.words.empty()) {
      OcrWord w;
      w.text = take_text(it->GetUTF8Text(tesseract::RIL_WORD));
      w.confidence = it->Confidence(tesseract::RIL_WORD);
      box_at(tesseract::RIL_WORD, w.box);
      line.words.push_back(std::move(w));
    }
    OcrSymbol s;
    s.text = take_text(it->GetUTF8Text(tesseract::RIL_SYMBOL));
    if (!s.text.empty() && box_at(tesseract::RIL_SYMBOL, s.box)) line.words.back().symbols.push_back(std::move(s));
  } while (it->Next(tesseract::RIL_SYMBOL));
  return r;
}

class TesseractReader final : public OcrReader {
 public:
  bool init(const char* tessdata, const char* lang) {
    // Silence Tesseract's diagnostics on stderr; problems reach us as return values.
    api_.SetVariable("debug_file", "/dev/null");
    if (api_.Init(tessdata, lang, tesseract::OEM_LSTM_ONLY) != 0) return false;
    // Whole pages: find the columns and blocks (the API's default reads one block).
    api_.SetPageSegMode(tesseract::PSM_AUTO);
    return true;
  }

  bool read(const unsigned char* gray, int width, int height, int stride, int dpi, double ox, double oy,
            double scale, Recognised& out, const unsigned char* shades) override {
    try {
      api_.SetImage(gray, width, height, 1, stride);
      api_.SetSourceResolution(dpi);
      // Tesseract finds the layout in its thresholding of the image it was given, and
      // recognises the characters of each line from the "input image", which is that image
      // unless replaced (by one of the same size).
      if (shades) {
        Pix* pix = pixCreate(width, height, 8);
        if (!pix) throw std::bad_alloc();
        pixSetResolution(pix, dpi, dpi);
        l_uint32* data = pixGetData(pix);
        const int wpl = pixGetWpl(pix);
        for (int y = 0; y < height; ++y) {
          l_uint32* line = data + static_cast<ptrdiff_t>(y) * wpl;
          const unsigned char* row = shades + static_cast<ptrdiff_t>(y) * width;
          for (int x = 0; x < width; ++x) SET_DATA_BYTE(line, x, row[x]);
        }
        api_.SetInputImage(pix);  // (takes it)
      }
      int rc = api_.Recognize(nullptr);
      if (rc == 0) out = read_result(api_, ox, oy, scale);
      api_.Clear();
      return rc == 0;
    } catch (...) {  // std::bad_alloc from the result's vectors: the page goes unread
      api_.Clear();
      return false;
    }
  }

 private:
  tesseract::TessBaseAPI api_;
};

}  // namespace

}  // namespace quire::detail

extern "C" __attribute__((visibility("default"))) quire::detail::OcrReader* quire_new_ocr_reader(
    const char* tessdata, const char* lang, std::string* error) {
  try {
    auto reader = std::make_unique<quire::detail::TesseractReader>();
    if (!reader->init(tessdata, lang)) {
      *error = std::string("Tesseract could not load language '") + lang + "'";
      return nullptr;
    }
    return reader.release();
  } catch (const std::exception& e) {
    *error = e.what();
    return nullptr;
  }
}
