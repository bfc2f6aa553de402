#!/bin/sh
# The lab on MPI (issue 19): `mpirun -np R vedette sim|compare|sweep` gives
# byte for byte the files of the plain, single-process binary, for R = 1, 2
# and 3 and any thread count; a checkpoint made on 3 ranks and stopped by a
# SIGTERM to one rank resumes on 2 ranks (and on the plain binary) to the
# same files; a rank killed outright fails the job and no report is written.
# `sensitivity` (every variant of the ruleset on the base's dice) too.
# Usage: tests/mpi/check_mpi.sh PLAIN_VEDETTE MPI_VEDETTE (scripts/test --mpi)
set -eu
plain=$(realpath "$1")
mpi=$(realpath "$2")
cd "$(dirname "$0")/../.."
src=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Open MPI refuses root unless told; --oversubscribe: more ranks than cores.
run_as_root=""
[ "$(id -u)" = 0 ] && run_as_root="--allow-run-as-root"
mpirun_np() { np=$1; shift; mpirun $run_as_root --oversubscribe -np "$np" "$mpi" "$@"; }
fail() { echo "check_mpi: FAIL: $*" >&2; exit 1; }
checks=0
same() {  # same FILE1 FILE2 WHAT
  cmp -s "$1" "$2" || { diff "$1" "$2" | head -20 >&2; fail "$3: $1 and $2 differ"; }
  checks=$((checks + 1))
}
scen=$src/sims/scenarios/open_field_charge.yaml

# -- byte-identical: sim (with engagements.csv and a precision target), compare, sweep
cd "$work"
"$plain" sim "$scen" -n 6000 --seed 11 --threads 2 --out ref-sim --csv --json > ref-sim.json
# precision targets met in rank 0's first block (1.5) and further on (0.6)
"$plain" sim "$scen" -n 400000 --precision 1.5 --seed 12 --threads 2 --out ref-prec --json > ref-prec.json
"$plain" sim "$scen" -n 400000 --precision 0.6 --seed 12 --threads 2 --json > ref-prec6.json
"$plain" compare "$src/sims/scenarios/square_test.yaml" --baseline "$src/tables/default.yaml" \
  --variant "$src/tables/house-rules/infantry-square.yaml" -n 5000 --seed 13 --threads 2 --out ref-cmp --json > ref-cmp.json
"$plain" sweep "$scen" --set modifiers.enemy_in_range.value=0,2 -n 3000 --seed 14 --threads 1 --out ref-swp --json > ref-swp.json
"$plain" sensitivity "$scen" -n 400 --seed 17 --threads 2 --out ref-sns --json > ref-sns.json
for np in ${CHECK_MPI_RANKS:-1 2 3}; do
  threads=$((4 - np))
  mpirun_np $np sim "$scen" -n 6000 --seed 11 --threads $threads --out sim$np --csv --json > sim$np.json
  mpirun_np $np sim "$scen" -n 400000 --precision 1.5 --seed 12 --threads $threads --out prec$np --json > prec$np.json
  mpirun_np $np sim "$scen" -n 400000 --precision 0.6 --seed 12 --threads $threads --json > prec6$np.json
  mpirun_np $np compare "$src/sims/scenarios/square_test.yaml" --baseline "$src/tables/default.yaml" \
    --variant "$src/tables/house-rules/infantry-square.yaml" -n 5000 --seed 13 --threads $threads --out cmp$np --json > cmp$np.json
  mpirun_np $np sweep "$scen" --set modifiers.enemy_in_range.value=0,2 -n 3000 --seed 14 --threads $threads --out swp$np --json > swp$np.json
  mpirun_np $np sensitivity "$scen" -n 400 --seed 17 --threads $threads --out sns$np --json > sns$np.json
  for f in summary.json report.html engagements.csv; do same ref-sim/$f sim$np/$f "sim on $np ranks"; done
  for kind in sim prec prec6 cmp swp sns; do same ref-$kind.json $kind$np.json "$kind on $np ranks (stdout)"; done
  for f in summary.json report.html; do
    same ref-prec/$f prec$np/$f "sim --precision on $np ranks"
    same ref-cmp/$f cmp$np/$f "compare on $np ranks"
    same ref-swp/$f swp$np/$f "sweep on $np ranks"
    same ref-sns/$f sns$np/$f "sensitivity on $np ranks"
  done
done
grep -q '"engagements": 6000' sim2/summary.json || fail "sim on 2 ranks: not 6000 engagements"

# -- no --seed: rank 0's fresh seed is every rank's (the run replays with it)
mpirun_np 2 sim "$scen" -n 3000 --threads 1 --out fresh > /dev/null
seed=$(grep -o '"seed": [0-9]*' fresh/summary.json | grep -o '[0-9]*$')
"$plain" sim "$scen" -n 3000 --seed "$seed" --out fresh-plain > /dev/null
same fresh-plain/summary.json fresh/summary.json "a fresh seed on 2 ranks, replayed by the plain binary"

