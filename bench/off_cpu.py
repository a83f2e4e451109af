#!/usr/bin/env python3
"""Where a build's threads wait rather than run, from `perf script` output of a recording of
sched:sched_switch with call graphs (see bench/README.md).

usage: perf script -i sw.data -F tid,time,event,trace,ip,sym | bench/off_cpu.py [--threads N] [--top N]

A thread waits from the moment it is switched away while sleeping (state S or D) until it is
next switched in. The waits are summed by the innermost quire frames of the stack at the
switch away, for the N threads that switched most (a batch's book workers; default 2).
"""
import collections
import re
import sys

HEAD = re.compile(r"\s*(\d+)\s+(\d+\.\d+):.*prev_pid=(\d+) .*prev_state=(\S+) ==> .*next_pid=(\d+)")


def main():
    args = sys.argv[1:]
    threads = int(args[args.index("--threads") + 1]) if "--threads" in args else 2
    top = int(args[args.index("--top") + 1]) if "--top" in args else 20
    events, cur = [], None
    for line in sys.stdin:
        if not line.strip():
            if cur:
                events.append(cur)
            cur = None
            continue
        m = HEAD.match(line)
        if m:
            cur = (float(m.group(2)), int(m.group(3)), m.group(4), int(m.group(5)), [])
        elif cur is not None:
            parts = line.split(None, 1)
            cur[4].append(parts[1].strip() if len(parts) > 1 else "?")
    if cur:
        events.append(cur)
    if not events:
        sys.exit("no sched_switch events on stdin")
    switches = collections.Counter(e[1] for e in events)
    watched = {tid for tid, _ in switches.most_common(threads)}
    away, waited, count, per_thread = {}, collections.Counter(), collections.Counter(), collections.Counter()
    for t, prev, state, nxt, stack in events:
        if nxt in away:
            since, where = away.pop(nxt)
            waited[where] += t - since
            count[where] += 1
            per_thread[nxt] += t - since
        if prev in watched and state[:1] in ("S", "D"):
            frames = [f for f in stack if "quire::" in f]
            if frames:
                at = stack.index(frames[0])
                where = " < ".join(re.sub(r"\(.*", "", f)[:60] for f in stack[max(0, at - 2):at + 2])
            else:
                where = stack[0] if stack else "?"
            away[prev] = (t, where)
    span = events[-1][0] - events[0][0]
    print(f"{span:.2f} s recorded; waits of the {len(watched)} busiest threads: " +
          ", ".join(f"{tid} {s:.2f} s" for tid, s in per_thread.most_common()))
    for where, s in waited.most_common(top):
        print(f"{s:8.3f} s {count[where]:6d}  {where}")


if __name__ == "__main__":
    main()
