#ifndef PERF_UTIL_BUILD_ID_H
#define PERF_UTIL_BUILD_ID_H
#include <stdbool.h>
#include <stddef.h>
#include "types.h"

/* The largest build id perf.data can carry (a SHA-1 is 20 bytes). */
#define BUILD_ID_SIZE 20

/*
 * The GNU build id of the ELF file at @path, from its .note.gnu.build-id
 * (any SHT_NOTE section, or PT_NOTE segment).  Returns its length (at most
 * @size bytes are copied), -ENOENT when the file has none, else -errno.
 */
int filename__read_build_id(const char *path, u8 *bid, size_t size);
/*
 * The same from a file of raw ELF notes, such as /sys/kernel/notes or
 * /sys/module/<m>/notes/.note.gnu.build-id.
 */
int sysfs__read_build_id(const char *path, u8 *bid, size_t size);
struct Elf;
/*
 * The GNU build id of an ELF file libelf has open: from its SHT_NOTE
 * sections, else (no section headers) its PT_NOTE segments.  Its length
 * (at most @size), or -ENOENT.
 */
int elf__read_build_id(struct Elf *elf, u8 *bid, size_t size);
/* The GNU build id in an ELF's PT_NOTE segments; its length or -ENOENT. */
int build_id__from_phdrs(struct Elf *elf, u8 *bid, size_t size);
/* The GNU build id in a buffer of ELF notes: its length, or -ENOENT. */
int build_id__from_notes(const void *buf, size_t len, u8 *bid, size_t size);
/*
 * Whether the id read from a file (@file, @flen bytes) is the one a
 * perf.data file recorded (@recorded, @rlen bytes, maybe zero-padded to
 * 20 by an older perf).
 */
bool build_id__same(const u8 *file, int flen, const u8 *recorded, int rlen);
/* Lower-case hex of @bid into @out (2 * @len + 1 bytes). */
void build_id__sprintf(const u8 *bid, size_t len, char *out);

/*
 * The build-id cache, laid out as upstream perf lays it out so both read
 * each other's:
 *
 *	<dir>/<path>/<build-id>/elf		a copy (or hard link) of the file
 *	<dir>/[vdso]/<build-id>/vdso		the vdso image
 *	<dir>/.build-id/<xx>/<rest of id>	-> ../../<path>/<build-id>
 *
 * <dir> is perf --buildid-dir DIR, else $PERF_BUILDID_DIR, else ~/.debug.
 */
void buildid_dir__set(const char *dir);
const char *buildid_dir__get(void);
/*
 * Where the cache keeps the file of DSO @name (a path, "[vdso]" or
 * "[kernel.kallsyms]") with build id @bid, found through its .build-id
 * link: 0, or -errno when the link does not exist.
 */
int build_id_cache__find(const char *name, const u8 *bid, int len, char *out, size_t size);
/*
 * Adds the file at @path (DSO @name, build id @bid) to the cache: a hard
 * link where the file system allows, else a copy.  0 (also when it was
 * there already) or -errno.
 */
int build_id_cache__add_file(const char *name, const u8 *bid, int len, const char *path);
/* The same for an image in memory (the vdso). */
int build_id_cache__add_buf(const char *name, const u8 *bid, int len, const void *buf,
			    size_t size);
/*
 * Removes the entry of DSO @name with build id @bid (or its lower-case hex)
 * and its link, if the link led to it: 0 or -errno.
 */
int build_id_cache__remove(const char *name, const u8 *bid, int len);
int build_id_cache__remove_hex(const char *name, const char *hex);

/* One entry of the cache: a .build-id link that leads somewhere. */
struct cached_dso {
	char *name;				/* the DSO name the link's target spells */
	char hex[2 * BUILD_ID_SIZE + 1];
	u64 size;				/* its file and debug file, in bytes */
	u64 used_ns;				/* last used: its directory's mtime */
};

struct cached_dsos {
	struct cached_dso *v;
	size_t nr, cap;
};

/* Every entry of the cache, sorted by id as upstream lists them: 0 or -errno. */
int build_id_cache__entries(struct cached_dsos *v);
void cached_dsos__exit(struct cached_dsos *v);
/* Calls @fn for each entry of the cache, in build_id_cache__entries() order. */
int build_id_cache__for_each(int (*fn)(const char *name, const char *hex, void *arg), void *arg);
/*
 * Calls @fn for each id cached under DSO @name (<dir>/<name>/<hex>, linked
 * or not), sorted: 0, the first error of @fn, or -ENOENT when the cache
 * has nothing under @name.
 */
int build_id_cache__for_each_id_of(const char *name,
				   int (*fn)(const char *name, const char *hex, void *arg),
				   void *arg);

/*
 * Marks the entry of id @hex used now (the recorder touches those a dump
 * names): 0 or -errno.
 */
int build_id_cache__touch(const char *hex);
/*
 * Evicts the least recently used entries, except those @keep says, until
 * the cache holds at most @max bytes (-v tells each eviction).  The number
 * evicted, or -errno.
 */
int build_id_cache__trim(u64 max, bool (*keep)(const char *hex, void *arg), void *arg);
/* buildid-cache.max-size of the default config file into @max (0: none): 0 or -EINVAL, said. */
int build_id_cache__config_max_size(u64 *max);

/*
 * This process's vdso, which is the image every 64-bit process on this
 * kernel maps: its bytes and build id.  0 or -errno.
 */
int vdso__image(const void **buf, size_t *size);
int vdso__build_id(u8 *bid, size_t size);

#endif
