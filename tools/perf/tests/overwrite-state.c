/* The overwrite buffers' state machine: all nine (state, request) pairs. */
#include "tests.h"
#include "util/overwrite-state.h"

static int test__overwrite_state(void)
{
	static const struct {
		enum overwrite_evt_state old, want, next;
		enum overwrite_action action;
	} table[] = {
		{ OVERWRITE_RUNNING, OVERWRITE_RUNNING, OVERWRITE_RUNNING, OVERWRITE_ACTION_NONE },
		{ OVERWRITE_RUNNING, OVERWRITE_DATA_PENDING, OVERWRITE_DATA_PENDING,
		  OVERWRITE_ACTION_PAUSE },
		/* Never read, so it cannot be empty. */
		{ OVERWRITE_RUNNING, OVERWRITE_EMPTY, OVERWRITE_RUNNING, OVERWRITE_ACTION_NONE },
		{ OVERWRITE_DATA_PENDING, OVERWRITE_RUNNING, OVERWRITE_RUNNING,
		  OVERWRITE_ACTION_RESUME },
		{ OVERWRITE_DATA_PENDING, OVERWRITE_DATA_PENDING, OVERWRITE_DATA_PENDING,
		  OVERWRITE_ACTION_NONE },
		{ OVERWRITE_DATA_PENDING, OVERWRITE_EMPTY, OVERWRITE_EMPTY, OVERWRITE_ACTION_NONE },
		{ OVERWRITE_EMPTY, OVERWRITE_RUNNING, OVERWRITE_RUNNING, OVERWRITE_ACTION_RESUME },
		/* Already read: pending again would dump the same data twice. */
		{ OVERWRITE_EMPTY, OVERWRITE_DATA_PENDING, OVERWRITE_EMPTY, OVERWRITE_ACTION_NONE },
		{ OVERWRITE_EMPTY, OVERWRITE_EMPTY, OVERWRITE_EMPTY, OVERWRITE_ACTION_NONE },
	};
	int seen[OVERWRITE_NR_STATES][OVERWRITE_NR_STATES] = { { 0 } };

	for (unsigned int i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		enum overwrite_action action = -1;
		enum overwrite_evt_state next;

		next = overwrite_state__next(table[i].old, table[i].want, &action);
		if (next != table[i].next || action != table[i].action) {
			fprintf(stderr, "pair %u: (%d, %d) gave state %d action %d, want %d %d\n", i,
				table[i].old, table[i].want, next, action, table[i].next,
				table[i].action);
			return TEST_FAIL;
		}
		seen[table[i].old][table[i].want]++;
	}
	for (int a = 0; a < OVERWRITE_NR_STATES; a++)
		for (int b = 0; b < OVERWRITE_NR_STATES; b++)
			TEST_ASSERT_EQUAL("every pair covered once", seen[a][b], 1);

	/* A whole dump cycle, as the recorder drives it. */
	{
		enum overwrite_evt_state s = OVERWRITE_RUNNING;
		enum overwrite_action a;

		s = overwrite_state__next(s, OVERWRITE_DATA_PENDING, &a);
		TEST_ASSERT_VAL("trigger pauses", a == OVERWRITE_ACTION_PAUSE);
		s = overwrite_state__next(s, OVERWRITE_EMPTY, &a);
		TEST_ASSERT_VAL("read empties", s == OVERWRITE_EMPTY && a == OVERWRITE_ACTION_NONE);
		s = overwrite_state__next(s, OVERWRITE_DATA_PENDING, &a);
		TEST_ASSERT_VAL("drain after read stays empty", s == OVERWRITE_EMPTY);
		s = overwrite_state__next(s, OVERWRITE_RUNNING, &a);
		TEST_ASSERT_VAL("switch resumes", s == OVERWRITE_RUNNING &&
			       a == OVERWRITE_ACTION_RESUME);
	}
	return TEST_OK;
}
DEFINE_SUITE(overwrite_state, "Overwrite buffer state machine");
