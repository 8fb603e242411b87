/*
 * This process's vdso.  The kernel maps one image into every process of an
 * ABI, so the recorder's own copy is the one the profiled 64-bit programs
 * ran: it is what the build-id cache keeps for "[vdso]" (as upstream does).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <gelf.h>
#include "build-id.h"

int vdso__image(const void **buf, size_t *size)
{
	unsigned long start = getauxval(AT_SYSINFO_EHDR), lo, hi;
	char line[512];
	FILE *f;
	int err = -ENOENT;

	if (!start)
		return -ENOENT;
	/* Its extent: the mapping that holds the ELF header (the data pages before it are not ours). */
	f = fopen("/proc/self/maps", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx", &lo, &hi) != 2 || start < lo || start >= hi)
			continue;
		*buf = (const void *)start;
		*size = hi - start;
		err = 0;
		break;
	}
	fclose(f);
	return err;
}

int vdso__build_id(u8 *bid, size_t size)
{
	const void *buf;
	size_t len;
	Elf *elf;
	int err = vdso__image(&buf, &len);

	if (err)
		return err;
	elf_version(EV_CURRENT);
	elf = elf_memory((char *)buf, len);
	if (!elf)
		return -EINVAL;
	err = build_id__from_phdrs(elf, bid, size);
	elf_end(elf);
	return err;
}
