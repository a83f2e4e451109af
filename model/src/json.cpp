#include "quire/json.h"
#include "quire/spill.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <istream>
#include <ostream>

namespace quire {

double round_pt(double v) {
  double r = std::round(v * 100.0) / 100.0;
  return r == 0 ? 0.0 : r;  // no "-0.0"
}

Json box_to_json(const Box& b) {
  return Json::array({round_pt(b.x0), round_pt(b.y0), round_pt(b.x1), round_pt(b.y1)});
}

Box box_from_json(const Json& j) {
  if (!j.is_array() || j.size() != 4) throw std::runtime_error("bbox must be [x0, y0, x1, y1]");
  return {j[0].get<double>(), j[1].get<double>(), j[2].get<double>(), j[3].get<double>()};
}

namespace {

std::string hex_color(uint32_t c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%06x", c & 0xFFFFFF);
  return buf;
}

uint32_t color_from_hex(const std::string& s) {
  if (s.size() != 7 || s[0] != '#') throw std::runtime_error("colour must be #rrggbb");
  return static_cast<uint32_t>(std::stoul(s.substr(1), nullptr, 16));
}

template <class T>
T get_or(const Json& j, const char* key, T def) {
  auto it = j.find(key);
  return it == j.end() ? def : it->template get<T>();
}

}  // namespace

Json to_json(const Span& s) {
  Json j;
  j["text"] = s.text;
  j["bbox"] = box_to_json(s.bbox);
  j["font"] = s.font;
  j["size"] = round_pt(s.size);
  if (s.monospace) j["mono"] = true;
  if (s.bold) j["bold"] = true;
  if (s.italic) j["italic"] = true;
  j["color"] = hex_color(s.color);
  j["baseline"] = round_pt(s.baseline);
  if (!s.xs.empty()) {
    Json xs = Json::array();
    for (float x : s.xs) xs.push_back(round_pt(x));
    j["xs"] = std::move(xs);
    j["adv"] = round_pt(s.last_advance);
  }
  if (s.ocr) {
    j["ocr"] = true;
    j["conf"] = round_pt(s.confidence);
  }
  return j;
}

Span span_from_json(const Json& j) {
  Span s;
  s.text = j.at("text").get<std::string>();
  s.bbox = box_from_json(j.at("bbox"));
  s.font = get_or<std::string>(j, "font", "");
  s.size = get_or<double>(j, "size", 0);
  s.monospace = get_or<bool>(j, "mono", false);
  s.bold = get_or<bool>(j, "bold", false);
  s.italic = get_or<bool>(j, "italic", false);
  s.color = color_from_hex(get_or<std::string>(j, "color", "#000000"));
  s.baseline = get_or<double>(j, "baseline", s.bbox.y1);
  if (auto it = j.find("xs"); it != j.end())
    for (const auto& x : *it) s.xs.push_back(x.get<float>());
  s.last_advance = get_or<float>(j, "adv", 0);
  s.ocr = get_or<bool>(j, "ocr", false);
  s.confidence = get_or<float>(j, "conf", -1);
  return s;
}

Json to_json(const Line& l) {
  Json j;
  j["bbox"] = box_to_json(l.bbox);
  if (l.direction != 0) j["dir"] = l.direction;
  Json spans = Json::array();
  for (const auto& s : l.spans) spans.push_back(to_json(s));
  j["spans"] = std::move(spans);
  return j;
}

Line line_from_json(const Json& j) {
  Line l;
  l.bbox = box_from_json(j.at("bbox"));
  l.direction = get_or<int>(j, "dir", 0);
  for (const auto& s : j.at("spans")) l.spans.push_back(span_from_json(s));
  return l;
}

Json to_json(const Page& p) {
  Json j;
  j["page"] = p.number;
  if (!p.label.empty()) j["label"] = p.label;
  j["width"] = round_pt(p.width);
  j["height"] = round_pt(p.height);
  if (p.rotation) j["rotation"] = p.rotation;
  if (p.ocr) {
    j["ocr"] = true;
    j["ocr_confidence"] = round_pt(p.ocr_confidence);
  }
  Json lines = Json::array();
  for (const auto& l : p.lines) lines.push_back(to_json(l));
  j["lines"] = std::move(lines);
  Json images = Json::array();
  for (const auto& im : p.images) {
    Json ij;
    ij["bbox"] = box_to_json(im.bbox);
    ij["width"] = im.width;
    ij["height"] = im.height;
    if (im.mask) ij["mask"] = true;
    images.push_back(std::move(ij));
  }
  j["images"] = std::move(images);
  Json paths = Json::array();
  for (const auto& vp : p.paths) {
    Json pj;
    pj["bbox"] = box_to_json(vp.bbox);
    if (vp.fill) pj["fill"] = true;
    if (vp.stroke) pj["stroke"] = true;
    if (vp.stroke) pj["line_width"] = round_pt(vp.line_width);
    pj["color"] = hex_color(vp.color);
    if (vp.paper) pj["paper"] = true;
    paths.push_back(std::move(pj));
  }
  j["paths"] = std::move(paths);
  if (!p.links.empty()) {
    Json links = Json::array();
    for (const auto& a : p.links) {
      Json lj;
      lj["bbox"] = box_to_json(a.bbox);
      if (!a.uri.empty()) lj["uri"] = a.uri;
      if (a.page > 0) lj["to_page"] = a.page;
      if (a.page > 0 && a.y >= 0) lj["to_y"] = round_pt(a.y);
      links.push_back(std::move(lj));
    }
    j["links"] = std::move(links);
  }
  if (!p.errors.empty()) j["errors"] = p.errors;
  return j;
}

Page page_from_json(const Json& j) {
  Page p;
  p.number = j.at("page").get<int>();
  p.label = get_or<std::string>(j, "label", "");
  p.width = j.at("width").get<double>();
  p.height = j.at("height").get<double>();
  p.rotation = get_or<int>(j, "rotation", 0);
  p.ocr = get_or<bool>(j, "ocr", false);
  p.ocr_confidence = get_or<double>(j, "ocr_confidence", -1);
  for (const auto& l : j.at("lines")) p.lines.push_back(line_from_json(l));
  for (const auto& ij : j.at("images")) {
    Image im;
    im.bbox = box_from_json(ij.at("bbox"));
    im.width = ij.at("width").get<int>();
    im.height = ij.at("height").get<int>();
    im.mask = get_or<bool>(ij, "mask", false);
    p.images.push_back(im);
  }
  for (const auto& pj : j.at("paths")) {
    VectorPath vp;
    vp.bbox = box_from_json(pj.at("bbox"));
    vp.fill = get_or<bool>(pj, "fill", false);
    vp.stroke = get_or<bool>(pj, "stroke", false);
    vp.line_width = get_or<double>(pj, "line_width", 0);
    vp.color = color_from_hex(get_or<std::string>(pj, "color", "#000000"));
    vp.paper = get_or<bool>(pj, "paper", false);
    p.paths.push_back(vp);
  }
  if (auto it = j.find("links"); it != j.end())
    for (const auto& lj : *it)
      p.links.push_back({box_from_json(lj.at("bbox")), get_or<std::string>(lj, "uri", ""), get_or<int>(lj, "to_page", 0),
                         get_or<double>(lj, "to_y", -1)});
  if (auto it = j.find("errors"); it != j.end()) p.errors = it->get<std::vector<std::string>>();
  return p;
}

Json to_json(const OutlineEntry& o) {
  Json j;
  j["title"] = o.title;
  j["level"] = o.level;
  j["page"] = o.page;
  j["y"] = round_pt(o.y);
  return j;
}

Json to_json(const Removal& r) {
  Json j;
  j["page"] = r.page;
  j["bbox"] = box_to_json(r.bbox);
  j["text"] = r.text;
  j["reason"] = r.reason;
  return j;
}

Removal removal_from_json(const Json& j) {
  return {j.at("page").get<int>(), box_from_json(j.at("bbox")), j.at("text").get<std::string>(),
          j.at("reason").get<std::string>()};
}

Json to_json(const HyphenJoin& h) {
  Json j;
  j["page"] = h.page;
  j["before"] = h.before;
  j["after"] = h.after;
  j["joined"] = h.joined;
  return j;
}

Json to_json(const WordLedger& l) {
  Json j;
  j["extracted"] = l.extracted;
  j["text"] = l.text;
  j["labels"] = l.labels;
  Json removed = Json::object();
  for (const auto& [reason, n] : l.removed) removed[reason] = n;
  j["removed"] = std::move(removed);
  j["excluded"] = l.excluded;
  j["missing"] = l.missing;
  j["added"] = l.added;
  j["misplaced"] = l.misplaced;
  return j;
}

WordLedger ledger_from_json(const Json& j) {
  WordLedger l;
  l.extracted = j.at("extracted").get<long>();
  l.text = j.at("text").get<long>();
  l.labels = j.at("labels").get<long>();
  for (const auto& [reason, n] : j.at("removed").items()) l.removed.emplace_back(reason, n.get<long>());
  std::sort(l.removed.begin(), l.removed.end());
  l.excluded = j.at("excluded").get<long>();
  l.missing = j.at("missing").get<long>();
  l.added = j.at("added").get<long>();
  l.misplaced = j.at("misplaced").get<long>();
  return l;
}

Json to_json(const Diagnostic& d) {
  Json j;
  j["file"] = d.file;
  j["page"] = d.page;
  j["stage"] = d.stage;
  j["code"] = d.code;
  j["message"] = d.message;
  return j;
}

Diagnostic diagnostic_from_json(const Json& j, const std::string& file) {
  if (j.is_object())
    return Diagnostic::at(j.at("stage").get<std::string>(), j.at("code").get<std::string>(),
                          j.at("file").get<std::string>(), j.at("page").get<int>(),
                          j.at("message").get<std::string>());
  // An older file's line: its location is taken apart so that text() gives the line back.
  std::string_view rest = j.get_ref<const std::string&>();
  Diagnostic d;
  const std::string prefix = file + ": ";
  if (!file.empty() && rest.starts_with(prefix)) {
    d.file = file;
    rest.remove_prefix(prefix.size());
  }
  if (rest.starts_with("page ")) {
    const char* first = rest.data() + 5;
    const char* last = rest.data() + rest.size();
    int page = 0;
    auto [end, ec] = std::from_chars(first, last, page);
    if (ec == std::errc() && end != first && page > 0 && std::string_view(end, last).starts_with(": ")) {
      d.page = page;
      rest = std::string_view(end + 2, last);
    }
  }
  d.message = std::string(rest);
  return d;
}

HyphenJoin join_from_json(const Json& j) {
  return {j.at("page").get<int>(), j.at("before").get<std::string>(),
          j.at("after").get<std::string>(), j.at("joined").get<std::string>()};
}

Json to_json(const Block& b) {
  Json j;
  j["type"] = to_string(b.type);
  if (b.type == BlockType::Heading || (b.type == BlockType::ListItem && b.level > 1)) j["level"] = b.level;
  if (b.type == BlockType::Figure) {
    j["image"] = b.image;
    if (!b.labels.empty()) j["labels"] = b.labels;
    if (!b.anchor.empty()) j["anchor"] = b.anchor;
    if (!b.figure_ref.empty()) j["ref"] = b.figure_ref;
    if (b.referenced_by >= 0) j["referenced_by"] = b.referenced_by;
  } else {
    j["text"] = b.text;
    // Note marks taken out of the text: [[code point, "1"], ...], a glued one [at, "1", "glued"].
    if (!b.marks.empty()) {
      Json marks = Json::array();
      for (const auto& m : b.marks)
        marks.push_back(m.glued ? Json::array({m.at, m.mark, "glued"}) : Json::array({m.at, m.mark}));
      j["marks"] = std::move(marks);
    }
    // A chapter heading's opener label ("Chapter 1", "Appendix A"), printed with the title
    // but not part of it.
    if (!b.labels.empty()) j["labels"] = b.labels;
    if (b.drawn_marker) j["marker_drawn"] = true;
    if (b.term) j["term"] = true;
    if (!b.anchor.empty()) j["anchor"] = b.anchor;
    // Inline styles and links: [[code point, code points, "em"], ...], [[at, len, "href"], ...].
    if (!b.styles.empty()) {
      Json styles = Json::array();
      for (const auto& r : b.styles) styles.push_back(Json::array({r.at, r.len, to_string(r.style)}));
      j["styles"] = std::move(styles);
    }
    if (!b.links.empty()) {
      Json links = Json::array();
      for (const auto& l : b.links) links.push_back(Json::array({l.at, l.len, l.href}));
      j["links"] = std::move(links);
    }
    if (!b.rows.empty()) {
      j["rows"] = b.rows;
      if (b.header_rows > 0) j["header_rows"] = b.header_rows;
    }
    if (!b.kind.empty()) j["kind"] = b.kind;
    if (!b.title.empty()) j["title"] = b.title;
  }
  j["page"] = b.page;
  if (b.last_page != b.page && b.last_page > 0) j["pages"] = Json::array({b.page, b.last_page});
  j["bbox"] = box_to_json(b.bbox);
  return j;
}

Block block_from_json(const Json& j) {
  Block b;
  auto t = block_type_from_string(j.at("type").get<std::string>());
  if (!t) throw std::runtime_error("unknown block type " + j.at("type").get<std::string>());
  b.type = *t;
  b.level = get_or<int>(j, "level", 0);
  b.text = get_or<std::string>(j, "text", "");
  if (auto it = j.find("marks"); it != j.end())
    for (const auto& m : *it)
      b.marks.push_back({m.at(0).get<size_t>(), m.at(1).get<std::string>(), m.size() > 2 && m.at(2) == "glued"});
  b.image = get_or<std::string>(j, "image", "");
  if (auto it = j.find("labels"); it != j.end()) b.labels = it->get<std::vector<std::string>>();
  b.figure_ref = get_or<std::string>(j, "ref", "");
  b.drawn_marker = get_or<bool>(j, "marker_drawn", false);
  b.term = get_or<bool>(j, "term", false);
  b.anchor = get_or<std::string>(j, "anchor", "");
  if (auto it = j.find("styles"); it != j.end())
    for (const auto& r : *it) {
      auto style = inline_style_from_string(r.at(2).get<std::string>());
      if (!style) throw std::runtime_error("unknown inline style " + r.at(2).get<std::string>());
      b.styles.push_back({r.at(0).get<size_t>(), r.at(1).get<size_t>(), *style});
    }
  if (auto it = j.find("links"); it != j.end())
    for (const auto& l : *it) b.links.push_back({l.at(0).get<size_t>(), l.at(1).get<size_t>(), l.at(2).get<std::string>()});
  if (auto it = j.find("rows"); it != j.end()) b.rows = it->get<std::vector<std::vector<std::string>>>();
  b.header_rows = get_or<int>(j, "header_rows", 0);
  b.kind = get_or<std::string>(j, "kind", "");
  b.title = get_or<std::string>(j, "title", "");
  b.referenced_by = get_or<int>(j, "referenced_by", -1);
  b.page = j.at("page").get<int>();
  b.last_page = b.page;
  if (auto it = j.find("pages"); it != j.end()) b.last_page = (*it)[1].get<int>();
  b.bbox = box_from_json(j.at("bbox"));
  return b;
}

std::string dump(const Json& j, bool pretty) {
  // ensure_ascii=false: UTF-8 out; error handler replace: never throw on bad UTF-8 from a PDF.
  std::string s = j.dump(pretty ? 2 : -1, ' ', false, Json::error_handler_t::replace);
  s += '\n';
  return s;
}

namespace {

// The length of the UTF-8 sequence (RFC 3629: no overlong forms, no surrogates, nothing
// past U+10FFFF) that starts at s[i], a byte of 0x80 or more; 0 if none does.
size_t utf8_sequence(std::string_view s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  size_t len = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range
  if (c >= 0xC2 && c <= 0xDF) len = 2;
  else if (c == 0xE0) len = 3, lo = 0xA0;
  else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) len = 3;
  else if (c == 0xED) len = 3, hi = 0x9F;
  else if (c == 0xF0) len = 4, lo = 0x90;
  else if (c >= 0xF1 && c <= 0xF3) len = 4;
  else if (c == 0xF4) len = 4, hi = 0x8F;
  else return 0;
  if (i + len > s.size()) return 0;
  const auto c1 = static_cast<unsigned char>(s[i + 1]);
  if (c1 < lo || c1 > hi) return 0;
  for (size_t k = 2; k < len; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
  return len;
}

}  // namespace

void JsonWriter::newline(size_t depth) {
  out_ += '\n';
  out_.append(2 * depth, ' ');
}

// Where the next value goes: after a key, or as an array's next element.
void JsonWriter::element() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (counts_.empty()) return;
  if (counts_.back()++ > 0) out_ += ',';
  if (pretty_) newline(counts_.size());
}

