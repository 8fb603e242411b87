/* A set of strings kept once each (see strset.h). */
#include <stdlib.h>
#include <string.h>
#include "strset.h"
#include "hash.h"

static u64 strset__hash(const void *str, void *ctx)
{
	(void)ctx;
	return str__hash(*(char * const *)str);
}

static bool strset__equal(const void *str, const void *key, void *ctx)
{
	(void)ctx;
	return !strcmp(*(char * const *)str, key);
}

void strset__init(struct strset *s, size_t min_cap)
{
	hashtab__init(&s->strs, sizeof(char *), min_cap, strset__hash, strset__equal, NULL);
}

void strset__exit(struct strset *s)
{
	char **str;
	size_t i;

	hashtab__for_each(&s->strs, i, str)
		free(*str);
	hashtab__exit(&s->strs);
}

const char *strset__intern(struct strset *s, const char *str)
{
	u64 hash = str__hash(str);
	char **found = hashtab__find(&s->strs, str, hash), *copy;

	if (found)
		return *found;
	copy = strdup(str);
	if (!copy || !hashtab__add(&s->strs, &copy, hash)) {
		free(copy);
		return NULL;
	}
	return copy;
}
