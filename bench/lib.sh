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

# Recorders under test (flight-recorder-scale, flight-recorder-swap).
status_kb() { awk -v k="$2:" '$1 == k { print $2 }' /proc/$1/status; }
# The recorder's pid under strace (its child, perf once chrt has exec'd it), or itself.
recorder_pid() { local p; p=$(pgrep -P "$1" -x perf | head -1); echo "${p:-$1}"; }
# Waits until recorder $1 (or the perf strace runs as $1) catches SIGUSR2 and
# sleeps in poll(): every event is open and enabled.  Prints its pid.
wait_recording() {
	local i p mask
	for i in $(seq 1 60000); do
		p=$(recorder_pid "$1")
		mask=$(awk '/^SigCgt/ { print $2 }' /proc/$p/status 2>/dev/null)
		if [ -n "$mask" ] && [ "$p" != "$1" -o "$2" = plain ] &&
		   (( 0x$mask & 0x800 )) && grep -q poll /proc/$p/wchan 2>/dev/null; then
			echo "$p"
			return 0
		fi
		sleep 0.01
	done
	echo "the recorder never got to recording" >&2
	return 1
}
wait_files() {
	local i
	for i in $(seq 1 60000); do
		[ "$(ls "$1".* 2>/dev/null | wc -l)" -ge "$2" ] && return 0
		sleep 0.001
	done
	echo "no dump $1 after 60 s" >&2
	return 1
}
