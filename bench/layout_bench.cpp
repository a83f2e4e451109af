// Times layout_document on a cleaned pages file (from `quire clean` or
// `quire build --keep-intermediate`): the best wall and processor time of several runs at
// each thread count, and whether every thread count gives the same result as one thread.
//   layout_bench clean.jsonl [runs=5] [jobs...=1 2]
#include <chrono>
#include <ctime>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "quire/json.h"
#include "quire/layout.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: layout_bench clean.jsonl [runs] [jobs...]\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  quire::Document doc = quire::read_pages_jsonl(in, argv[1]);
  int runs = argc > 2 ? std::atoi(argv[2]) : 5;
  std::vector<int> jobs;
  for (int i = 3; i < argc; ++i) jobs.push_back(std::atoi(argv[i]));
  if (jobs.empty()) jobs = {1, 2};
  quire::LayoutResult first;
  bool have_first = false;
  int status = 0;
  for (int j : jobs) {
    quire::LayoutOptions o;
    o.jobs = j;
    double best = 1e9, best_cpu = 1e9;
    quire::LayoutResult r;
    for (int k = 0; k < runs; ++k) {
      auto t0 = std::chrono::steady_clock::now();
      std::clock_t c0 = std::clock();
      r = quire::layout_document(doc, o);
      double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      best = std::min(best, s);
      best_cpu = std::min(best_cpu, static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC);
    }
    bool same = true;
    if (!have_first) {
      first = r;
      have_first = true;
    } else {
      same = r.chapters == first.chapters && r.excluded == first.excluded && r.joins == first.joins &&
             r.warnings == first.warnings;
      if (!same) status = 1;
    }
    std::cout << argv[1] << " jobs=" << j << " best=" << best << " s cpu=" << best_cpu << " s" << (same ? "" : " DIFFERENT") << "\n";
  }
  return status;
}