JsonWriter& JsonWriter::open(char c) {
  element();
  out_ += c;
  counts_.push_back(0);
  return *this;
}

JsonWriter& JsonWriter::close(char c) {
  const size_t n = counts_.back();
  counts_.pop_back();
  if (pretty_ && n > 0) newline(counts_.size());
  out_ += c;
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view k) {
  if (counts_.back()++ > 0) out_ += ',';
  if (pretty_) newline(counts_.size());
  out_ += '"';
  out_ += k;
  out_ += pretty_ ? "\": " : "\":";
  after_key_ = true;
  return *this;
}

namespace {

// Appends `s` as a JSON string, byte for byte as dump() writes it: UTF-8 passed through,
// '"', '\\' and controls escaped, and U+FFFD in place of what is not UTF-8 as RFC 3629
// defines it. Returns whether the string was written as it is (so reads back the same).
bool append_json_string(std::string& out, std::string_view s) {
  const size_t start = out.size();
  out += '"';
  size_t plain = 0;  // where the bytes not yet copied start
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
      ++i;
      continue;
    }
    if (c >= 0x80) {
      const size_t len = utf8_sequence(s, i);
      if (len == 0) {
        // dump()'s U+FFFD in place of what is not UTF-8, however many bytes it takes.
        out.resize(start);
        out += Json(std::string(s)).dump(-1, ' ', false, Json::error_handler_t::replace);
        return false;
      }
      i += len;
      continue;
    }
    out.append(s.data() + plain, i - plain);
    out += '\\';
    switch (c) {
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case '\b': out += 'b'; break;
      case '\t': out += 't'; break;
      case '\n': out += 'n'; break;
      case '\f': out += 'f'; break;
      case '\r': out += 'r'; break;
      default: {
        static constexpr char kHex[] = "0123456789abcdef";
        out += "u00";
        out += kHex[c >> 4];
        out += kHex[c & 15];
      }
    }
    plain = ++i;
  }
  out.append(s.data() + plain, s.size() - plain);
  out += '"';
  return true;
}

}  // namespace

