#ifndef PERF_UTIL_BUILD_ID_H
#define PERF_UTIL_BUILD_ID_H
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
/* Lower-case hex of @bid into @out (2 * @len + 1 bytes). */
void build_id__sprintf(const u8 *bid, size_t len, char *out);

#endif
