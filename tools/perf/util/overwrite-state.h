#ifndef PERF_UTIL_OVERWRITE_STATE_H
#define PERF_UTIL_OVERWRITE_STATE_H
/*
 * The state of the overwritable (backward) buffers of `perf record`:
 *
 *   RUNNING       the kernel writes into them; nobody reads them
 *   DATA_PENDING  output is paused; their contents wait to be read
 *   EMPTY         read for this dump (still paused until RUNNING)
 *
 * RUNNING -> DATA_PENDING pauses; reading moves DATA_PENDING -> EMPTY;
 * DATA_PENDING or EMPTY -> RUNNING resumes.  (In the flight recorder's
 * swap mode a pause is the events leaving the buffer for its partner, and
 * a resume is their coming back: see flight-recorder.h.)  Asking for DATA_PENDING when
 * EMPTY stays EMPTY (that data was read already); asking a RUNNING buffer
 * to be EMPTY is refused (it was never read).  Every other request leaves
 * the state as it is.
 */
enum overwrite_evt_state {
	OVERWRITE_RUNNING,
	OVERWRITE_DATA_PENDING,
	OVERWRITE_EMPTY,
	OVERWRITE_NR_STATES,
};

enum overwrite_action {
	OVERWRITE_ACTION_NONE,
	OVERWRITE_ACTION_PAUSE,
	OVERWRITE_ACTION_RESUME,
};

/* The whole transition table; sets *action to the ioctl the move needs. */
static inline enum overwrite_evt_state
overwrite_state__next(enum overwrite_evt_state old, enum overwrite_evt_state want,
		      enum overwrite_action *action)
{
	*action = OVERWRITE_ACTION_NONE;
	switch (old) {
	case OVERWRITE_RUNNING:
		if (want != OVERWRITE_DATA_PENDING)
			return old;
		*action = OVERWRITE_ACTION_PAUSE;
		return OVERWRITE_DATA_PENDING;
	case OVERWRITE_DATA_PENDING:
		if (want == OVERWRITE_RUNNING)
			*action = OVERWRITE_ACTION_RESUME;
		return want;
	case OVERWRITE_EMPTY:
		if (want != OVERWRITE_RUNNING)
			return old;
		*action = OVERWRITE_ACTION_RESUME;
		return OVERWRITE_RUNNING;
	default:
		return old;
	}
}

#endif
