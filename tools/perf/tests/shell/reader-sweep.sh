#!/bin/bash
# Reader sweep: files of many record command lines, read by our readers and the distro's alike
# Each row of tests/sweep/record.table is recorded by our perf record and by
# the distro's, with the same options and workload (flight-recorder dumps
# made by a signal, a control 'snapshot', a size, a time, a trigger event
# or the exit).  Every file is then read with every line of
# tests/sweep/readers.table (script, report and evlist) by our perf and by
# the distro's.  Both read the same file, so what the machine did while
# recording (system-wide files) is the same for both.  Asserted: our
# readers never crash (a signal) nor hang (timeout) on any file, and our
# standard output and exit status are the distro's, byte for byte, or
# differ only as tests/sweep/differences allows, row by row with a reason.
# When the distro crashes, hangs or fails where we do not, nothing is
# compared ("not compared"); when both refuse alike, it is counted apart.
#
# perf test runs the rows flagged "test"; with --all (make sweep) every
# row.  SWEEP_ROWS=<glob> picks rows by name, SWEEP_JOBS=<n> runs n rows
# at a time, SWEEP_KEEP=<dir> keeps the files, differences and log there.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/common.sh"
. "$here/lib/report-compare.sh"
tables=$here/../sweep
all=0
[ "${1:-}" = --all ] && all=1
need_root
need_oracle
need_tracefs
own_tmpd reader-sweep
READ_T=${SWEEP_READ_TIMEOUT:-120}
REC_T=60

cc -O1 -g -fno-omit-frame-pointer -o burner "$here/lib/burner.c" ||
	fail "cannot build lib/burner.c"

# Rows of a " | "-separated table, without comments and blank lines, one
# field a tab.
rows() {
	awk -F' +[|] +' '/^#/ || /^[ \t]*$/ { next }
		{ out = $1; for (i = 2; i <= NF; i++) out = out "\t" $i; print out }' "$1"
}

# The first file of glob $1 to appear, waited for at most WAIT_S s while
# process $2 lives.
first_dump() {
	wait_for "ls $1 >/dev/null 2>&1 || ! kill -0 $2 2>/dev/null"
	ls $1 2>/dev/null | head -1
}

# record <perf> <prefix>: records the current row ($name $kind $opts $wl)
# into <prefix>-<name>.data; exit status 0 when that file is there.
record() {
	local p=$1 f=$2-$name.data err=$2-$name.err rec w dump reply rc
	local -a o w_args

	eval "o=($opts)"
	eval "w_args=($wl)"
	rm -f "$f" "$f".[0-9]*
	if [ -n "${SWEEP_FROM:-}" ]; then
		cp "$SWEEP_FROM/$f" "$f" 2>/dev/null
		[ -s "$f" ]
		return
	fi
	case $kind in
	run)
		timeout $REC_T "$p" record -q -o "$f" "${o[@]}" -- "${w_args[@]}" >/dev/null 2>"$err"
		;;
	pipe)
		timeout $REC_T "$p" record -q -o - "${o[@]}" -- "${w_args[@]}" >"$f" 2>"$err"
		;;
	pid)
		# Stopped once the workload is gone (the distro's goes on).
		"${w_args[@]}" >/dev/null 2>&1 &
		w=$!
		"$p" record -q -o "$f" -p $w "${o[@]}" >/dev/null 2>"$err" &
		rec=$!
		wait $w
		kill -INT $rec 2>/dev/null
		wait $rec
		;;
	usr2|control)
		[ $kind = control ] && { rm -f ctl ack; mkfifo ctl ack; exec 3<>ack 4<>ctl;
					 o+=('--control=fifo:ctl,ack'); }
		"$p" record -q -o "$f" "${o[@]}" -- "${w_args[@]}" >/dev/null 2>"$err" &
		rec=$!
		if ! (wait_recording $rec) >/dev/null 2>>"$err"; then
			kill -INT $rec 2>/dev/null
			wait $rec
			echo "(the sweep) recorder status $? after it never got to recording" >>"$err"
			return 1
		fi
		# A moment of samples (not a synchronisation: any number will do).
		sleep 0.3
		if [ $kind = usr2 ]; then
			kill -USR2 $rec
			dump=$(first_dump "$f.[0-9]*" $rec)
		else
			echo snapshot >&4
			IFS= read -r -t 30 reply <&3
			dump=${reply#ack }
			[ "$dump" != "$reply" ] || dump=
			exec 3>&- 4>&-
		fi
		# The workload ends; a recorder still there a minute later is stopped.
		timeout $REC_T tail --pid=$rec -f /dev/null
		kill -INT $rec 2>/dev/null
		wait $rec
		rc=$?
		if [ -z "$dump" ]; then
			echo "(the sweep) no dump from the $kind request; recorder status $rc" >>"$err"
			rm -f "$f".[0-9]*
			return 1
		fi
		mv "$dump" "$f"
		rm -f "$f".[0-9]*
		;;
	dump)
		timeout $REC_T "$p" record -q -o "$f" "${o[@]}" -- "${w_args[@]}" >/dev/null 2>"$err"
		rc=$?
		dump=$(ls "$f".[0-9]* 2>/dev/null | head -1)
		[ -n "$dump" ] || echo "(the sweep) no dump; recorder status $rc" >>"$err"
		[ -n "$dump" ] && mv "$dump" "$f"
		rm -f "$f".[0-9]*
		;;
	esac
	[ -s "$f" ]
}

