#ifndef PERF_UTIL_FDARRAY_H
#define PERF_UTIL_FDARRAY_H
#include <poll.h>

/* A growable array of pollfds, each with a private word for its owner. */
struct fdarray {
	int nr;
	int nr_alloc;
	int nr_autogrow;		/* entries added per growth */
	struct pollfd *entries;
	union fdarray_priv {
		int idx;
		void *ptr;
	} *priv;
};

void fdarray__init(struct fdarray *fda, int nr_autogrow);
void fdarray__exit(struct fdarray *fda);
int fdarray__grow(struct fdarray *fda, int extra);
/* Returns the new entry's position, or -ENOMEM. */
int fdarray__add(struct fdarray *fda, int fd, short events);
/*
 * Removes every entry whose revents has a bit of @revents, calling
 * @entry_destructor (if any) for it first; returns the number left.
 */
int fdarray__filter(struct fdarray *fda, short revents,
		    void (*entry_destructor)(struct fdarray *fda, int pos, void *arg),
		    void *arg);

#endif
