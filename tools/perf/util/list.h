#ifndef PERF_UTIL_LIST_H
#define PERF_UTIL_LIST_H
/* A minimal circular doubly-linked list with an embedded node. */
#include "types.h"

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name) { &(name), &(name) }

static inline void INIT_LIST_HEAD(struct list_head *h)
{
	h->next = h;
	h->prev = h;
}

static inline void list__insert(struct list_head *n, struct list_head *prev,
				struct list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}

static inline void list_add(struct list_head *n, struct list_head *h)
{
	list__insert(n, h, h->next);
}

static inline void list_add_tail(struct list_head *n, struct list_head *h)
{
	list__insert(n, h->prev, h);
}

static inline void list_del_init(struct list_head *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	INIT_LIST_HEAD(n);
}

static inline bool list_empty(const struct list_head *h)
{
	return h->next == h;
}

#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(h, type, member) list_entry((h)->next, type, member)
#define list_last_entry(h, type, member) list_entry((h)->prev, type, member)

#define list_for_each_entry(pos, h, member)					\
	for (pos = list_entry((h)->next, __typeof__(*pos), member);		\
	     &pos->member != (h);						\
	     pos = list_entry(pos->member.next, __typeof__(*pos), member))

#define list_for_each_entry_safe(pos, n, h, member)				\
	for (pos = list_entry((h)->next, __typeof__(*pos), member),		\
	     n = list_entry(pos->member.next, __typeof__(*pos), member);	\
	     &pos->member != (h);						\
	     pos = n, n = list_entry(n->member.next, __typeof__(*n), member))

#endif