JsonWriter& JsonWriter::string(std::string_view s) {
  element();
  if (!append_json_string(out_, s)) same_ = false;
  return *this;
}

JsonWriter& JsonWriter::number(double v) {
  element();
  if (!std::isfinite(v)) {
    same_ = false;
    out_ += "null";
    return *this;
  }
  // The digits dump() writes: the library's own shortest form that reads back exactly.
  char buf[64];
  const char* end = nlohmann::detail::to_chars(buf, buf + sizeof buf, v);
  out_.append(buf, static_cast<size_t>(end - buf));
  return *this;
}

JsonWriter& JsonWriter::boolean(bool v) {
  element();
  out_ += v ? "true" : "false";
  return *this;
}

namespace {

void write_box(JsonWriter& w, const Box& b) {
  w.begin_array().number(round_pt(b.x0)).number(round_pt(b.y0)).number(round_pt(b.x1)).number(round_pt(b.y1)).end_array();
}

void write_strings(JsonWriter& w, const std::vector<std::string>& v) {
  w.begin_array();
  for (const auto& s : v) w.string(s);
  w.end_array();
}

// The fields of to_json(Block), in its order and on its conditions; block_as_written() keeps
// the same ones.
bool has_level(const Block& b) { return b.type == BlockType::Heading || (b.type == BlockType::ListItem && b.level > 1); }
bool has_pages(const Block& b) { return b.last_page != b.page && b.last_page > 0; }

}  // namespace

