/* Placeholder until the fdarray implementation lands. */
#include <stdlib.h>
#include <string.h>
#include "fdarray.h"

void fdarray__init(struct fdarray *fda, int nr_autogrow)
{
	memset(fda, 0, sizeof(*fda));
	fda->nr_autogrow = nr_autogrow;
}

void fdarray__exit(struct fdarray *fda)
{
	free(fda->entries);
	free(fda->priv);
	memset(fda, 0, sizeof(*fda));
}
