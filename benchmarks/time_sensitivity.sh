#!/bin/sh
# Times `vedette sensitivity` on a scenario (default: the default scenario)
# with its full ruleset at 20,000 engagements per variant on 2 threads
# (issue 18's target, and issue 32's for hex_line_squares: under 2 minutes on
# the project's 2 cores). Prints the variants played and the wall and CPU
# time; benchmarks/README.md records the result.
# Usage: benchmarks/time_sensitivity.sh [BUILD_DIR [SCENARIO]]
#   (defaults: build, sims/scenarios/open_field_charge.yaml)
set -eu
cd "$(dirname "$0")/.."
exe="${1:-build}/sims/vedette"
scenario="${2:-sims/scenarios/open_field_charge.yaml}"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
start=$(date +%s.%N)
/usr/bin/time -f 'cpu %U s user + %S s system, peak %M KB' \
  "$exe" sensitivity "$scenario" -n 20000 --seed 1 --threads 2 --json >"$out"
end=$(date +%s.%N)
python3 -c "import json,sys; j=json.load(open('$out')); print('variants', j['variants'], 'skipped', len(j['skipped']), 'effects', len(j['effects']))"
echo "wall $(echo "$end - $start" | bc) s; load average $(cut -d' ' -f1-3 /proc/loadavg)"
