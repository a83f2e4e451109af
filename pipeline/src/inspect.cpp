// `quire inspect`: a book through the stages of `quire build` (extract -> clean -> layout),
// then each asked-for page rendered with what quire decided drawn over it.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include <unistd.h>

#include "book_io.h"
#include "quire/json.h"
#include "quire/pipeline.h"
#include "quire/text.h"

namespace quire {

namespace fs = std::filesystem;

namespace {

// One colour per kind of mark, picked to be told apart on a white page; furniture is the
// one red, so that what was taken out stands out from what was kept.
struct KindColor {
  const char* kind;
  uint32_t color;
};
constexpr KindColor kColors[] = {
    {"heading", 0x7b1fa2},   {"paragraph", 0x1565c0}, {"code", 0x2e7d32},      {"code-grid", 0x81c784},
    {"list_item", 0x3949ab}, {"caption", 0xef6c00},   {"footnote", 0x6d4c41},  {"table", 0xc2185b},
    {"table-cell", 0xf48fb1}, {"note", 0xf9a825},     {"figure", 0x00838f},    {"furniture", 0xd50000},
    {"excluded", 0x757575},
};

uint32_t color_of(const std::string& kind) {
  for (const auto& k : kColors)
    if (kind == k.kind) return k.color;
  return 0x000000;
}

std::string hex_color(uint32_t c) {
  char s[8];
  std::snprintf(s, sizeof s, "#%06x", static_cast<unsigned>(c & 0xffffff));
  return s;
}

// Labels are drawn in a base-14 font: what it cannot show becomes '?'.
std::string ascii(std::string_view s, size_t max_chars = 40) {
  std::string out;
  for (char32_t cp : to_u32(s)) {
    if (out.size() >= max_chars) {
      out += "...";
      break;
    }
    out.push_back(cp >= 0x20 && cp < 0x7f ? static_cast<char>(cp) : '?');
  }
  return out;
}

// Lines of a code block's text, and the widest in code points: its grid of characters.
std::pair<size_t, size_t> code_grid(const std::string& text) {
  size_t rows = 1, cols = 0, col = 0;
  for (char32_t cp : to_u32(text)) {
    if (cp == U'\n') {
      ++rows;
      col = 0;
    } else {
      cols = std::max(cols, ++col);
    }
  }
  return {rows, cols};
}

void add(std::vector<InspectMark>& marks, std::string kind, int number, const Box& box, std::string reason,
         std::string label) {
  InspectMark m;
  m.color = color_of(kind);
  m.kind = std::move(kind);
  m.number = number;
  m.box = box;
  m.reason = std::move(reason);
  m.label = std::move(label);
  marks.push_back(std::move(m));
}

}  // namespace

std::vector<InspectMark> overlay_marks(const Book& book, const Page& page, const InspectOptions& options) {
  std::vector<InspectMark> marks;
  const int p = page.number;
  for (const auto& e : book.excluded)
    if (p >= e.first_page && p <= e.last_page)
      add(marks, "excluded", 0, Box{0, 0, page.width, page.height}, e.kind, "left out: " + ascii(e.kind));
  // Blocks in reading order, numbered from 1 on each page (a block is drawn on the page it
  // starts on, where its box is).
  int number = 0;
  for (const auto& chapter : book.chapters) {
    for (const auto& b : chapter.blocks) {
      if (b.page != p) continue;
      const std::string kind = to_string(b.type);
      const std::string n = std::to_string(++number);
      std::string label = n + " " + kind;
      std::string reason;
      if (b.type == BlockType::Heading) label += " h" + std::to_string(b.level);
      if (b.last_page > b.page) label += " (to p. " + std::to_string(b.last_page) + ")";
      if (b.type == BlockType::Figure) {
        reason = "crop box";
        if (!b.figure_ref.empty()) label += " " + ascii(b.figure_ref, 20);
        label += ", " + std::to_string(b.labels.size()) + " labels";
      }
      if (b.type == BlockType::Note) {
        reason = b.kind;
        label += " " + ascii(b.kind) + (b.title.empty() ? "" : ": " + ascii(b.title, 24));
      }
      if (b.type == BlockType::Code) {
        auto [rows, cols] = code_grid(b.text);
        label += " " + std::to_string(rows) + "x" + std::to_string(cols);
      }
      if (b.type == BlockType::Table) {
        size_t cols = 0;
        for (const auto& r : b.rows) cols = std::max(cols, r.size());
        label += " " + std::to_string(b.rows.size()) + "x" + std::to_string(cols);
      }
      add(marks, kind, number, b.bbox, reason, label);
      // The grid the listing keeps: one row per line, one column per character, the box
      // divided evenly (a monospace face sets every character in the same width). Rules
      // every `code_grid_columns` columns, so that the grid stays readable.
      if (b.type == BlockType::Code && b.last_page == b.page) {
        auto [rows, cols] = code_grid(b.text);
        const double rh = b.bbox.height() / static_cast<double>(rows);
        for (size_t r = 1; r < rows; ++r) {
          double y = b.bbox.y0 + rh * static_cast<double>(r);
          add(marks, "code-grid", number, Box{b.bbox.x0, y, b.bbox.x1, y}, "row " + std::to_string(r + 1), "");
        }
        if (cols > 0) {
          const double cw = b.bbox.width() / static_cast<double>(cols);
          for (size_t c = static_cast<size_t>(options.code_grid_columns); c < cols;
               c += static_cast<size_t>(options.code_grid_columns)) {
            double x = b.bbox.x0 + cw * static_cast<double>(c);
            add(marks, "code-grid", number, Box{x, b.bbox.y0, x, b.bbox.y1}, "column " + std::to_string(c + 1), "");
          }
        }
      }
      // A table's cells: its rows and its grid's columns over the box.
      if (b.type == BlockType::Table && !b.rows.empty() && b.last_page == b.page) {
        size_t cols = 0;
        for (const auto& r : b.rows) cols = std::max(cols, r.size());
        const double rh = b.bbox.height() / static_cast<double>(b.rows.size());
        const double cw = cols ? b.bbox.width() / static_cast<double>(cols) : 0;
        for (size_t r = 0; r < b.rows.size(); ++r)
          for (size_t c = 0; c < b.rows[r].size(); ++c) {
            if (b.rows[r][c].empty()) continue;
            Box cell{b.bbox.x0 + cw * static_cast<double>(c), b.bbox.y0 + rh * static_cast<double>(r),
                     b.bbox.x0 + cw * static_cast<double>(c + 1), b.bbox.y0 + rh * static_cast<double>(r + 1)};
            add(marks, "table-cell", number, cell,
                (static_cast<int>(r) < b.header_rows ? "header " : "") + std::string("row ") + std::to_string(r + 1) +
                    " column " + std::to_string(c + 1),
                "");
          }
      }
    }
  }
  // What clean took out, with why: the removal log.
  int removed = 0;
  for (const auto& r : book.removed)
    if (r.page == p) add(marks, "furniture", ++removed, r.bbox, r.reason, ascii(r.reason));
  return marks;
}

Json to_json(const InspectMark& m) {
  Json j;
  j["kind"] = m.kind;
  j["number"] = m.number;
  j["box"] = box_to_json(m.box);
  j["color"] = hex_color(m.color);
  if (!m.reason.empty()) j["reason"] = m.reason;
  if (!m.label.empty()) j["label"] = m.label;
  return j;
}

namespace {

std::string html_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

std::string page_name(int page) {
  char s[16];
  std::snprintf(s, sizeof s, "page-%04d", page);
  return s;
}

// DIR/index.html: one page at a time, flipped with the arrow keys (or the links), the marks
// of the page listed under it. Opens from disk; the pages' listings are embedded.
std::string index_html(const Book& book, const std::string& file, const std::vector<Json>& pages) {
  Json all = Json::array();
  for (const auto& p : pages) all.push_back(p);
  std::string data = dump(all, false);
  // Inside <script>, "</" would end the element.
  for (size_t at = 0; (at = data.find("</", at)) != std::string::npos; at += 3) data.replace(at, 2, "<\\/");
  std::string legend;
  for (const auto& k : kColors)
    legend += "<span><i style=\"background:" + hex_color(k.color) + "\"></i>" + k.kind + "</span> ";
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>quire inspect: " +
         html_escape(file) +
         "</title>\n<style>\n"
         "body{font:14px/1.4 system-ui,sans-serif;margin:0;background:#eee;color:#222}\n"
         "header{position:sticky;top:0;background:#fff;padding:.5em 1em;border-bottom:1px solid #ccc}\n"
         "header a{margin:0 .5em}.legend span{margin-right:.8em;white-space:nowrap}\n"
         ".legend i{display:inline-block;width:.9em;height:.9em;margin-right:.25em;vertical-align:-.1em}\n"
         "main{display:flex;gap:1em;padding:1em;align-items:flex-start}img{max-width:70vw;background:#fff;"
         "box-shadow:0 1px 4px #0003}\n"
         "table{border-collapse:collapse;font-size:12px}td,th{padding:1px 6px;text-align:left;border-bottom:1px "
         "solid #ddd}\n</style></head>\n<body>\n<header><strong>" +
         html_escape(book.title.empty() ? file : book.title) + "</strong> (" + html_escape(file) +
         ") <a id=\"prev\" href=\"#\">&larr; previous</a><span id=\"where\"></span><a id=\"next\" "
         "href=\"#\">next &rarr;</a> <small>(arrow keys)</small>\n<div class=\"legend\">" +
         legend +
         "</div></header>\n<main><img id=\"page\" alt=\"\"><table><thead><tr><th>kind</th><th>#</th><th>box "
         "(pt)</th><th>reason</th><th>label</th></tr></thead><tbody id=\"marks\"></tbody></table></main>\n"
         "<script>\nconst pages = " +
         data +
         ";\nlet at = 0;\n"
         "function text(s){const d=document.createElement('td');d.textContent=s;return d;}\n"
         "function show(i){\n  if(i<0||i>=pages.length)return;\n  at=i;const p=pages[i];\n"
         "  const img=document.getElementById('page');img.src=p.image;img.alt='page '+p.page;\n"
         "  document.getElementById('where').textContent='page '+p.page+' ('+(i+1)+' of '+pages.length+')';\n"
         "  const body=document.getElementById('marks');body.replaceChildren();\n"
         "  for(const m of p.marks){const tr=document.createElement('tr');tr.style.color=m.color;\n"
         "    tr.append(text(m.kind),text(m.number),text(m.box.join(', ')),text(m.reason||''),text(m.label||''));\n"
         "    body.append(tr);}\n  history.replaceState(null,'','#'+p.page);\n}\n"
         "document.addEventListener('keydown',e=>{if(e.key==='ArrowRight')show(at+1);"
         "else if(e.key==='ArrowLeft')show(at-1);});\n"
         "document.getElementById('prev').onclick=e=>{e.preventDefault();show(at-1);};\n"
         "document.getElementById('next').onclick=e=>{e.preventDefault();show(at+1);};\n"
         "const start=pages.findIndex(p=>'#'+p.page===location.hash);show(start<0?0:start);\n"
         "</script>\n</body></html>\n";
}

void write_file(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
  out.flush();
  if (!out) throw Error(ExitCode::Io, path.string(), 0, "cannot write");
}

}  // namespace

InspectReport inspect_book(const InspectOptions& options) {
  const std::string file = fs::path(options.pdf).filename().string();
  BuildOptions build = options.build;
  build.verify = false;
  build.intermediate_dir.clear();
  // The whole book goes through the stages, as `quire build` sends it: running heads and
  // chapters are found across the book, so a page alone would not come out the same.
  Document doc = extract_document(options.pdf, build.extract);
  const int count = doc.page_count;
  const int first = options.first_page > 0 ? options.first_page : 1;
  const int last = options.last_page > 0 ? options.last_page : count;
  if (first > count || last > count)
    throw Error(ExitCode::BadRange, options.pdf, first > count ? first : last,
                "outside the document (" + std::to_string(count) + " pages)");
  std::map<int, Page> shown;  // the asked-for pages as extracted: their sizes
  for (const auto& p : doc.pages)
    if (p.number >= first && p.number <= last) {
      Page size;
      size.number = p.number;
      size.width = p.width;
      size.height = p.height;
      shown.emplace(p.number, std::move(size));
    }
  const std::string id = slugify(fs::path(options.pdf).stem().string(), 60, "book");
  Book book = book_from_document(doc, id, build, nullptr);
  doc = Document();

  // Everything goes into a temporary folder beside DIR, moved into place at the end: a
  // failure leaves no partial DIR.
  fs::path out = fs::absolute(options.out_dir).lexically_normal();
  if (out.filename().empty()) out = out.parent_path();
  std::error_code ec;
  fs::create_directories(out.parent_path(), ec);
  remove_stale_temporaries(out);
  fs::path tmp = out;
  tmp += ".tmp-" + std::to_string(getpid());
  fs::remove_all(tmp, ec);
  if (!fs::create_directories(tmp, ec) || ec) throw Error(ExitCode::Io, out.string(), 0, "cannot create the folder");
  InspectReport report;
  report.book = book;
  try {
    PdfRenderer renderer(options.pdf, build.extract.password);
    std::vector<Json> listing;
    for (const auto& [number, page] : shown) {
      std::vector<InspectMark> marks = overlay_marks(book, page, options);
      std::vector<OverlayMark> drawn;
      for (const auto& m : marks) {
        OverlayMark d;
        d.box = m.box;
        d.color = m.color;
        d.line_width = m.kind == "code-grid" || m.kind == "table-cell" ? options.grid_line_width : options.line_width;
        d.fill_alpha = m.kind == "furniture" ? options.furniture_alpha : 0;
        d.label = m.label;
        drawn.push_back(std::move(d));
      }
      std::string png = renderer.page_png(number, options.dpi, drawn);
      if (png.empty()) throw Error(ExitCode::NotPdf, options.pdf, number, "cannot render the page");
      const std::string name = page_name(number);
      write_file(tmp / (name + ".png"), png);
      Json j;
      j["file"] = file;
      j["page"] = number;
      j["size"] = {round_pt(page.width), round_pt(page.height)};
      j["image"] = name + ".png";
      Json list = Json::array();
      for (const auto& m : marks) list.push_back(to_json(m));
      j["marks"] = std::move(list);
      write_file(tmp / (name + ".json"), dump(j, true));
      listing.push_back(std::move(j));
      report.pages.push_back({number, std::move(marks)});
    }
    write_file(tmp / "index.html", index_html(book, file, listing));
    install_output_dir(tmp, out);
  } catch (...) {
    fs::remove_all(tmp, ec);
    throw;
  }
  return report;
}

}  // namespace quire