void write_json(JsonWriter& w, const Block& b, std::string_view (*href)(std::string_view)) {
  w.begin_object();
  w.key("type").string(to_string(b.type));
  if (has_level(b)) w.key("level").integer(b.level);
  if (b.type == BlockType::Figure) {
    w.key("image").string(b.image);
    if (!b.labels.empty()) write_strings(w.key("labels"), b.labels);
    if (!b.anchor.empty()) w.key("anchor").string(b.anchor);
    if (!b.figure_ref.empty()) w.key("ref").string(b.figure_ref);
    if (b.referenced_by >= 0) w.key("referenced_by").integer(b.referenced_by);
  } else {
    w.key("text").string(b.text);
    if (!b.marks.empty()) {
      w.key("marks").begin_array();
      for (const auto& m : b.marks) {
        w.begin_array().integer(m.at).string(m.mark);
        if (m.glued) w.string("glued");
        w.end_array();
      }
      w.end_array();
    }
    if (!b.labels.empty()) write_strings(w.key("labels"), b.labels);
    if (b.drawn_marker) w.key("marker_drawn").boolean(true);
    if (b.term) w.key("term").boolean(true);
    if (!b.anchor.empty()) w.key("anchor").string(b.anchor);
    if (!b.styles.empty()) {
      w.key("styles").begin_array();
      for (const auto& r : b.styles)
        w.begin_array().integer(r.at).integer(r.len).string(to_string(r.style)).end_array();
      w.end_array();
    }
    if (!b.links.empty()) {
      w.key("links").begin_array();
      for (const auto& l : b.links)
        w.begin_array()
            .integer(l.at)
            .integer(l.len)
            .string(href ? href(l.href) : std::string_view(l.href))
            .end_array();
      w.end_array();
    }
    if (!b.rows.empty()) {
      w.key("rows").begin_array();
      for (const auto& row : b.rows) write_strings(w, row);
      w.end_array();
      if (b.header_rows > 0) w.key("header_rows").integer(b.header_rows);
    }
    if (!b.kind.empty()) w.key("kind").string(b.kind);
    if (!b.title.empty()) w.key("title").string(b.title);
  }
  w.key("page").integer(b.page);
  if (has_pages(b)) w.key("pages").begin_array().integer(b.page).integer(b.last_page).end_array();
  write_box(w.key("bbox"), b.bbox);
  w.end_object();
}

