# Shared by the benchmarks: ours vs the distro perf, in the same run.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OURS=$ROOT/tools/perf/perf
DISTRO=${DISTRO:-/usr/bin/perf}
W=$(mktemp -d /tmp/perf-bench.XXXXXX)
trap 'rm -rf "$W"' EXIT
[ -x "$OURS" ] || { echo "build first: make" >&2; exit 1; }
[ -x "$DISTRO" ] || { echo "the distro perf ($DISTRO) is needed: apt-get install linux-perf" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "benchmarks need root" >&2; exit 1; }
grep -q tracefs /proc/mounts || mount -t tracefs nodev /sys/kernel/tracing

# CPU seconds (user+sys) of a finished child, from /usr/bin/time's output file.
cpu_of() { tail -1 "$1" | awk '{ print $1 + $2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "n/a"; else printf "%.2f", a / b }'; }