# Allowed differences: files, reader, what, reason.
mapfile -t allowed < <(rows "$tables/differences")
declare -A used

# normalise <file-id> <reader> <in> <out>: applies every allowed difference
# that matches; exit status 0 when at least one did.
normalise() {
	local id=$1 r=$2 row fglob rglob what any=1
	local -a f

	cp "$3" "$4"
	for row in "${allowed[@]}"; do
		IFS=$'\t' read -r fglob rglob what _ <<<"$row"
		# shellcheck disable=SC2053
		[[ $id == $fglob && $r == $rglob ]] || continue
		case $what in
		"status "*) cp "$4" "$4.n" ;;
		sort) LC_ALL=C sort "$4" >"$4.n" ;;
		any) : >"$4.n" ;;
		"drop "*) grep -Ev -- "${what#drop }" "$4" >"$4.n" ;;
		"sed "*) sed -E -- "${what#sed }" "$4" >"$4.n" ;;
		*) fail "differences: unknown kind of difference '$what'" ;;
		esac
		mv "$4.n" "$4"
		used[$row]=1
		any=0
	done
	return $any
}

# refusal_allowed <file-id> <reader> <status>: a row allows us to exit
# <status> (with a message) where the distro exits 0.
refusal_allowed() {
	local row fglob rglob what

	for row in "${allowed[@]}"; do
		IFS=$'\t' read -r fglob rglob what _ <<<"$row"
		# shellcheck disable=SC2053
		[[ $1 == $fglob && $2 == $rglob && $what == "status $3" ]] || continue
		used[$row]=1
		return 0
	done
	return 1
}

n_rows=0 n_rec_o=0 n_rec_d=0 n_files=0 n_cmp=0 n_eq=0 n_allowed=0 n_unexp=0
n_crash=0 n_hang=0 n_nc=0 n_refused=0 n_rec_fail=0
log=$TMPD/sweep.log
note() { echo "$*" >>"$log"; }
problem() { echo "$*" | tee -a "$log"; }

# read_all <file>: every reader, ours and the distro's, on it.
read_all() {
	local f=$1 id=${1%.data} rname rcmd orc drc pid_o shown
	local -a r in
	local src=/dev/null

	n_files=$((n_files + 1))
	in=(-i "$f")
	[ "$kind" = pipe ] && { in=(-i -); src=$f; }
	shown="${in[*]}"
	[ "$kind" = pipe ] && shown="-i - <$f"
	while IFS=$'\t' read -r -u 5 rname rcmd; do
		eval "r=($rcmd)"
		# Both at once: they only read the file.
		timeout $READ_T "$PERF" "${r[@]}" "${in[@]}" <"$src" >o.out 2>o.err &
		pid_o=$!
		timeout $READ_T "$ORACLE" "${r[@]}" "${in[@]}" <"$src" >d.out 2>d.err
		drc=$?
		wait $pid_o
		orc=$?
		if [ $orc -eq 124 ]; then
			n_hang=$((n_hang + 1))
			problem "HANG: perf $rcmd $shown (ours, $READ_T s)"
			continue
		fi
		if crashed $orc; then
			n_crash=$((n_crash + 1))
			problem "CRASH: perf $rcmd $shown exited $orc (ours)"
			continue
		fi
		if [ $drc -ne 0 ]; then
			if [ $drc -eq $orc ] && cmp -s o.out d.out; then
				n_refused=$((n_refused + 1))
				note "refused alike ($orc): $rcmd $f"
			else
				n_nc=$((n_nc + 1))
				note "not compared: the distro exited $drc, ours $orc: $rcmd $f"
			fi
			continue
		fi
		n_cmp=$((n_cmp + 1))
		if [ $orc -eq 0 ] && cmp -s o.out d.out; then
			n_eq=$((n_eq + 1))
			continue
		fi
		if [ $orc -ne 0 ] && [ -s o.err ] && refusal_allowed "$id" "$rname" $orc; then
			n_allowed=$((n_allowed + 1))
			note "allowed difference (we exit $orc): $rcmd $f"
			continue
		fi
		if [ $orc -eq 0 ] && normalise "$id" "$rname" o.out o.n &&
		   normalise "$id" "$rname" d.out d.n && cmp -s o.n d.n; then
			n_allowed=$((n_allowed + 1))
			note "allowed difference: $rcmd $f"
			continue
		fi
		n_unexp=$((n_unexp + 1))
		problem "DIFFERS: perf $rcmd $shown: ours exited $orc, the distro 0"
		diff o.out d.out >"diff.$id.$rname"
		head -6 "diff.$id.$rname" | tee -a "$log"
		[ $orc -eq 0 ] || head -3 o.err | tee -a "$log"
	done 5< <(rows "$tables/readers.table")
}