Block block_as_written(const Block& b, std::string_view (*href)(std::string_view)) {
  Block out;
  out.type = b.type;
  if (has_level(b)) out.level = b.level;
  if (b.type == BlockType::Figure) {
    out.image = b.image;
    out.labels = b.labels;
    out.anchor = b.anchor;
    out.figure_ref = b.figure_ref;
    if (b.referenced_by >= 0) out.referenced_by = b.referenced_by;
  } else {
    out.text = b.text;
    out.marks = b.marks;
    out.labels = b.labels;
    out.drawn_marker = b.drawn_marker;
    out.term = b.term;
    out.anchor = b.anchor;
    out.styles = b.styles;
    out.links = b.links;
    if (href)
      for (auto& l : out.links) l.href = href(l.href);
    if (!b.rows.empty()) {
      out.rows = b.rows;
      if (b.header_rows > 0) out.header_rows = b.header_rows;
    }
    out.kind = b.kind;
    out.title = b.title;
  }
  out.page = b.page;
  out.last_page = has_pages(b) ? b.last_page : b.page;
  out.bbox = {round_pt(b.bbox.x0), round_pt(b.bbox.y0), round_pt(b.bbox.x1), round_pt(b.bbox.y1)};
  return out;
}

std::string compact_json(std::string_view text) {
  // Written into a buffer as long as the text (the compact form is no longer), a string's
  // bytes copied as one run up to its next quote or backslash.
  std::string out(text.size() + 1, '\0');
  char* o = out.data();
  const char* p = text.data();
  const char* const end = p + text.size();
  while (p < end) {
    const char c = *p++;
    if (c == '"') {
      *o++ = c;
      while (p < end) {
        const char* q = p;
        while (q < end && *q != '"' && *q != '\\') ++q;
        std::memcpy(o, p, static_cast<size_t>(q - p));
        o += q - p;
        p = q;
        if (p == end) break;
        const char s = *p++;
        *o++ = s;
        if (s == '"') break;
        if (p < end) *o++ = *p++;  // the character a backslash escapes
      }
    } else if (c != ' ' && c != '\n' && c != '\t' && c != '\r') {
      *o++ = c;
    }
  }
  *o++ = '\n';
  out.resize(static_cast<size_t>(o - out.data()));
  return out;
}

