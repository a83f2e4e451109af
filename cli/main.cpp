#include <cstddef>
#include <cstring>
#include <iostream>
#include <string>

#include <boost/program_options/errors.hpp>

#include "commands.h"
#include "quire/error.h"
#include "quire/model.h"

#ifdef QUIRE_JEMALLOC
// jemalloc's settings for this binary (read by jemalloc at its start). A page the program
// has freed stays resident for dirty_decay_ms before jemalloc returns it to the system (10 s
// by default, longer than most builds): the pages a book's extraction frees are then still
// counted while its layout and export allocate anew. A page handed back costs a fault and the
// kernel's zeroing when the next stage wants memory again, so the shorter the decay, the more
// of a build's time goes to faults, and the lower the peak. Three seconds against one, medians
// of five interleaved rounds of the two builds: refman.pdf at one job 4.66 -> 3.80 s (129 ->
// 142 MB peak), at two 2.52 -> 2.22 s (154 -> 182 MB); octave.pdf 2.21 -> 2.16 s and 1.46 ->
// 1.26 s (130 -> 132 MB at two). The choice, from one build under MALLOC_CONF (three rounds,
// two on the 240-PDF shelf at two jobs): one second, refman.pdf 3.48 s at one job and 2.53 s
// at two, the shelf 15.5 s and 201-207 MB; three seconds 3.14-3.26 s, 2.25-2.29 s, 14.2-15.4 s
// and 229-236 MB; five 2.97 s, 2.19 s, 15.0 s and 249-259 MB; ten 3.13 s, 2.22 s, 15.3 s and
// 263-270 MB. One second was chosen when a long book's pages all stayed in memory and a longer
// decay put refman.pdf near 200 MB; with the pages waiting on disk past the spill budget
// (cli/commands.cpp) the peaks have room.
//
// Nothing purges the arenas at once as well: at two jobs each purge makes the kernel flush
// the other thread's TLB (an interrupt to the other core per page range), and the pages the
// other book was about to reuse are faulted in again. On the 240-PDF shelf at two jobs such
// purges (after each book's pages and its verifier's words were freed) cost ~1 s of system
// time and 5% of the wall time, and lowered no peak.
//
// thp:always asks the kernel for transparent huge pages on jemalloc's memory (an madvise, so
// it works where THP is set to "madvise", Debian's default, and is a no-op where it is
// "never"). A build touches two to three times its peak in fresh pages, and each 4 KB page
// was a fault: on this project's 2-core virtual machine refman.pdf's build at one job
// took 86,574 faults and 0.80 s of system time, with THP 27,041 and 0.46 s. Medians of five
// interleaved rounds: refman.pdf 4.14 -> 3.90 s at one job, 3.52 -> 3.10 s at two; octave.pdf
// 2.63 -> 2.46 s and 2.23 -> 1.97 s; the 240-PDF shelf at two jobs 19.4 -> 17.9 s (one job:
// the same). The price is memory held in 2 MB steps: peaks 10-24 MB higher (refman.pdf at two
// jobs 182 -> 199 MB, the shelf 242 -> 259 MB).
//
// narenas:1: one arena for every thread, where jemalloc gives each CPU four. A thread takes
// its memory from its own arena, and what another thread freed into another arena is of no
// use to it until that arena's decay hands it back to the kernel: at two jobs the page
// readers, layout's helpers and the thread that frees a book's pages each fill their own,
// while the next stage faults in fresh pages. With one arena every thread reuses what any
// freed; the thread caches keep the small allocations off its lock. Medians of interleaved
// rounds at two jobs: refman.pdf 3.33 -> 3.01 s and 196 -> 189 MB peak (five rounds; another
// batch 3.05 -> 2.77 s, 198 -> 194 MB), octave.pdf 2.11 -> 1.95 s and 171 -> 154 MB, the
// 240-PDF shelf 18.8 -> 18.0 s and 254 -> 237 MB (three rounds); at one job refman.pdf the
// same time, 173 -> 169 MB. On a machine with many cores and --jobs to match, the one arena's
// lock may tell on large allocations: MALLOC_CONF=narenas:N there sets more.
extern "C" const char* malloc_conf;
const char* malloc_conf = "dirty_decay_ms:3000,thp:always,narenas:1";
#endif

namespace {

struct Command {
  const char* name;
  int (*run)(const quire::cli::Args&);
  const char* summary;
};

const Command kCommands[] = {
    {"build", quire::cli::cmd_build, "build a corpus and reading site from a folder of PDFs"},
    {"verify", quire::cli::cmd_verify, "prove that a corpus has its PDFs' words, minus logged furniture"},
    {"diff", quire::cli::cmd_diff, "compare two corpora (e.g. against golden fixtures)"},
    {"merge", quire::cli::cmd_merge, "join the outputs of `build --shard I/N` runs into one corpus"},
    {"inspect", quire::cli::cmd_inspect, "draw what quire decided over a book's pages (PNGs, index.html)"},
    {"extract", quire::cli::cmd_extract, "PDF -> pages.jsonl (spans, images, paths, outline)"},
    {"clean", quire::cli::cmd_clean, "pages.jsonl -> pages.jsonl without furniture + removed.jsonl"},
    {"layout", quire::cli::cmd_layout, "pages.jsonl -> book.jsonl (chapters of typed blocks)"},
    {"options", quire::cli::cmd_options, "the stages' tuning options (for --set) as a Markdown table"},
};

void usage(std::ostream& out) {
  out << "quire " << quire::kVersion
      << " - PDF books to a normalized chapter corpus and a static reading site, without changing a word\n\n"
         "usage: quire <command> [options]   (quire <command> --help for its options)\n\ncommands:\n";
  for (const auto& c : kCommands) {
    std::string n = c.name;
    n.resize(10, ' ');
    out << "  " << n << c.summary << "\n";
  }
  out << "\nexit codes: 0 ok, 1 differences found (diff/verify), 2 usage, 3 built with warnings,\n"
         "  4 a book failed (others built), 5 file not found, 6 not a PDF, 7 encrypted,\n"
         "  8 page range outside the document, 9 map error, 10 bad intermediate file, 11 cannot write\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    usage(std::cerr);
    return static_cast<int>(quire::ExitCode::Usage);
  }
  std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    usage(std::cout);
    return 0;
  }
  if (name == "--version" || name == "-V") {
    std::cout << "quire " << quire::kVersion << "\n";
    return 0;
  }
  quire::cli::Args args(argv + 2, argv + argc);
  for (const auto& c : kCommands) {
    if (name != c.name) continue;
    try {
      return c.run(args);
    } catch (const quire::Error& e) {
      std::cerr << "quire " << name << ": error: " << e.message() << "\n";
      return static_cast<int>(e.code);
    } catch (const boost::program_options::error& e) {
      std::cerr << "quire " << name << ": " << e.what() << " (see quire " << name << " --help)\n";
      return static_cast<int>(quire::ExitCode::Usage);
    } catch (const std::exception& e) {
      std::cerr << "quire " << name << ": internal error: " << e.what() << "\n";
      return static_cast<int>(quire::ExitCode::Internal);
    }
  }
  std::cerr << "quire: unknown command '" << name << "'\n\n";
  usage(std::cerr);
  return static_cast<int>(quire::ExitCode::Usage);
}
