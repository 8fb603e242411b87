#!/bin/bash
# SET_OUTPUT on this kernel, for swap mode: what it refuses, and what one
# redirect of an unmapped overwrite event costs, serial and in parallel.
# REDIRECTS (40) per thread, PAR (2) threads.
. "$(dirname "$0")/lib.sh"
cc -O2 -Wall -Wextra -pthread -o "$W/probe" "$ROOT/bench/set-output-probe.c" || exit 1
"$W/probe" "${REDIRECTS:-40}" "${PAR:-2}"
