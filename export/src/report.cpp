// site/report.html: what the build saw and did, book by book, for the person who runs it.
// The plots are inline SVG drawn here: numbers in, rectangles and paths out, coordinates in
// whole tenths written without the locale, so the page is the same bytes on every run.
// Wall-clock seconds are left out on purpose: they differ from run to run, and the corpus
// (site included) is byte-identical across runs and --jobs; `quire build --log json` reports
// them per book and stage.
#include <algorithm>
#include <cmath>

#include "site.h"
#include "util.h"

namespace quire::exporting {

namespace {

std::string esc(std::string_view s) { return html_escape(s); }

// A coordinate: whole tenths, '.' as the decimal mark whatever the locale.
std::string num(double v) {
  const long t = std::lround(v * 10.0);
  const long a = std::labs(t);
  std::string s = t < 0 ? "-" : "";
  s += std::to_string(a / 10);
  if (a % 10) s += "." + std::to_string(a % 10);
  return s;
}

// 12345 -> "12,345": the counts a reader compares at a glance.
std::string grouped(long n) {
  std::string d = std::to_string(std::labs(n)), out;
  for (size_t i = 0; i < d.size(); ++i) {
    if (i && (d.size() - i) % 3 == 0) out += ',';
    out += d[i];
  }
  if (n < 0) out.insert(out.begin(), '-');
  return out;
}

std::string plural(long n, const char* one, const char* many) { return grouped(n) + " " + (n == 1 ? one : many); }

std::string reason_name(std::string r) {
  std::replace(r.begin(), r.end(), '-', ' ');
  return r;
}

// The geometry of every plot: a fixed viewBox that the page scales to its width.
struct PlotBox {
  static constexpr double kWidth = 640, kHeight = 150;  // viewBox units
  static constexpr double kMaxBar = 40;  // a few chapters make narrow bars, not slabs
  static constexpr double kLeft = 46, kRight = 8, kTop = 10, kBottom = 22;  // room for the axis labels
  double inner_width() const { return kWidth - kLeft - kRight; }
  double inner_height() const { return kHeight - kTop - kBottom; }
};

// A bar chart of `values` (one bar each, in order), with the largest value on the axis. A bar's
// tooltip (<title>) names it. With more bars than fit, bars are drawn as one path of thin
// columns. `label` says what the plot shows, for screen readers and as its caption.
// With `label_bars`, each bar's name is written under it instead of `x_label` (a few bars).
std::string bar_chart(const std::vector<long>& values, const std::vector<std::string>& names, const std::string& label,
                      const std::string& x_label, bool label_bars = false, const std::string& unit = "") {
  constexpr size_t kMaxRects = 400;  // above this a <rect> with a <title> each makes the page heavy
  PlotBox box;
  const long top = values.empty() ? 0 : *std::max_element(values.begin(), values.end());
  std::string o = "<figure class=\"plot\"><svg viewBox=\"0 0 " + num(PlotBox::kWidth) + " " + num(PlotBox::kHeight) +
                  "\" role=\"img\" aria-label=\"" + esc(label) + "\">";
  const double x0 = PlotBox::kLeft, y0 = PlotBox::kTop + box.inner_height();
  o += "<path class=\"axis\" d=\"M" + num(x0) + " " + num(PlotBox::kTop) + "V" + num(y0) + "H" +
       num(x0 + box.inner_width()) + "\"/>";
  o += "<text class=\"tick\" x=\"" + num(x0 - 4) + "\" y=\"" + num(PlotBox::kTop + 8) + "\" text-anchor=\"end\">" +
       grouped(top) + "</text>";
  o += "<text class=\"tick\" x=\"" + num(x0 - 4) + "\" y=\"" + num(y0) + "\" text-anchor=\"end\">0</text>";
  if (!label_bars)
    o += "<text class=\"tick\" x=\"" + num(x0 + box.inner_width() / 2) + "\" y=\"" + num(PlotBox::kHeight - 6) +
         "\" text-anchor=\"middle\">" + esc(x_label) + "</text>";
  if (top <= 0)
    o += "<text class=\"tick\" x=\"" + num(x0 + box.inner_width() / 2) + "\" y=\"" + num(PlotBox::kTop + box.inner_height() / 2) +
         "\" text-anchor=\"middle\">none</text>";
  if (!values.empty() && top > 0) {
    const double step = std::min(PlotBox::kMaxBar, box.inner_width() / static_cast<double>(values.size()));
    const double gap = step > 4 ? std::min(2.0, step * 0.2) : 0;
    if (values.size() <= kMaxRects) {
      for (size_t i = 0; i < values.size(); ++i) {
        const double h = box.inner_height() * static_cast<double>(values[i]) / static_cast<double>(top);
        o += "<rect class=\"bar\" x=\"" + num(x0 + step * static_cast<double>(i) + gap / 2) + "\" y=\"" + num(y0 - h) +
             "\" width=\"" + num(std::max(0.1, step - gap)) + "\" height=\"" + num(h) + "\"><title>" +
             esc(i < names.size() ? names[i] : std::to_string(i + 1)) + ": " + grouped(values[i]) + unit + "</title></rect>";
        if (label_bars && i < names.size())
          o += "<text class=\"tick\" x=\"" + num(x0 + step * (static_cast<double>(i) + 0.5)) + "\" y=\"" +
               num(PlotBox::kHeight - 6) + "\" text-anchor=\"middle\">" + esc(names[i]) + "</text>";
      }
    } else {
      std::string d;
      for (size_t i = 0; i < values.size(); ++i) {
        if (values[i] <= 0) continue;
        const double h = box.inner_height() * static_cast<double>(values[i]) / static_cast<double>(top);
        d += "M" + num(x0 + step * (static_cast<double>(i) + 0.5)) + " " + num(y0) + "v-" + num(h);
      }
      o += "<path class=\"columns\" stroke-width=\"" + num(std::max(0.5, step)) + "\" d=\"" + d + "\"/>";
    }
  }
  o += "</svg><figcaption>" + esc(label) + "</figcaption></figure>\n";
  return o;
}

std::string ledger_text(const WordLedger& l) {
  std::string s = grouped(l.extracted) + " words extracted = " + grouped(l.text) + " in the text + " +
                  grouped(l.labels) + " in figure labels + " + grouped(l.removed_total()) + " in furniture";
  for (size_t i = 0; i < l.removed.size(); ++i)
    s += (i ? ", " : " (") + grouped(l.removed[i].second) + " " + reason_name(l.removed[i].first) +
         (i + 1 == l.removed.size() ? ")" : "");
  s += " + " + grouped(l.excluded) + " in left-out matter.";
  if (l.differences())
    s += " " + grouped(l.missing) + " missing, " + grouped(l.added) + " added, " + grouped(l.misplaced) + " misplaced.";
  return s;
}

std::string check_cell(const SiteBook& b) {
  if (!b.ledger) return "<td class=\"muted\">not run</td>";
  const long d = b.ledger->differences();
  return d ? "<td class=\"bad\">" + plural(d, "difference", "differences") + "</td>" : "<td class=\"good\">every word kept</td>";
}

std::string book_section(const SiteBook& b) {
  long words = 0, figures = 0;
  for (const auto& c : b.chapters) {
    words += static_cast<long>(c.words);
    figures += c.figures;
  }
  long furniture = 0;
  for (const auto& [r, n] : b.furniture) furniture += n;
  std::string o = "<section class=\"book\" id=\"book-" + esc(b.id) + "\">\n<h2>" + esc(b.title) + "</h2>\n<dl class=\"facts\">\n";
  o += "<dt>Pages</dt><dd>" + grouped(b.pages) + "</dd>\n";
  o += "<dt>Chapters</dt><dd>" + grouped(static_cast<long>(b.chapters.size())) + "</dd>\n";
  o += "<dt>Words</dt><dd>" + grouped(words) + "</dd>\n";
  o += "<dt>Figures</dt><dd>" + grouped(figures) + "</dd>\n";
  o += "<dt>Furniture removed</dt><dd>" + grouped(furniture);
  if (!b.furniture.empty()) {
    std::string parts;
    for (const auto& [r, n] : b.furniture) parts += (parts.empty() ? "" : ", ") + grouped(n) + " " + esc(reason_name(r));
    o += " (" + parts + ")";
  }
  o += "</dd>\n";
  o += "<dt>Hyphens joined</dt><dd>" + grouped(b.joins) + "</dd>\n";
  auto page_list = [](const std::vector<int>& pages) {
    std::string s;
    for (int p : pages) s += (s.empty() ? "" : ", ") + std::to_string(p);
    return s;
  };
  o += "<dt>Pages read by OCR</dt><dd>" + grouped(static_cast<long>(b.ocr_page_list.size())) +
       (b.ocr_page_list.empty() ? std::string()
                                  : (b.ocr_page_list.size() == 1 ? " (page " : " (pages ") + page_list(b.ocr_page_list) + ")") + "</dd>\n";
  if (!b.low_confidence_pages.empty())
    o += "<dt>OCR pages of low confidence</dt><dd>" + page_list(b.low_confidence_pages) + "</dd>\n";
  o += "<dt>Wording check</dt><dd>" +
       (b.ledger ? std::string(b.ledger->differences() ? "<strong class=\"bad\">differences</strong>: "
                                                       : "<strong class=\"good\">every word kept</strong>: ") +
                       esc(ledger_text(*b.ledger))
                 : std::string("not run (built with --no-verify)")) +
       "</dd>\n";
  o += "<dt>Warnings</dt><dd>" + grouped(static_cast<long>(b.warnings.size())) + "</dd>\n</dl>\n";
  if (!b.warnings.empty()) {
    o += "<details class=\"warnings\"><summary>" + plural(static_cast<long>(b.warnings.size()), "warning", "warnings") +
         "</summary><ul>\n";
    for (const auto& w : b.warnings) o += "<li>" + esc(w) + "</li>\n";
    o += "</ul></details>\n";
  }
  std::vector<long> per_chapter;
  std::vector<std::string> names;
  for (const auto& c : b.chapters) {
    per_chapter.push_back(static_cast<long>(c.words));
    names.push_back((c.number.empty() ? std::string() : c.number + " ") + c.title);
  }
  o += bar_chart(per_chapter, names, "Words per chapter of " + b.title, "chapters, in book order");
  std::vector<std::string> pages;
  for (size_t p = 0; p < b.removed_per_page.size(); ++p) pages.push_back("page " + std::to_string(p + 1));
  o += bar_chart(b.removed_per_page, pages, "Furniture removed per page of " + b.title,
                 "pages 1 to " + std::to_string(b.removed_per_page.size()));
  if (!b.seconds.empty()) {
    std::vector<long> ms;
    std::vector<std::string> stages;
    for (const auto& [stage, s] : b.seconds) {
      ms.push_back(std::lround(s * 1000.0));
      stages.push_back(stage);
    }
    o += bar_chart(ms, stages, "Milliseconds per stage of " + b.title, "", true, " ms");
  }
  o += "</section>\n";
  return o;
}

}  // namespace

std::string report_page(const SiteModel& site) {
  std::string o = page_head("Build report — " + site.title, "");
  o += "<body class=\"report\">\n" + site_header(site, "", "");
  o += "<main id=\"content\" tabindex=\"-1\">\n<h1>Build report</h1>\n";
  bool timed = false;
  for (const auto& b : site.books) timed = timed || !b.seconds.empty();
  o += "<p class=\"intro\">What quire saw in each book and what it did: pages, chapters and words, the page "
       "furniture it removed, figures, pages read by OCR, warnings, and the wording check, which accounts for every "
       "word on the pages. ";
  o += timed ? "The times are this build's (<code>--report-times</code>); a book taken from the cache has none.</p>\n"
             : "Seconds per stage are left out, as they change from run to run and the site does not: "
               "<code>quire build --report-times</code> puts them here, and <code>--log json</code> reports them.</p>\n";
  o += "<div class=\"scroll\"><table class=\"overview\">\n<thead><tr><th>Book</th><th>Pages</th><th>Chapters</th>"
       "<th>Words</th><th>Furniture</th><th>Figures</th><th>OCR pages</th><th>Warnings</th><th>Wording check</th>" +
       std::string(timed ? "<th>Seconds</th>" : "") + "</tr></thead>\n<tbody>\n";
  std::vector<std::pair<std::string, double>> stage_total;  // all books', per stage, in stage order
  std::vector<long> book_words;
  std::vector<std::string> book_names;
  for (const auto& b : site.books) {
    long words = 0, figures = 0, furniture = 0;
    for (const auto& c : b.chapters) {
      words += static_cast<long>(c.words);
      figures += c.figures;
    }
    for (const auto& [r, n] : b.furniture) furniture += n;
    o += "<tr><td><a href=\"#book-" + esc(b.id) + "\">" + esc(b.short_name.empty() ? b.title : b.short_name) +
         "</a></td><td>" + grouped(b.pages) + "</td><td>" + grouped(static_cast<long>(b.chapters.size())) + "</td><td>" +
         grouped(words) + "</td><td>" + grouped(furniture) + "</td><td>" + grouped(figures) + "</td><td>" +
         grouped(static_cast<long>(b.ocr_page_list.size())) + "</td><td" +
         (b.warnings.empty() ? std::string(">") : std::string(" class=\"bad\">")) +
         grouped(static_cast<long>(b.warnings.size())) + "</td>" + check_cell(b);
    if (timed) {
      double total = 0;
      for (size_t k = 0; k < b.seconds.size(); ++k) {
        total += b.seconds[k].second;
        if (k >= stage_total.size()) stage_total.push_back({b.seconds[k].first, 0});
        stage_total[k].second += b.seconds[k].second;
      }
      o += b.seconds.empty() ? std::string("<td class=\"muted\">cached</td>") : "<td>" + num(total) + "</td>";
    }
    o += "</tr>\n";
    book_words.push_back(words);
    book_names.push_back(b.short_name.empty() ? b.title : b.short_name);
  }
  o += "</tbody>\n</table></div>\n";
  if (site.books.size() > 1) o += bar_chart(book_words, book_names, "Words per book", "books, in map order");
  if (!stage_total.empty()) {
    std::vector<long> ms;
    std::vector<std::string> stages;
    for (const auto& [stage, s] : stage_total) {
      ms.push_back(std::lround(s * 1000.0));
      stages.push_back(stage);
    }
    o += bar_chart(ms, stages, "Milliseconds per stage, summed over the books", "", true, " ms");
  }
  for (size_t b = 0; b < site.books.size(); ++b) o += book_section(site.books[b]);
  o += "</main>\n</body>\n</html>\n";
  return o;
}

}  // namespace quire::exporting
