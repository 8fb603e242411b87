/*
 * A pollfd array that grows on demand, with one private word per entry kept
 * at the same index (the evlist stores which ring buffer an fd feeds).
 */
#include <errno.h>
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

/* Room for @extra more entries; both arrays grow together or not at all. */
int fdarray__grow(struct fdarray *fda, int extra)
{
	int nr = fda->nr_alloc + extra;
	struct pollfd *entries;
	union fdarray_priv *priv;

	if (extra <= 0)
		return extra < 0 ? -EINVAL : 0;
	priv = realloc(fda->priv, (size_t)nr * sizeof(*priv));
	if (!priv)
		return -ENOMEM;
	fda->priv = priv;
	entries = realloc(fda->entries, (size_t)nr * sizeof(*entries));
	if (!entries)
		return -ENOMEM;	/* the bigger priv array is harmless */
	memset(priv + fda->nr_alloc, 0, (size_t)extra * sizeof(*priv));
	memset(entries + fda->nr_alloc, 0, (size_t)extra * sizeof(*entries));
	fda->entries = entries;
	fda->nr_alloc = nr;
	return 0;
}

int fdarray__add(struct fdarray *fda, int fd, short events)
{
	int pos = fda->nr;

	if (fda->nr == fda->nr_alloc) {
		int err = fdarray__grow(fda, fda->nr_autogrow > 0 ? fda->nr_autogrow : 1);

		if (err)
			return err;
	}
	fda->entries[pos].fd = fd;
	fda->entries[pos].events = events;
	fda->entries[pos].revents = 0;
	memset(&fda->priv[pos], 0, sizeof(fda->priv[pos]));
	fda->nr++;
	return pos;
}

/*
 * Compacts in place: the destructor sees each removed entry (and its priv)
 * at its current position before later entries slide over it, and the
 * survivors keep their relative order.
 */
int fdarray__filter(struct fdarray *fda, short revents,
		    void (*entry_destructor)(struct fdarray *fda, int pos, void *arg),
		    void *arg)
{
	int kept = 0;

	for (int pos = 0; pos < fda->nr; pos++) {
		if (fda->entries[pos].revents & revents) {
			if (entry_destructor)
				entry_destructor(fda, pos, arg);
			continue;
		}
		if (kept != pos) {
			fda->entries[kept] = fda->entries[pos];
			fda->priv[kept] = fda->priv[pos];
		}
		kept++;
	}
	fda->nr = kept;
	return kept;
}
