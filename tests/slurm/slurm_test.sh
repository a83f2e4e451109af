#!/usr/bin/env bash
# Runs the repository's own Slurm job-array script, unchanged, on a real single-node Slurm
# cluster that this test starts (munge, slurmctld, slurmd from Debian's packages), and checks
# that the merged corpus equals a single build byte for byte. Exits 77 (skipped) when the
# daemons are not installed or cannot start here; stops the daemons by their process ids.
#   slurm_test.sh QUIRE_BINARY SOURCE_DIR
set -uo pipefail
quire=${1:?quire binary}
src=${2:?source dir}
skip() { echo "SKIP: $*"; exit 77; }
for cmd in munged slurmctld slurmd sbatch sinfo squeue; do
  command -v "$cmd" >/dev/null || skip "$cmd is not installed (apt-get install slurmctld slurmd slurm-client munge)"
done
[ "$(id -u)" = 0 ] || skip "the test cluster needs root to start munged and slurmd"

work=$(mktemp -d /tmp/quire-slurm.XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  sleep 1
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT

host=$(hostname -s)
cpus=$(getconf _NPROCESSORS_ONLN)  # not nproc: it obeys OMP_THREAD_LIMIT
mem=$(awk '/MemTotal/{printf "%d", $2/1024*0.8}' /proc/meminfo)
mkdir -p "$work/etc" "$work/ctld" "$work/d" "$work/munge" "$work/log"
# munge: its own key, socket and pid file in the work folder, so nothing system-wide changes.
dd if=/dev/urandom bs=1 count=1024 of="$work/munge/munge.key" 2>/dev/null
chown -R munge:munge "$work/munge" 2>/dev/null || true
chmod 700 "$work/munge"; chmod 400 "$work/munge/munge.key"
sock=$work/munge/munge.socket
munged --key-file="$work/munge/munge.key" --socket="$sock" --pid-file="$work/munge/munged.pid" \
  --log-file="$work/log/munged.log" --seed-file="$work/munge/seed" --force 2>"$work/log/munged.err" \
  || skip "munged does not start: $(head -c 300 "$work/log/munged.err")"
sleep 0.5
[ -f "$work/munge/munged.pid" ] && pids+=("$(cat "$work/munge/munged.pid")")

cat >"$work/etc/slurm.conf" <<CONF
ClusterName=quiretest
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
StateSaveLocation=$work/ctld
SlurmdSpoolDir=$work/d
SlurmctldPidFile=$work/ctld/slurmctld.pid
SlurmdPidFile=$work/d/slurmd.pid
SlurmctldPort=16817
SlurmdPort=16818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$work/etc/slurm.conf
slurmctld -f "$SLURM_CONF" -i 2>"$work/log/ctld.err" || skip "slurmctld does not start: $(head -c 300 "$work/log/ctld.err")"
for _ in $(seq 50); do [ -f "$work/ctld/slurmctld.pid" ] && break; sleep 0.1; done
[ -f "$work/ctld/slurmctld.pid" ] && pids+=("$(cat "$work/ctld/slurmctld.pid")")
slurmd -f "$SLURM_CONF" 2>"$work/log/d.err" || skip "slurmd does not start: $(head -c 300 "$work/log/d.err")"
for _ in $(seq 50); do [ -f "$work/d/slurmd.pid" ] && break; sleep 0.1; done
[ -f "$work/d/slurmd.pid" ] && pids+=("$(cat "$work/d/slurmd.pid")")
idle=""
for _ in $(seq 100); do
  if sinfo -h -o %T 2>/dev/null | grep -q idle; then idle=1; break; fi
  sleep 0.2
done
[ -n "$idle" ] || skip "the Slurm node did not become idle: $(sinfo 2>&1 | head -3; tail -5 "$work/log/slurmctld.log" 2>/dev/null)"

books=$work/books
mkdir -p "$books"
cp "$src/fixtures/books/fx-classic.pdf" "$src/fixtures/books/fx-plain.pdf" "$books/"
export QUIRE=$quire
out=$("$src/deploy/slurm/submit.sh" "$books" "$work/run" 2) || { echo "FAIL: submit: $out"; exit 1; }
echo "$out"
merge_id=$(echo "$out" | sed -n 's/.*merge: job \([0-9]*\).*/\1/p')
for _ in $(seq 480); do
  queue=$(squeue -h -o "%i %T %r" 2>/dev/null)
  [ -z "$queue" ] && break
  # A failed shard leaves the merge waiting forever on its dependency.
  if echo "$queue" | grep -q DependencyNeverSatisfied; then break; fi
  sleep 0.5
done
if [ ! -f "$work/run/corpus/manifest.json" ]; then
  echo "FAIL: the merge job (id $merge_id) wrote no corpus; queue: $(squeue -h -o '%i %T %r' 2>&1)"
  for f in "$work"/run/*.log; do echo "--- $f"; tail -20 "$f"; done
  tail -20 "$work/log/slurmctld.log" 2>/dev/null
  exit 1
fi
"$quire" build "$books" -o "$work/single" --quiet
st=$?
[ "$st" = 0 ] || [ "$st" = 3 ] || { echo "FAIL: single build exited $st"; exit 1; }
if diff -r "$work/single" "$work/run/corpus" >"$work/diff.txt"; then
  echo "PASS: the Slurm job array and merge gave the same corpus as a single build"
  exit 0
fi
echo "FAIL: merged corpus differs from a single build:"
head -40 "$work/diff.txt"
exit 1
