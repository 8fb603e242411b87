/* page_size(): the system's value, a power of two, the same on every call. */
#include <unistd.h>
#include "tests.h"
#include "util/page-size.h"

static int test__page_size(void)
{
	size_t ps = page_size();

	TEST_ASSERT_EQUAL("the system's page size", (long)ps, sysconf(_SC_PAGESIZE));
	TEST_ASSERT_VAL("a power of two", ps && !(ps & (ps - 1)));
	TEST_ASSERT_EQUAL("kept across calls", page_size(), ps);
	return TEST_OK;
}

DEFINE_SUITE(page_size, "page_size: the system's page size, asked once");