namespace {

Json document_header(const Document& d) {
  Json h;
  h["format"] = kIntermediateFormat;
  h["generator"] = std::string("quire ") + kVersion;
  h["file"] = d.file;
  h["sha256"] = d.sha256;
  h["engine"] = d.engine;
  h["page_count"] = d.page_count;
  Json m;
  m["title"] = d.metadata.title;
  m["author"] = d.metadata.author;
  m["subject"] = d.metadata.subject;
  m["creator"] = d.metadata.creator;
  m["producer"] = d.metadata.producer;
  h["metadata"] = std::move(m);
  Json outline = Json::array();
  for (const auto& o : d.outline) outline.push_back(to_json(o));
  h["outline"] = std::move(outline);
  Json warnings = Json::array();
  for (const auto& w : d.warnings) warnings.push_back(to_json(w));
  h["warnings"] = std::move(warnings);
  return h;
}

Error bad_line(const std::string& name, int line, const std::string& why) {
  return Error(ExitCode::BadIntermediate, name, 0,
               "line " + std::to_string(line) + ": " + why);
}

}  // namespace

namespace {

// A direct writer for page lines: the same JSON as dump(to_json(page)) would give in meaning,
// without building a tree per glyph (the intermediate file of a 1,000-page book holds
// millions of numbers; a tree made writing as slow as extracting).
class LineWriter {
 public:
  explicit LineWriter(std::string& out) : out_(out) {}

  void number(double v) {
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, round_pt(v));
    out_.append(buf, r.ptr);
  }
  void integer(long v) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, r.ptr);
  }
  // A JSON string, as dump() writes it (append_json_string).
  void string(std::string_view s) { append_json_string(out_, s); }
  void key(const char* k) {
    out_ += '"';
    out_ += k;
    out_ += "\":";
  }
  void box(const Box& b) {
    out_ += '[';
    number(b.x0);
    out_ += ',';
    number(b.y0);
    out_ += ',';
    number(b.x1);
    out_ += ',';
    number(b.y1);
    out_ += ']';
  }
  void color(uint32_t c) { string(hex_color(c)); }
  void raw(std::string_view s) { out_ += s; }

 private:
  std::string& out_;
};