# The rank (its pid) with this number among mpirun's children.
rank_pid() {  # rank_pid MPIRUN_PID RANK
  for p in $(pgrep -P "$1"); do
    if tr '\0' '\n' < /proc/"$p"/environ 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$2"; then echo "$p"; return; fi
  done
}
# Waits (up to 60 s) until FILE exists and rank RANK of mpirun MPIRUN_PID is
# running; prints the rank's pid.
wait_rank() {  # wait_rank MPIRUN_PID RANK FILE
  i=0
  while [ $i -lt 600 ]; do
    if [ -s "$3" ]; then p=$(rank_pid "$1" "$2"); [ -n "$p" ] && { echo "$p"; return; }; fi
    kill -0 "$1" 2>/dev/null || fail "mpirun ended before $3 was written"
    sleep 0.1; i=$((i + 1))
  done
  fail "no $3 after 60 s"
}

# -- SIGTERM to one rank of 3: every rank stops, rank 0 writes a partial report
#    and a checkpoint; resumed on 2 ranks it ends on the plain run's numbers.
# (a slower scenario, so that the stop lands well before the end)
slow=$src/sims/scenarios/mounted_infantry_raid.yaml
n=200000
"$plain" sim "$slow" -n $n --seed 15 --threads 2 --out ref-long --json > ref-long.json
# (mpirun itself in the background, so that $! is its pid and the ranks its children)
mpirun $run_as_root --oversubscribe -np 3 "$mpi" sim "$slow" -n $n --seed 15 --threads 1 --out part --checkpoint cp.json \
  --checkpoint-every 0 > part.out 2> part.err &
mp=$!
victim=$(wait_rank $mp 1 cp.json)
kill -TERM "$victim"
status=0; wait $mp || status=$?
[ $status -ne 0 ] || fail "a SIGTERM to rank 1: mpirun exited 0"
grep -q 'stopped by SIGTERM after' part.err || { cat part.err >&2; fail "no 'stopped by SIGTERM' message"; }
grep -q '"stopped_by": "SIGTERM"' part/summary.json || fail "the partial report does not say it was stopped by SIGTERM"
grep -q "\"engagements\": $n," part/summary.json && fail "the run was not stopped (make n larger)"
cp cp.json cp-plain.json
mpirun_np 2 sim "$slow" --threads 2 --resume cp.json --out resumed --json > resumed.json
same ref-long.json resumed.json "resumed on 2 ranks (stdout)"
for f in summary.json report.html; do same ref-long/$f resumed/$f "a run of 3 ranks resumed on 2"; done
"$plain" sim "$slow" --threads 1 --resume cp-plain.json --out resumed-plain --json > resumed-plain.json
same ref-long/summary.json resumed-plain/summary.json "a run of 3 ranks resumed by the plain binary"

# -- SIGTERM (or Ctrl-C) to mpirun itself: it passes SIGTERM to every rank;
#    the same partial report and checkpoint, and the job fails.
mpirun $run_as_root --oversubscribe -np 2 "$mpi" sim "$slow" -n $n --seed 15 --threads 1 --out part2 --checkpoint cp3.json \
  --checkpoint-every 0 > part2.out 2> part2.err &
mp=$!
wait_rank $mp 1 cp3.json > /dev/null
kill -TERM $mp
status=0; wait $mp || status=$?
[ $status -ne 0 ] || fail "a SIGTERM to mpirun: it exited 0"
grep -q '"stopped_by": "SIGTERM"' part2/summary.json || fail "a SIGTERM to mpirun: the report does not say it is partial"
mpirun_np 3 sim "$slow" --threads 1 --resume cp3.json --out resumed2 --json > resumed2.json
same ref-long/summary.json resumed2/summary.json "a run of 2 ranks stopped through mpirun, resumed on 3"

# -- a rank killed outright (SIGKILL): the job fails, loudly, and no report is written.
mpirun $run_as_root --oversubscribe -np 2 "$mpi" sim "$scen" -n 50000000 --seed 16 --threads 1 --out killed --checkpoint cp2.json \
  --checkpoint-every 0 > killed.out 2> killed.err &
mp=$!
victim=$(wait_rank $mp 1 cp2.json)
kill -KILL "$victim"
status=0; wait $mp || status=$?
[ $status -ne 0 ] || fail "a killed rank: mpirun exited 0"
grep -qi 'signal 9\|killed' killed.err || { cat killed.err >&2; fail "a killed rank: no message naming the signal"; }
[ ! -e killed/summary.json ] || fail "a killed rank: a report was written"
checks=$((checks + 5))
echo "check_mpi: $checks checks passed (1, 2, 3 ranks byte-identical to the plain binary; resume across rank counts; a signal and a killed rank)"
