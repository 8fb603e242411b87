/* An open-addressing hash table of entries stored in place (see hashtab.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hashtab.h"

void hashtab__init(struct hashtab *t, size_t size, size_t min_cap,
		   u64 (*hash)(const void *entry, void *ctx),
		   bool (*equal)(const void *entry, const void *key, void *ctx), void *ctx)
{
	memset(t, 0, sizeof(*t));
	t->size = size;
	t->min_cap = min_cap;
	t->hash = hash;
	t->equal = equal;
	t->ctx = ctx;
}

void hashtab__exit(struct hashtab *t)
{
	free(t->slots);
	free(t->used);
	t->slots = NULL;
	t->used = NULL;
	t->cap = t->nr = 0;
}

/* The first free slot on @hash's probe sequence (the table has one). */
static size_t hashtab__free_slot(const struct hashtab *t, u64 hash)
{
	size_t mask = t->cap - 1, i;

	for (i = hash & mask; t->used[i]; i = (i + 1) & mask)
		;
	return i;
}

static void *hashtab__put(struct hashtab *t, size_t i, const void *entry)
{
	void *slot = t->slots + i * t->size;

	memcpy(slot, entry, t->size);
	t->used[i] = 1;
	t->nr++;
	return slot;
}

/* Empty slots for @cap entries in place of @t's, which the caller keeps; -ENOMEM changes nothing. */
static int hashtab__new_slots(struct hashtab *t, size_t cap)
{
	char *slots = malloc(cap * t->size);
	u8 *used = calloc(cap, 1);

	if (!slots || !used) {
		free(slots);
		free(used);
		return -ENOMEM;
	}
	t->slots = slots;
	t->used = used;
	t->nr = 0;
	return 0;
}

int hashtab__reserve(struct hashtab *t, size_t more)
{
	size_t cap = t->cap ? t->cap : t->min_cap;
	struct hashtab old = *t;
	void *e;
	size_t i;

	while ((t->nr + more) * 2 > cap)
		cap *= 2;
	if (cap == t->cap)
		return 0;
	if (hashtab__new_slots(t, cap))
		return -ENOMEM;
	t->cap = cap;
	/* Old slots in order: the new layout depends on the old one alone. */
	hashtab__for_each(&old, i, e)
		hashtab__put(t, hashtab__free_slot(t, t->hash(e, t->ctx)), e);
	free(old.slots);
	free(old.used);
	return 0;
}

void *hashtab__find(const struct hashtab *t, const void *key, u64 hash)
{
	size_t mask = t->cap - 1;

	if (!t->cap)
		return NULL;
	for (size_t i = hash & mask; t->used[i]; i = (i + 1) & mask)
		if (t->equal(t->slots + i * t->size, key, t->ctx))
			return t->slots + i * t->size;
	return NULL;
}

void *hashtab__add(struct hashtab *t, const void *entry, u64 hash)
{
	/* Most adds fit: not even a call to find that out. */
	if ((t->nr + 1) * 2 > t->cap && hashtab__reserve(t, 1))
		return NULL;
	return hashtab__put(t, hashtab__free_slot(t, hash), entry);
}

int hashtab__move(struct hashtab *t, struct hashtab *old)
{
	struct hashtab prev = *t;

	if (hashtab__new_slots(t, t->cap ? t->cap : 1))
		return -ENOMEM;
	*old = prev;
	return 0;
}

/*
 * Linear probing without tombstones: after the hole, each entry of the run
 * moves into it when the hole lies between its home slot and where it is
 * (it would be probed past otherwise), and then its slot is the hole.
 */
void hashtab__remove(struct hashtab *t, void *entry)
{
	size_t mask = t->cap - 1;
	size_t hole = ((char *)entry - t->slots) / t->size;

	t->used[hole] = 0;
	t->nr--;
	for (size_t i = (hole + 1) & mask; t->used[i]; i = (i + 1) & mask) {
		char *e = t->slots + i * t->size;
		size_t home = t->hash(e, t->ctx) & mask;

		if (((i - home) & mask) < ((i - hole) & mask))
			continue;
		memcpy(t->slots + hole * t->size, e, t->size);
		t->used[hole] = 1;
		t->used[i] = 0;
		hole = i;
	}
}