void write_page_line(std::string& out, const Page& p) {
  LineWriter w(out);
  w.raw("{");
  w.key("page");
  w.integer(p.number);
  if (!p.label.empty()) {
    w.raw(",");
    w.key("label");
    w.string(p.label);
  }
  w.raw(",");
  w.key("width");
  w.number(p.width);
  w.raw(",");
  w.key("height");
  w.number(p.height);
  if (p.rotation) {
    w.raw(",");
    w.key("rotation");
    w.integer(p.rotation);
  }
  if (p.ocr) {
    w.raw(",\"ocr\":true,");
    w.key("ocr_confidence");
    w.number(p.ocr_confidence);
  }
  w.raw(",\"lines\":[");
  for (size_t li = 0; li < p.lines.size(); ++li) {
    const Line& l = p.lines[li];
    if (li) w.raw(",");
    w.raw("{");
    w.key("bbox");
    w.box(l.bbox);
    if (l.direction != 0) {
      w.raw(",");
      w.key("dir");
      w.integer(l.direction);
    }
    w.raw(",\"spans\":[");
    for (size_t si = 0; si < l.spans.size(); ++si) {
      const Span& s = l.spans[si];
      if (si) w.raw(",");
      w.raw("{");
      w.key("text");
      w.string(s.text);
      w.raw(",");
      w.key("bbox");
      w.box(s.bbox);
      w.raw(",");
      w.key("font");
      w.string(s.font);
      w.raw(",");
      w.key("size");
      w.number(s.size);
      if (s.monospace) w.raw(",\"mono\":true");
      if (s.bold) w.raw(",\"bold\":true");
      if (s.italic) w.raw(",\"italic\":true");
      w.raw(",");
      w.key("color");
      w.color(s.color);
      w.raw(",");
      w.key("baseline");
      w.number(s.baseline);
      if (!s.xs.empty()) {
        w.raw(",\"xs\":[");
        for (size_t k = 0; k < s.xs.size(); ++k) {
          if (k) w.raw(",");
          w.number(s.xs[k]);
        }
        w.raw("],");
        w.key("adv");
        w.number(s.last_advance);
      }
      if (s.ocr) {
        w.raw(",\"ocr\":true,");
        w.key("conf");
        w.number(s.confidence);
      }
      w.raw("}");
    }
    w.raw("]}");
  }
  w.raw("],\"images\":[");
  for (size_t i = 0; i < p.images.size(); ++i) {
    const Image& im = p.images[i];
    if (i) w.raw(",");
    w.raw("{");
    w.key("bbox");
    w.box(im.bbox);
    w.raw(",");
    w.key("width");
    w.integer(im.width);
    w.raw(",");
    w.key("height");
    w.integer(im.height);
    if (im.mask) w.raw(",\"mask\":true");
    w.raw("}");
  }
  w.raw("],\"paths\":[");
  for (size_t i = 0; i < p.paths.size(); ++i) {
    const VectorPath& vp = p.paths[i];
    if (i) w.raw(",");
    w.raw("{");
    w.key("bbox");
    w.box(vp.bbox);
    if (vp.fill) w.raw(",\"fill\":true");
    if (vp.stroke) {
      w.raw(",\"stroke\":true,");
      w.key("line_width");
      w.number(vp.line_width);
    }
    w.raw(",");
    w.key("color");
    w.color(vp.color);
    if (vp.paper) w.raw(",\"paper\":true");
    w.raw("}");
  }
  w.raw("]");
  if (!p.links.empty()) {
    w.raw(",\"links\":[");
    for (size_t i = 0; i < p.links.size(); ++i) {
      const LinkArea& a = p.links[i];
      if (i) w.raw(",");
      w.raw("{");
      w.key("bbox");
      w.box(a.bbox);
      if (!a.uri.empty()) {
        w.raw(",");
        w.key("uri");
        w.string(a.uri);
      }
      if (a.page > 0) {
        w.raw(",");
        w.key("to_page");
        w.integer(a.page);
        if (a.y >= 0) {
          w.raw(",");
          w.key("to_y");
          w.number(a.y);
        }
      }
      w.raw("}");
    }
    w.raw("]");
  }
  if (!p.errors.empty()) {
    w.raw(",\"errors\":[");
    for (size_t i = 0; i < p.errors.size(); ++i) {
      if (i) w.raw(",");
      w.string(p.errors[i]);
    }
    w.raw("]");
  }
  w.raw("}\n");
}

}  // namespace

void write_pages_jsonl(std::ostream& out, const Document& d) {
  out << dump(document_header(d), false);
  std::string line;
  for (size_t i = 0; i < d.pages.size(); ++i) {
    line.clear();
    with_page(d, i, [&](const Page& p) { write_page_line(line, p); });
    out << line;
  }
}

