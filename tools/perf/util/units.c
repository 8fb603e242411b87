/* Sizes as the options and config keys take them. */
#include <errno.h>
#include <stdlib.h>
#include "units.h"

/* "4096", "16K", "2M", "1G" -> bytes; a bare number is returned as is with *had_unit false. */
int units__parse_size(const char *s, u64 *val, bool *had_unit)
{
	char *end;
	unsigned long long v;

	if (!*s || *s == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -EINVAL;
	*had_unit = true;
	switch (*end) {
	case 'b': case 'B': break;
	case 'k': case 'K': v <<= 10; break;
	case 'm': case 'M': v <<= 20; break;
	case 'g': case 'G': v <<= 30; break;
	case '\0': *had_unit = false; break;
	default: return -EINVAL;
	}
	if (*end && end[1] != '\0')
		return -EINVAL;
	*val = v;
	return 0;
}
