#include <unistd.h>
#include "page-size.h"

size_t page_size(void)
{
	static size_t size;

	/* sysconf() cannot fail for this name on Linux; 4096 is only a guard. */
	if (!size) {
		long ps = sysconf(_SC_PAGESIZE);

		size = ps > 0 ? (size_t)ps : 4096;
	}
	return size;
}