Document read_pages_jsonl(std::istream& in, const std::string& name) {
  Document d;
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty()) continue;
    Json j;
    try {
      j = Json::parse(line);
    } catch (const std::exception& e) {
      throw bad_line(name, n, std::string("not JSON: ") + e.what());
    }
    try {
      if (n == 1) {
        if (j.value("format", "") != kIntermediateFormat)
          throw bad_line(name, n, std::string("not a ") + kIntermediateFormat + " file");
        d.file = j.at("file").get<std::string>();
        d.sha256 = j.at("sha256").get<std::string>();
        d.engine = j.at("engine").get<std::string>();
        d.page_count = j.at("page_count").get<int>();
        const auto& m = j.at("metadata");
        d.metadata = {m.at("title"), m.at("author"), m.at("subject"), m.at("creator"),
                      m.at("producer")};
        for (const auto& o : j.at("outline"))
          d.outline.push_back({o.at("title"), o.at("level"), o.at("page"), o.at("y")});
        for (const auto& w : j.at("warnings")) d.warnings.push_back(diagnostic_from_json(w, d.file));
      } else {
        d.pages.push_back(page_from_json(j));
      }
    } catch (const Error&) {
      throw;
    } catch (const std::exception& e) {
      throw bad_line(name, n, e.what());
    }
  }
  if (n == 0) throw bad_line(name, 0, "empty file");
  return d;
}


void write_book_jsonl(std::ostream& out, const Book& b) {
  Json h;
  h["format"] = "quire-book/1";
  h["id"] = b.id;
  h["title"] = b.title;
  h["authors"] = b.authors;
  h["file"] = b.file;
  h["sha256"] = b.sha256;
  h["page_count"] = b.page_count;
  Json ex = Json::array();
  for (const auto& e : b.excluded)
    ex.push_back({{"title", e.title}, {"kind", e.kind}, {"pages", {e.first_page, e.last_page}}});
  h["excluded"] = std::move(ex);
  Json rm = Json::array();
  for (const auto& r : b.removed) rm.push_back(to_json(r));
  h["removed"] = std::move(rm);
  Json joins = Json::array();
  for (const auto& r : b.joins) joins.push_back(to_json(r));
  h["joins"] = std::move(joins);
  h["ocr_pages"] = b.ocr_pages;
  h["low_confidence_pages"] = b.low_confidence_pages;
  Json warnings = Json::array();
  for (const auto& w : b.warnings) warnings.push_back(to_json(w));
  h["warnings"] = std::move(warnings);
  out << dump(h, false);
  for (const auto& c : b.chapters) {
    Json j;
    j["title"] = c.title;
    j["number"] = c.number;
    j["kind"] = to_string(c.kind);
    j["pages"] = {c.first_page, c.last_page};
    Json blocks = Json::array();
    for (const auto& bl : c.blocks) blocks.push_back(to_json(bl));
    j["blocks"] = std::move(blocks);
    out << dump(j, false);
  }
}

Book read_book_jsonl(std::istream& in, const std::string& name) {
  Book b;
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty()) continue;
    try {
      Json j = Json::parse(line);
      if (n == 1) {
        if (j.value("format", "") != "quire-book/1")
          throw bad_line(name, n, "not a quire-book/1 file");
        b.id = j.at("id");
        b.title = j.at("title");
        b.authors = j.at("authors").get<std::vector<std::string>>();
        b.file = j.at("file");
        b.sha256 = j.at("sha256");
        b.page_count = j.at("page_count");
        for (const auto& e : j.at("excluded"))
          b.excluded.push_back({e.at("title"), e.at("kind"), e.at("pages")[0], e.at("pages")[1]});
        for (const auto& r : j.at("removed")) b.removed.push_back(removal_from_json(r));
        for (const auto& r : j.at("joins")) b.joins.push_back(join_from_json(r));
        b.ocr_pages = j.at("ocr_pages").get<std::vector<int>>();
        b.low_confidence_pages = j.at("low_confidence_pages").get<std::vector<int>>();
        for (const auto& w : j.at("warnings")) b.warnings.push_back(diagnostic_from_json(w, b.file));
      } else {
        Chapter c;
        c.title = j.at("title");
        c.number = j.at("number");
        auto kind = chapter_kind_from_string(j.at("kind").get<std::string>());
        if (!kind) throw std::runtime_error("unknown chapter kind " + j.at("kind").get<std::string>());
        c.kind = *kind;
        c.first_page = j.at("pages")[0];
        c.last_page = j.at("pages")[1];
        for (const auto& bl : j.at("blocks")) c.blocks.push_back(block_from_json(bl));
        b.chapters.push_back(std::move(c));
      }
    } catch (const Error&) {
      throw;
    } catch (const std::exception& e) {
      throw bad_line(name, n, e.what());
    }
  }
  if (n == 0) throw bad_line(name, 0, "empty file");
  return b;
}

}  // namespace quire
