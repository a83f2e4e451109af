// Times clean_document alone (no JSON parsing or writing) on a pages.jsonl file:
//   clean_bench PAGES.jsonl [--jobs N] [--repeat R] [--out CLEAN.jsonl --removed REMOVED.jsonl]
// Each repeat cleans a fresh copy of the parsed document; prints the fastest and the median
// wall seconds, and the fastest CPU seconds of the process (all threads: steadier than wall
// time on a busy machine, and equal to it at --jobs 1). --out/--removed write the result of the last repeat, as `quire clean` does, so
// that a run at --jobs N can be compared byte for byte with the serial output.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "quire/clean.h"
#include "quire/json.h"

int main(int argc, char** argv) {
  using namespace quire;
  std::string input, out_path, removed_path;
  int jobs = 1, repeat = 5;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) { std::cerr << a << " needs a value\n"; std::exit(2); }
      return argv[++i];
    };
    if (a == "--jobs") jobs = std::stoi(value());
    else if (a == "--repeat") repeat = std::max(1, std::stoi(value()));
    else if (a == "--out") out_path = value();
    else if (a == "--removed") removed_path = value();
    else input = a;
  }
  if (input.empty()) {
    std::cerr << "usage: clean_bench PAGES.jsonl [--jobs N] [--repeat R] [--out F --removed F]\n";
    return 2;
  }
  std::ifstream in(input, std::ios::binary);
  const Document original = read_pages_jsonl(in, input);
  CleanOptions options;
  options.jobs = jobs;
  auto cpu_now = [] {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
  };
  std::vector<double> seconds, cpu_seconds;
  Document doc;
  CleanResult result;
  for (int r = 0; r < repeat; ++r) {
    doc = original;
    const double c0 = cpu_now();
    auto t0 = std::chrono::steady_clock::now();
    result = clean_document(doc, options);
    auto t1 = std::chrono::steady_clock::now();
    cpu_seconds.push_back(cpu_now() - c0);
    seconds.push_back(std::chrono::duration<double>(t1 - t0).count());
  }
  if (!out_path.empty()) {
    std::ofstream out(out_path, std::ios::binary);
    write_pages_jsonl(out, doc);
  }
  if (!removed_path.empty()) {
    std::ofstream log(removed_path, std::ios::binary);
    for (const auto& rm : result.removed) log << dump(to_json(rm), false);
  }
  std::sort(seconds.begin(), seconds.end());
  std::sort(cpu_seconds.begin(), cpu_seconds.end());
  std::cout << input << " jobs " << jobs << ": wall min " << seconds.front() << " s, median "
            << seconds[seconds.size() / 2] << " s; cpu min " << cpu_seconds.front() << " s; " << repeat << " runs, "
            << result.removed.size() << " removals\n";
  return 0;
}
