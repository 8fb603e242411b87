/* fdarray: growth, the filter with its destructor, and poll. */
#include <errno.h>
#include <unistd.h>
#include "tests.h"
#include "util/fdarray.h"

struct destructor_log {
	int calls;
	int bad;	/* removed entries that should have stayed */
};

/* Every entry we mark for removal carries an odd idx in its priv. */
static void count_removed(struct fdarray *fda, int pos, void *arg)
{
	struct destructor_log *log = arg;

	log->calls++;
	if (fda->priv[pos].idx % 2 == 0 || !(fda->entries[pos].revents & POLLHUP))
		log->bad++;
}

static int test__fdarray(void)
{
	struct destructor_log log = { 0, 0 };
	struct fdarray fda;
	int left;

	fdarray__init(&fda, 4);
	for (int i = 0; i < 100; i++) {
		int pos = fdarray__add(&fda, 1000 + i, POLLIN);

		TEST_ASSERT_EQUAL("add returns position", pos, i);
		fda.priv[pos].idx = i;
	}
	TEST_ASSERT_EQUAL("100 entries", fda.nr, 100);
	TEST_ASSERT_VAL("grew in steps of 4", fda.nr_alloc >= 100 && fda.nr_alloc % 4 == 0);
	for (int i = 0; i < 100; i++) {
		TEST_ASSERT_EQUAL("fd kept across growth", fda.entries[i].fd, 1000 + i);
		TEST_ASSERT_EQUAL("events kept", fda.entries[i].events, POLLIN);
		TEST_ASSERT_EQUAL("priv kept", fda.priv[i].idx, i);
	}

	/* Odd entries hung up, every third one also readable. */
	for (int i = 0; i < 100; i++)
		fda.entries[i].revents = (i % 2 ? POLLHUP : 0) | (i % 3 ? 0 : POLLIN);
	left = fdarray__filter(&fda, POLLHUP | POLLERR, count_removed, &log);
	TEST_ASSERT_EQUAL("50 left", left, 50);
	TEST_ASSERT_EQUAL("nr updated", fda.nr, 50);
	TEST_ASSERT_EQUAL("destructor per removed entry", log.calls, 50);
	TEST_ASSERT_EQUAL("destructor saw only removed entries", log.bad, 0);
	for (int i = 0; i < 50; i++) {
		TEST_ASSERT_EQUAL("order kept", fda.priv[i].idx, 2 * i);
		TEST_ASSERT_EQUAL("fd moved with priv", fda.entries[i].fd, 1000 + 2 * i);
	}
	left = fdarray__filter(&fda, POLLHUP, NULL, NULL);
	TEST_ASSERT_EQUAL("nothing more to filter", left, 50);

	/* Explicit growth keeps the entries and adds room. */
	TEST_ASSERT_EQUAL("grow", fdarray__grow(&fda, 1000), 0);
	TEST_ASSERT_VAL("room", fda.nr_alloc >= 1050);
	TEST_ASSERT_EQUAL("still 50", fda.nr, 50);
	TEST_ASSERT_EQUAL("entry intact", fda.entries[49].fd, 1098);
	fdarray__exit(&fda);
	TEST_ASSERT_VAL("exit empties", !fda.entries && !fda.priv && !fda.nr);
	return TEST_OK;
}
DEFINE_SUITE(fdarray, "fdarray: growth, filter with destructor, order kept");

/* The entries are a pollfd array as they are (the recorder ppoll()s them). */
static int test__fdarray_poll(void)
{
	struct fdarray fda;
	int pfd[2], ret;

	TEST_ASSERT_VAL("pipe", !pipe(pfd));
	fdarray__init(&fda, 1);
	TEST_ASSERT_EQUAL("first", fdarray__add(&fda, -1, POLLIN), 0);
	TEST_ASSERT_EQUAL("second", fdarray__add(&fda, pfd[0], POLLIN), 1);
	TEST_ASSERT_EQUAL("nothing to read", poll(fda.entries, fda.nr, 0), 0);
	TEST_ASSERT_EQUAL("write", write(pfd[1], "x", 1), 1);
	TEST_ASSERT_EQUAL("one ready", poll(fda.entries, fda.nr, 1000), 1);
	TEST_ASSERT_EQUAL("negative fd ignored", fda.entries[0].revents, 0);
	TEST_ASSERT_VAL("pipe readable", fda.entries[1].revents & POLLIN);
	close(pfd[1]);
	ret = poll(fda.entries, fda.nr, 1000);
	TEST_ASSERT_EQUAL("still ready", ret, 1);
	TEST_ASSERT_VAL("hangup seen", fda.entries[1].revents & POLLHUP);
	TEST_ASSERT_EQUAL("filter hung up", fdarray__filter(&fda, POLLHUP, NULL, NULL), 1);
	TEST_ASSERT_EQUAL("negative fd stays", fda.entries[0].fd, -1);
	close(pfd[0]);
	fdarray__exit(&fda);
	return TEST_OK;
}
DEFINE_SUITE(fdarray_poll, "fdarray: entries poll as they are, negative fds stay, hangups go");
