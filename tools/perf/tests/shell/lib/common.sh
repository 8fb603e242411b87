# Sourced by the shell tests: $PERF is our binary, ORACLE the distro perf.
ORACLE=${ORACLE:-/usr/bin/perf}
TMPD=$(mktemp -d /tmp/perf-test.XXXXXX)
# Background jobs (loads, recorders) go with the test, whatever ends it.
cleanup() { kill -9 $(jobs -p) 2>/dev/null; wait 2>/dev/null; rm -rf "$TMPD"; }
trap cleanup EXIT

# A daemon on base $1 stopped by "$2 daemon stop ${@:3}", then its session
# (the daemon leads it, and its recorders share it) killed, whatever is left.
daemon_end() {	# <base> <perf> <stop args>...
	local pid base=$1 perf=$2
	shift 2
	pid=$(cat "$base/lock" 2>/dev/null)
	timeout 60 "$perf" daemon stop "$@" >/dev/null 2>&1
	[ -n "$pid" ] && pkill -9 -s "$pid" 2>/dev/null
}

# For the daemon tests whose daemons have a base one or two levels under
# $TMPD: any that started by mistake goes with the test, its recorders too
# (they share its session).  Set as the trap instead of cleanup.
daemon_cleanup_tmpd() {
	local lock pid
	for lock in "$TMPD"/*/lock "$TMPD"/*/*/lock; do
		pid=$(cat "$lock" 2>/dev/null) || continue
		[ -n "$pid" ] && pkill -9 -s "$pid" 2>/dev/null
	done
	cleanup
}

skip() { echo "$*"; exit 2; }
fail() { echo "FAIL: $*" >&2; exit 1; }

# A work directory of the test's own, cd'ed into, outside /tmp/perf-* (the
# distro perf takes files there for JIT symbol maps), with its own $HOME and
# so its own build-id cache.  The trap above removes it.
own_tmpd() {	# <name>
	local old=$TMPD

	TMPD=$(mktemp -d "/tmp/$1.XXXXXX") || exit 1
	rm -rf "$old"
	cd "$TMPD" || exit 1
	export HOME=$TMPD/home
	unset PERF_BUILDID_DIR
	mkdir -p "$HOME"
}

# Whether exit status $1 is a death by a signal (128 + n) or timeout(1)'s
# 124.  A command's own failures exit 1, 129 (usage) or, as the distro's
# perf exits, the low byte of a negative errno: 234 (EINVAL), 255 (-1).
crashed() { [ "$1" -eq 124 ] || { [ "$1" -gt 129 ] && [ "$1" -lt 193 ]; }; }

need_root() { [ "$(id -u)" -eq 0 ] || skip "needs root"; }
need_oracle() { [ -x "$ORACLE" ] || skip "the distro perf ($ORACLE) is not installed"; }
# The tests that build their own workload need a C compiler.
need_gcc() { command -v gcc >/dev/null || skip "gcc is not installed: no workload to build"; }
need_tracefs() {
	if ! grep -q tracefs /proc/mounts; then
		[ "$(id -u)" -eq 0 ] && mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
	fi
	grep -q tracefs /proc/mounts || skip "tracefs is not available"
}

# Runs the oracle on a file; fails if it exits non-zero or warns about the file.
oracle_ok() {
	local what=$1; shift
	local out=$TMPD/oracle.out err=$TMPD/oracle.err
	"$ORACLE" "$@" >"$out" 2>"$err" || { cat "$err" >&2; fail "$what: oracle exited $?"; }
	# "Processed N events and lost M chunks! Check IO/CPU overload!" counts
	# the LOST records the file holds: a busy machine made the kernel drop
	# samples while recording, which says nothing of the file's form.
	# ORACLE_KERNEL_ORDER=1 also lets "N out of order events recorded."
	# pass, for system-wide tracepoints on a busy machine: the kernel makes
	# an event visible in its buffer only when the outermost writer on that
	# CPU is done, so one may appear rounds after newer ones from another
	# CPU.  The distro's own recorder gave 7 such files of 8 beside
	# make test-loaded's load, ours 1 of 9.
	# Everything else the distro says is a complaint about the file.
	local order='^$'
	[ "${ORACLE_KERNEL_ORDER:-0}" = 1 ] && order='^[0-9]+ out of order events recorded\.$'
	if grep -Ev '^Warning:$|^Processed [0-9]+ events and lost [0-9]+ chunks!$|^Check IO/CPU overload!$|^$' "$err" |
	   grep -Ev "$order" |
	   grep -Eiq 'corrupt|invalid|not valid|fail|unexpected|properly terminated|out of order|Check IO'; then
		cat "$err" >&2
		fail "$what: the oracle warned about the file"
	fi
	cat "$out"
}

