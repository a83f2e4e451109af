// Block builder: rows in reading order -> typed blocks, one open block at a time; a figure
// waits for the paragraph it interrupts, footnotes for the block they break into.
#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <optional>

#include "internal.h"
#include "quire/text.h"
#include "quire/typography.h"
#include "builder.h"
#include "page_passes.h"
#include "tables.h"

namespace quire::detail {

namespace {

// The last character of a row's text, closing quotes and brackets aside, is a colon.
bool ends_with_colon(const std::string& t) {
  size_t end = t.find_last_not_of(" )\"'");
  return end != std::string::npos && t[end] == ':';
}

}  // namespace

Block Builder::make(BlockType t, const std::vector<const Row*>& rs) {
  Block b;
  b.type = t;
  b.page = rs.front()->page;
  b.last_page = rs.back()->page;
  b.bbox = rs.front()->bbox;
  for (const Row* r : rs)
    if (r->page == b.page) b.bbox = b.bbox.united(r->bbox);
  b.drawn_marker = t == BlockType::ListItem && rs.front()->drawn_marker;
  return b;
}

void Builder::push(Block b, const std::vector<const Row*>& rs, bool text) {
  const BlockType b_type = b.type;
  double sz = 0;
  for (const Row* r : rs) sz = std::max(sz, r->size);
  out.push_back(std::move(b));
  sizes.push_back(sz);
  text_rows.push_back(text ? rs : std::vector<const Row*>{});
  Shape sh;
  if (text && !rs.empty()) {
    const Row& f = *rs.front();
    sh.page = f.page;
    sh.column = f.column;
    sh.left = f.bbox.x0 - f.col_left;
    sh.flush = true;
    sh.first_baseline = f.baseline;
    sh.size = f.size;
    for (const Row* r : rs) {
      if (r->page != f.page || r->column != f.column) {
        sh.flush = false;
        break;
      }
      ++sh.rows;
      sh.flush = sh.flush && std::fabs(r->bbox.x0 - r->col_left - sh.left) <= o.lines.edge_tolerance;
      sh.last_baseline = r->baseline;
      sh.gapped = sh.gapped || r->lines.size() > 1;
      sh.short_end = r->bbox.x1 < r->col_right - o.blocks.short_line_ratio * r->size;
    }
    // What a term's words are asked (only a block of a few rows can be one).
    if (sh.rows <= o.blocks.max_term_rows) {
      size_t last_words = 0;
      for (size_t k = 0; k < sh.rows; ++k) {
        last_words = whitespace_token_count(rs[k]->text);
        sh.words += last_words;
      }
      const std::string& t = rs[sh.rows - 1]->text;
      sh.colon_end = ends_with_colon(t);
      sh.sentence_end = rs[sh.rows - 1]->full_stop && !sh.colon_end && last_words >= o.blocks.sentence_min_words;
      sh.broken_end = t.size() >= 2 && t.back() == '-' && std::isalpha(static_cast<unsigned char>(t[t.size() - 2]));
    }
  }
  // A paragraph's first line set in from the rest: the book's paragraph indent.
  if (b_type == BlockType::Paragraph && text && rs.size() >= 2 && rs[1]->page == rs[0]->page &&
      rs[1]->column == rs[0]->column) {
    const double in = rs[0]->bbox.x0 - rs[1]->bbox.x0;
    if (in > o.blocks.indent_ratio * rs[0]->size &&
        in < o.blocks.short_line_ratio * o.blocks.indent_max_factor * rs[0]->size)
      ++first_indents[typography::half_point_key(in)];
  }
  // (As known when the block is made, so that a decision on it never waits for later ones.)
  if (!first_indents.empty()) {
    auto most = std::max_element(first_indents.begin(), first_indents.end(),
                                 [](const auto& x, const auto& y) { return x.second < y.second; });
    if (most->second >= o.blocks.book_indent_min_paragraphs)
      sh.book_indent = typography::from_half_point_key(most->first);
  }
  shapes.push_back(sh);
  captioned.push_back(false);
  titled.push_back(kUntitled);
}

int Builder::first_page_in_use() const {
  int page = INT_MAX;
  for (const Row* r : rows) page = std::min(page, r->page);
  for (const auto& n : notes)
    for (const Row* r : n) page = std::min(page, r->page);
  for (const FigureItem* f : pending) page = std::min(page, f->page);
  for (size_t i = texts_made; i < text_rows.size(); ++i)
    for (const Row* r : text_rows[i]) page = std::min(page, r->page);
  return page;
}

void Builder::emit_figure(const FigureItem& f) {
  Block b;
  b.type = BlockType::Figure;
  b.page = b.last_page = f.page;
  b.bbox = f.bbox;
  b.labels = f.labels;
  if (!f.caption.empty()) {
    std::vector<const Row*> rs;
    for (const auto& r : f.caption) rs.push_back(&r);
    Block c = make(BlockType::Caption, rs);
    push(std::move(b), rs, false);  // (its figure_ref comes from the caption's text)
    captioned.back() = true;
    push(std::move(c), rs);
  } else {
    push(std::move(b), {}, false);
  }
}

void Builder::close() {
  if (open()) {
    BlockType t = type;
    if (t == BlockType::Paragraph && rows.front()->caption) t = BlockType::Caption;
    Block b = make(t, rows);
    nest(b, rows);
    if (t == BlockType::Note) {
      b.kind = open_kind;
      b.title = open_title;
    }
    push(std::move(b), rows);
    if (t == BlockType::Note) titled.back() = open_titled;
    rows.clear();
    open_box = -1;
    open_region = Box();
  }
  // Waiting figures and footnotes in page order: a page's footnotes close that page, so a
  // float from the next page's top comes after them, one from the same page before.
  size_t f = 0;
  for (const auto& n : notes) {
    for (; f < pending.size() && pending[f]->page <= n.front()->page; ++f) emit_figure(*pending[f]);
    push(make(BlockType::Footnote, n), n);
  }
  for (; f < pending.size(); ++f) emit_figure(*pending[f]);
  pending.clear();
  notes.clear();
}

void Builder::nest(Block& b, const std::vector<const Row*>& rs) {
  const Row& first = *rs.front();
  double x = first.bbox.x0 - first.col_left;
  if (b.type == BlockType::ListItem) {
    while (!list_edges.empty() && x < list_edges.back() - o.lines.edge_tolerance) list_edges.pop_back();
    if (list_edges.empty() || x > list_edges.back() + o.lines.edge_tolerance) list_edges.push_back(x);
    b.level = static_cast<int>(list_edges.size());
    return;
  }
  if (rs.size() > 1 && rs[1]->page == first.page) x = std::min(x, rs[1]->bbox.x0 - rs[1]->col_left);
  if (b.type == BlockType::Heading || (b.type != BlockType::Footnote && b.type != BlockType::Caption &&
                                       !list_edges.empty() && x <= list_edges.front() + o.lines.edge_tolerance))
    list_edges.clear();
}

void Builder::start(BlockType t, const Row& r) {
  close();
  type = t;
  rows = {&r};
}

void Builder::row(const Row& r) {
  // Footnotes of a page wait until the block open at the page's end is finished (it may
  // continue on the next page or column).
  if (r.footnote && open() && type != BlockType::Footnote) {
    if (notes.empty() || starts_with_note_mark(r, st.bracketed_marks)) notes.push_back({&r});
    else notes.back().push_back(&r);
    return;
  }
  if (continues(r)) {
    rows.push_back(&r);
    if (const NoteSpot* n = type == BlockType::Note ? note_of(r) : nullptr) open_region = n->region;
    return;
  }
  BlockType t = BlockType::Paragraph;
  const NoteSpot* n = note_of(r);
  if (n && !r.footnote && run_of(r) < 0 && (!n->title.empty() || (!r.mono && r.marker == 0 && !r.drawn_marker))) {
    start(BlockType::Note, r);
    open_box = n->box;
    open_region = n->region;
    open_kind = n->kind;
    open_title = n->title;
    open_titled = n->title.empty() ? kUntitled : n->whole ? kTitleRow : kRunInTitle;
    return;
  }
  if (r.footnote) t = BlockType::Footnote;
  else if (run_of(r) >= 0) t = BlockType::Table;
  else if ((r.mono && !mono_heading(r)) || r.sign_inside) t = BlockType::Code;
  // A caption's label ("Table 2.2:") makes a caption of a row set as large or bold as a
  // heading (XSL-FO sets its captions so): a heading is numbered, never labelled.
  else if (is_heading(r) && !r.caption) t = BlockType::Heading;
  else if (r.marker || r.drawn_marker) t = BlockType::ListItem;
  start(t, r);
}

void Builder::figure(const FigureItem& f) {
  // A figure stands at a paragraph boundary: after the block that is open when the flow
  // reaches it (a paragraph running around the figure is finished first).
  if (open() && (type == BlockType::Paragraph || type == BlockType::ListItem || type == BlockType::Note)) {
    pending.push_back(&f);
    return;
  }
  close();
  emit_figure(f);
}

struct BlockStream::Impl {
  Builder b;
};

BlockStream::BlockStream(const BookStats& st, const WordEvidence& ev, const LayoutOptions& o, std::vector<HyphenJoin>& joins)
    : impl_(std::make_unique<Impl>(Impl{Builder(st, ev, o, joins)})) {
  // Room for the blocks at once: grown by doubling, the blocks were moved again and again,
  // each time into memory the kernel had to fault in and zero (refman.pdf at two jobs: 107
  // of the block builder's thread's 719 samples in push, most of them the kernel zeroing
  // pages). A text block has a line at least, and a book's blocks are seldom more than half
  // its lines (the 240-PDF shelf: 170,265 blocks from 569,658 lines; a slide deck of figures
  // can have more blocks than lines): past that the vectors grow as before.
  const size_t blocks = st.lines / 2 + 64;
  Builder& b = impl_->b;
  b.out.reserve(blocks);
  b.sizes.reserve(blocks);
  b.join_ends.reserve(blocks);
  b.text_rows.reserve(blocks);
  b.shapes.reserve(blocks);
  b.captioned.reserve(blocks);
  b.titled.reserve(blocks);
}

BlockStream::~BlockStream() = default;

void BlockStream::add_page(const std::vector<Item>& items, const PageDecor& decor) {
  Builder& b = impl_->b;
  const LayoutOptions& o = b.o;
  const BookStats& st = b.st;
  b.table_run.clear();
  std::vector<const Line*> open_cells;  // the last full row of a table open at the page break
  if (b.open() && b.type == BlockType::Table)
    for (auto it = b.rows.rbegin(); it != b.rows.rend() && open_cells.empty(); ++it)
      if ((*it)->lines.size() >= o.tables.min_header_table_cells) open_cells = (*it)->lines;
  std::vector<RuledGrid> grids;
  find_tables(items, o, b.tables, b.table_run, open_cells, decor.bars, decor.rules, &grids, decor.fills);
  if (!items.empty()) {
    const int page = items.front().kind == Item::Figure ? items.front().figure.page : items.front().row.page;
    for (const Box& r : decor.rules) b.rules.push_back({page, r});
    for (const Box& r : decor.bars) b.bars.push_back({page, r});
    for (RuledGrid& g : grids) b.grids.push_back({page, std::move(g)});
  }
  b.find_notes(items, decor);
  b.find_justified_right(items);
  auto feed = [&](const Item& it) {
    if (it.kind == Item::Figure) b.figure(it.figure);
    else if (!it.parts.empty() && b.run_of(it.row) < 0 && !b.note_of(it.row))
      for (const Row& part : it.parts) b.row(part);
    else b.row(it.row);
  };
  for (size_t i = 0; i < items.size(); ++i) {
    // A float (figure, table with its caption) at the top of a new page or column, over
    // the continuation of a block open at the break: the float waits for the block to end.
    // (What is looked at ahead is on the same page.)
    const Row* prev = b.open() ? b.rows.back() : nullptr;
    const Item& first = items[i];
    int page = first.kind == Item::Figure ? first.figure.page : first.row.page;
    if (prev && page != prev->page) {
      size_t j = i;
      bool has_float = false, ended = false;
      int column = -1;  // of the text after the float
      while (j < items.size() && j - i < o.blocks.max_float_items) {
        const Item& it = items[j];
        if (it.kind == Item::Figure) {
          if (it.figure.page != page) break;
          has_float = true;
        } else {
          if (it.row.page != page || it.row.footnote) break;
          // Text before any float (a heading, a paragraph): the page does not open with one.
          if (!has_float && !it.row.caption && b.run_of(it.row) < 0) break;
          // After the float, a heading, or a column of text gone through to the next one:
          // the block ended at the break.
          if (has_float && !it.row.caption && b.run_of(it.row) < 0) {
            if (it.row.size >= o.blocks.heading_size_ratio * st.body_size ||
                (column >= 0 && it.row.column >= 0 && it.row.column != column)) {
              ended = true;
              break;
            }
            if (it.row.column >= 0) column = it.row.column;
          }
          if (j > i && has_float && b.continues(it.row)) {
            const Item& before = items[j - 1];
            Box above = before.kind == Item::Figure ? before.figure.bbox : before.row.bbox;
            if (it.row.bbox.y0 - above.y1 >= o.blocks.float_separation_ratio * st.body_size) break;
          }
          if (it.row.caption) has_float = true;
        }
        ++j;
      }
      // (Outside TeX, a float does not wait for a sentence that has ended: see continues_prose.)
      bool found = has_float && !ended && j < items.size() && j > i && items[j].kind == Item::Text &&
                   items[j].row.page == page && !items[j].row.footnote && b.continues(items[j].row) &&
                   (b.ev.tex || !prev->full_stop);
      if (found) {
        // Feed the continuation first, then the float group, then go on after it.
        size_t k = j;
        while (k < items.size() && items[k].kind == Item::Text && items[k].row.page == page &&
               !items[k].row.footnote && b.continues(items[k].row))
          feed(items[k++]);
        for (size_t q = i; q < j; ++q) feed(items[q]);
        i = k - 1;
        continue;
      }
    }
    feed(first);
  }
}

void BlockStream::make_texts() { impl_->b.make_texts(false); }

int BlockStream::first_page_in_use() const { return impl_->b.first_page_in_use(); }

std::vector<Block> BlockStream::finish(std::vector<double>& sizes, std::vector<size_t>& join_ends) {
  Builder& b = impl_->b;
  b.close();
  b.make_texts();
  sizes = std::move(b.sizes);
  join_ends = std::move(b.join_ends);
  return std::move(b.out);
}


}  // namespace quire::detail
