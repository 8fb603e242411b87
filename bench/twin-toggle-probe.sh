#!/bin/bash
# The three ways to move a CPU's overwrite events between two buffers on
# this kernel (twin groups toggled by ENABLE/DISABLE, PAUSE_OUTPUT,
# SET_OUTPUT): the cost of one move, and the twin moves' lost and doubled
# events under a full-speed numbered writer.  MOVES (200), EVENTS (4).
. "$(dirname "$0")/lib.sh"
cc -O2 -Wall -Wextra -pthread -o "$W/probe" "$ROOT/bench/twin-toggle-probe.c" || exit 1
"$W/probe" "${MOVES:-200}" "${EVENTS:-4}"
