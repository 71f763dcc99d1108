#!/usr/bin/env bash
# Every measured iteration of every fork of each throughput cell of JMH logs, in thousands of calls
# per second, one fork per line: a cell whose rate switches between modes within a fork shows it
# here, where its mean and interval do not.
#
#   bash rpcx-benchmarks/forks.sh <OUT>/jmh-last-mile-echo16-32t.log [more logs...]
set -euo pipefail
if (($# == 0)) || [[ "$1" == "--help" || "$1" == "-h" ]]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
  exit $(( $# == 0 ? 2 : 0 ))
fi
for log in "$@"; do
  basename "$log" .log
  { grep -E '^# Parameters|^# Fork|^Iteration' "$log" || true; } | awk '
    /^# Parameters/ {
      split($0, a, "system = "); split(a[2], b, /[,)]/); sys = b[1]
      split($0, c, "workload = "); split(c[2], d, ")"); workload = d[1]
    }
    /^# Fork/ { if (n) print line; n = 0; line = sprintf("  %-24s %-8s fork %s:", sys, workload, $3) }
    /^Iteration/ && $4 == "ops/s" { n++; line = line sprintf($3 < 10000 ? " %.1f" : " %.0f", $3 / 1000) }
    END { if (n) print line }'
done
