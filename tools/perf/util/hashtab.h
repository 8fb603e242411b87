#ifndef PERF_UTIL_HASHTAB_H
#define PERF_UTIL_HASHTAB_H
#include "types.h"

/*
 * An open-addressing hash table of fixed-size entries stored in place, with
 * linear probing over a power-of-two number of slots, never more than half
 * full.  The owner hashes (hash() is only asked again when the table grows)
 * and says when an entry is the one a key names (equal()); a key may be a
 * whole entry or anything equal() understands.
 *
 * Entries stay where they are until the table grows or loses an entry:
 * hashtab__reserve() first, and the pointers taken meanwhile stay valid.  Walking the slots
 * in order (hashtab__for_each) gives an order fixed by the hashes and the
 * order of insertion: the same on every run for hashes of strings or
 * numbers, but not for hashes of pointers, which follow where malloc put
 * things (see hists__entries for an order that does not).
 */
struct hashtab {
	char *slots;		/* cap entries of size bytes */
	u8 *used;		/* one flag per slot */
	size_t size;		/* of an entry */
	size_t cap, nr;		/* cap: 0 or a power of two */
	size_t min_cap;		/* of the first allocation */
	u64 (*hash)(const void *entry, void *ctx);
	bool (*equal)(const void *entry, const void *key, void *ctx);
	void *ctx;		/* given to hash() and equal() */
};

void hashtab__init(struct hashtab *t, size_t size, size_t min_cap,
		   u64 (*hash)(const void *entry, void *ctx),
		   bool (*equal)(const void *entry, const void *key, void *ctx), void *ctx);
void hashtab__exit(struct hashtab *t);
/* Room for @more entries more, the table staying at most half full (-ENOMEM). */
int hashtab__reserve(struct hashtab *t, size_t more);
/* The entry that @key (whose hash is @hash) names, or NULL. */
void *hashtab__find(const struct hashtab *t, const void *key, u64 hash);
/*
 * A copy of @entry added, @hash being its hash; it must not be there yet.
 * The table grows when it must (reserve first to keep pointers valid).
 * NULL when out of memory.
 */
void *hashtab__add(struct hashtab *t, const void *entry, u64 hash);
/*
 * Moves the entries into @old (a table to walk and then exit) and leaves
 * @t empty, with as many slots as before: to rebuild it from @old.
 */
int hashtab__move(struct hashtab *t, struct hashtab *old);
/*
 * @entry (a pointer into @t) taken out.  Entries after it on its probe
 * sequence move back to close the gap, so pointers into @t are stale
 * afterwards, and a walk must not go on past a removal.
 */
void hashtab__remove(struct hashtab *t, void *entry);

/* The entry in slot @i, or NULL. */
static inline void *hashtab__slot(const struct hashtab *t, size_t i)
{
	return t->used[i] ? t->slots + i * t->size : NULL;
}

/* @e: each entry, in slot order (@i the slot). */
#define hashtab__for_each(t, i, e)					\
	for ((i) = 0; (i) < (t)->cap; (i)++)				\
		if (((e) = hashtab__slot((t), (i))) != NULL)

#endif