# sweep_row: records the current row with both recorders, reads the files.
sweep_row() {
	# shellcheck disable=SC2053
	[[ $name == ${SWEEP_ROWS:-*} ]] || return 0
	[ $all -eq 1 ] || [[ ,$flags, == *,test,* ]] || return 0
	n_rows=$((n_rows + 1))
	if record "$PERF" o; then
		n_rec_o=$((n_rec_o + 1))
		read_all "o-$name.data"
	else
		n_rec_fail=$((n_rec_fail + 1))
		problem "RECORD FAILED (ours): $name: $(grep -v '^$' "o-$name.err" 2>/dev/null | tail -2)"
	fi
	[[ ,$flags, == *,ours,* ]] && return 0
	if record "$ORACLE" d; then
		n_rec_d=$((n_rec_d + 1))
		read_all "d-$name.data"
	else
		note "the distro could not record $name: $(head -1 "d-$name.err" 2>/dev/null)"
	fi
}

FIGURES="n_rows n_rec_o n_rec_d n_rec_fail n_files n_cmp n_eq n_allowed n_unexp n_crash n_hang n_nc n_refused"

# SWEEP_JOBS=<n>: the rows shared among n copies of this script (row i to
# copy i mod n), each in a directory of its own; their figures are added up.
if [ "${SWEEP_JOBS:-1}" -gt 1 ] && [ -z "${SWEEP_SHARD:-}" ]; then
	for i in $(seq 0 $((SWEEP_JOBS - 1))); do
		SWEEP_SHARD=$i/$SWEEP_JOBS bash "$here/reader-sweep.sh" "$@" >"shard.$i" 2>&1 &
	done
	wait
	for f in $FIGURES; do
		printf -v "$f" %d "$(awk -v f="$f" '$1 == "figure" && $2 == f { s += $3 } END { print s + 0 }' shard.*)"
	done
	grep -hv '^figure \|^used ' shard.* | tee -a "$log"
	for row in "${allowed[@]}"; do
		grep -qxF "used $row" shard.* && used[$row]=1
	done
else
	row_nr=-1
	while IFS=$'\t' read -r -u 6 name kind flags opts wl; do
		row_nr=$((row_nr + 1))
		[ -z "${SWEEP_SHARD:-}" ] || [ $((row_nr % ${SWEEP_SHARD#*/})) -eq "${SWEEP_SHARD%/*}" ] ||
			continue
		sweep_row
	done 6< <(rows "$tables/record.table")
	if [ -n "${SWEEP_SHARD:-}" ]; then
		for f in $FIGURES; do echo "figure $f ${!f}"; done
		for row in "${!used[@]}"; do echo "used $row"; done
		[ -z "${SWEEP_KEEP:-}" ] || { mkdir -p "$SWEEP_KEEP" && cp "$log" "$SWEEP_KEEP/sweep.log.${SWEEP_SHARD%/*}" &&
					       cp -r ./*.data diff.* "$SWEEP_KEEP"/ 2>/dev/null; }
		exit 0
	fi
fi

if [ $all -eq 1 ] && [ -z "${SWEEP_ROWS:-}" ]; then
	for row in "${allowed[@]}"; do
		[ -n "${used[$row]:-}" ] || problem "allowed difference never seen: ${row//$'\t'/ | }"
	done
fi
cat <<END
rows recorded:            $n_rows (files: ours $n_rec_o, the distro's $n_rec_d; our recorder failed $n_rec_fail)
files read:               $n_files, each by $(rows "$tables/readers.table" | wc -l) reader command lines, ours and the distro's
comparisons made:         $n_cmp
  equal:                  $n_eq
  allowed differences:    $n_allowed
  unexpected differences: $n_unexp
crashes (ours):           $n_crash
hangs (ours):             $n_hang
not compared:             $n_nc (the distro crashed, hung or failed where we did not)
refused alike:            $n_refused (both exited non-zero with the same status and output)
END
if [ -n "${SWEEP_KEEP:-}" ]; then
	mkdir -p "$SWEEP_KEEP" && cp -r ./*.data diff.* "$log" "$SWEEP_KEEP"/ 2>/dev/null
	echo "files, differences and log kept in $SWEEP_KEEP"
fi
[ $((n_unexp + n_crash + n_hang + n_rec_fail)) -eq 0 ] ||
	fail_keeping reader-sweep "$n_unexp unexpected differences, $n_crash crashes, $n_hang hangs, $n_rec_fail failed recordings"
exit 0