# deadline S: the waits below end S seconds of wall-clock time from now
# (not after a count of tries, which a loaded machine stretches);
# past_deadline is true once that time has come.  Microseconds of
# EPOCHREALTIME, whatever the locale's decimal point.
deadline() { DEADLINE=$(( ${EPOCHREALTIME//[!0-9]/} + $1 * 1000000 )); }
past_deadline() { [ "${EPOCHREALTIME//[!0-9]/}" -ge "$DEADLINE" ]; }
# How long the waits below give a state to come: 60 s, far beyond what any
# of them takes on a busy machine (a few seconds), so only a hang fails.
WAIT_S=60

# Waits until the shell condition $1 (eval'ed) holds: true once it does,
# false if it still does not after WAIT_S s (the caller says what failed).
wait_for() {
	deadline $WAIT_S
	while ! past_deadline; do
		eval "$1" && return 0
		sleep 0.01
	done
	eval "$1"
}
# Waits until process $1 is gone (a child of ours: reaped, as bash reaps
# it when it ends); false if it still runs after WAIT_S s.
wait_gone() { wait_for "! kill -0 $1 2>/dev/null"; }
# Whether process $1 catches signal number $2 (its handler is in); fails
# if the process is gone.
catches() {
	local mask

	mask=$(awk '/^SigCgt/ { print $2 }' /proc/$1/status 2>/dev/null) || true
	[ -n "$mask" ] || fail "process $1 is gone"
	(( 0x$mask & (1 << ($2 - 1)) ))
}
wait_catches() { wait_for "catches $1 $2" || fail "process $1 never caught signal $2 in $WAIT_S s"; }
# Waits until recorder $1 records: it catches SIGUSR2 (with --switch-output)
# and sleeps in poll(), which it reaches only once every event is open and
# enabled.  Fails if it exits first.
wait_recording() {
	wait_for "catches $1 12 && grep -q poll /proc/$1/wchan 2>/dev/null" ||
		fail "process $1 never got to recording in $WAIT_S s"
}

# Nanoseconds the processes $@ have run on a CPU, together (the first field
# of their schedstat; a process gone counts 0).
cpu_ns() {
	local p t n=0

	for p; do
		read -r t _ <"/proc/$p/schedstat" 2>/dev/null && n=$((n + t))
	done
	echo $n
}
# Waits until the processes $2... have run $1 ms more on a CPU, together,
# than when called: a load has done that much work, however busy the
# machine, where a sleep gives it only what the machine spares.  Fails if
# they have not in WAIT_S s.
wait_ran() {
	local ms=$1 base
	shift
	base=$(cpu_ns "$@")
	wait_for "[ \$(cpu_ns $*) -ge $((base + ms * 1000000)) ]" ||
		fail "processes $* did not run $ms ms on a CPU in $WAIT_S s"
}
# Waits (WAIT_S s at most: a hang fails, not a slow machine) until there are at
# least $2 files matching the glob $1, e.g. wait_files 'fr.data.*' 3.
wait_files() {
	deadline $WAIT_S
	while ! past_deadline; do
		[ "$(ls $1 2>/dev/null | wc -l)" -ge "${2:-1}" ] && return 0
		sleep 0.01
	done
	fail "waited $WAIT_S s for ${2:-1} files $1"
}
# Waits until file $1 has $2 lines matching $3; with a pid $4, fails as soon
# as that process is gone.
wait_lines() {
	local n
	deadline $WAIT_S
	while ! past_deadline; do
		n=$(grep -c -- "$3" "$1" 2>/dev/null)
		[ "${n:-0}" -ge "$2" ] && return 0
		[ -z "${4:-}" ] || kill -0 "$4" 2>/dev/null || { cat "$1"; fail "process $4 is gone"; }
		sleep 0.01
	done
	cat "$1"
	fail "waited $WAIT_S s for $2 lines '$3' in $1"
}

# Flight recorder $1 (recording a workload that runs on): lets it sample a
# moment, signals one dump, waits for a file matching the glob $2, then for
# the recorder to exit (its last dump) without error.
dump_once_then_exit() {
	wait_recording "$1"
	sleep 0.3
	kill -USR2 "$1"
	wait_files "$2" 1
	wait "$1" || fail "the flight recorder exited $?"
}

# The subcommands of perf $1 whose -h lists options of their own (perf daemon
# start -h lists -f, which perf daemon -h does not); a subcommand of more
# than one word is written with commas (report,flamegraph), for the caller
# to split: perf $1 ${sub//,/ } -h.
perf_subcommands() {
	case $1 in
	daemon) echo start stop signal ping ;;
	script) echo report,flamegraph ;;
	sched) echo timehist latency map ;;
	timechart) echo record ;;
	bench) echo sched,messaging sched,pipe ;;
	esac
}
