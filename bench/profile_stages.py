#!/usr/bin/env python3
"""Where a build's CPU time goes, stage by stage, from `perf script` output of a sampling
profile recorded with call graphs (bench/profile.sh makes one).

usage: perf script -i perf.data | bench/profile_stages.py [--top N]

Prints the share of samples under each stage's entry function (inclusive), then for each
stage the functions its samples spend their own time in (the leaf frame), most first.
"""
import collections
import re
import sys

# A stage: the frame its samples pass through (a prefix of the demangled name).
STAGES = [
    ("extract: pages", "quire::detail::(anonymous namespace)::run_page"),
    ("extract: link targets", "quire::detail::(anonymous namespace)::dest_target"),
    ("extract: outline, labels", "quire::detail::read_document_level"),
    ("extract (all)", "quire::extract_document"),
    ("clean", "quire::clean_document"),
    ("layout", "quire::layout_document"),
    ("verify", "quire::verify_book"),
    ("export: book", "quire::export_book"),
    ("export: corpus, site, search", "quire::export_index"),
]
FRAME = re.compile(r"\s*[0-9a-f]+ (.*?)(\+0x[0-9a-f]+)? \(")


def samples(stream):
    frames = []
    for line in stream:
        if not line.strip():
            if frames:
                yield frames
            frames = []
            continue
        m = FRAME.match(line)
        if m:
            frames.append(m.group(1))
    if frames:
        yield frames


def main():
    top = 8
    if len(sys.argv) > 2 and sys.argv[1] == "--top":
        top = int(sys.argv[2])
    total = 0
    under = collections.Counter()
    leaves = {name: collections.Counter() for name, _ in STAGES}
    for frames in samples(sys.stdin):
        total += 1
        for name, prefix in STAGES:
            if any(f.startswith(prefix) for f in frames):
                under[name] += 1
                leaves[name][frames[0][:90]] += 1
    if not total:
        sys.exit("no samples (record with --call-graph dwarf; see bench/profile.sh)")
    print(f"{total} samples")
    print(f"{'stage':32} {'share':>7}")
    for name, _ in STAGES:
        print(f"{name:32} {100.0 * under[name] / total:6.1f}%")
    for name, _ in STAGES:
        if not under[name]:
            continue
        print(f"\n{name}: own time")
        for leaf, n in leaves[name].most_common(top):
            print(f"  {100.0 * n / total:5.1f}%  {leaf}")


if __name__ == "__main__":
    main()
