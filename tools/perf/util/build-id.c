/* GNU build ids of ELF files and of the running kernel. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "build-id.h"
#include "hash.h"
#include "hashtab.h"
#include "fd-io.h"

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

/* Walks a buffer of notes (Elf_Nhdr, name, desc, each 4-aligned) for the GNU build id. */
int build_id__from_notes(const void *buf, size_t len, u8 *bid, size_t size)
{
	const char *p = buf, *end = p + len;

	while (p + sizeof(Elf32_Nhdr) <= end) {
		const Elf32_Nhdr *n = (const Elf32_Nhdr *)p;
		size_t namesz = PERF_ALIGN(n->n_namesz, 4), descsz = PERF_ALIGN(n->n_descsz, 4);
		const char *name = p + sizeof(*n), *desc = name + namesz;

		if (desc + descsz > end || desc < name)
			break;
		if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && !memcmp(name, "GNU", 4)) {
			size_t l = n->n_descsz < size ? n->n_descsz : size;

			memcpy(bid, desc, l);
			return (int)l;
		}
		p = desc + descsz;
	}
	return -ENOENT;
}

/*
 * Every dump of a flight recorder asks again for the same libraries: keep
 * what each file said, keyed by its path and identity (device, inode, size,
 * mtime), so a file replaced on disk is read afresh.
 */
struct build_id_cache_entry {
	char *path;
	dev_t dev;
	ino_t ino;
	off_t fsize;
	struct timespec mtime;
	int len;			/* the answer: bytes of id, or -errno */
	u8 bid[BUILD_ID_SIZE];
};

/* By path; a file replaced at that path is another entry (equal() says). */
static u64 build_id_cache__hash(const void *entry, void *ctx)
{
	return str__hash(((const struct build_id_cache_entry *)entry)->path);
}

static bool build_id_cache__equal(const void *entry, const void *key, void *ctx)
{
	const struct build_id_cache_entry *a = entry, *b = key;

	return a->dev == b->dev && a->ino == b->ino && a->fsize == b->fsize &&
	       a->mtime.tv_sec == b->mtime.tv_sec && a->mtime.tv_nsec == b->mtime.tv_nsec &&
	       !strcmp(a->path, b->path);
}

static struct hashtab build_id_cache = {
	.size = sizeof(struct build_id_cache_entry), .min_cap = 64,
	.hash = build_id_cache__hash, .equal = build_id_cache__equal,
};

static int filename__read_build_id_uncached(const char *path, u8 *bid, size_t size);

static int build_id_cache__answer(const struct build_id_cache_entry *e, u8 *bid, size_t size)
{
	if (e->len > 0) {
		if ((size_t)e->len > size)
			return -ENOSPC;
		memcpy(bid, e->bid, e->len);
	}
	return e->len;
}

int filename__read_build_id(const char *path, u8 *bid, size_t size)
{
	struct build_id_cache_entry key, *e;
	struct stat st;
	u64 hash = str__hash(path);

	if (stat(path, &st) < 0)
		return -errno;
	key = (struct build_id_cache_entry){
		.path = (char *)path, .dev = st.st_dev, .ino = st.st_ino,
		.fsize = st.st_size, .mtime = st.st_mtim,
	};
	e = hashtab__find(&build_id_cache, &key, hash);
	if (e)
		return build_id_cache__answer(e, bid, size);
	key.len = filename__read_build_id_uncached(path, key.bid, sizeof(key.bid));
	key.path = strdup(path);
	/* Out of memory costs only a read of the file next time. */
	if (key.path && !hashtab__add(&build_id_cache, &key, hash))
		free(key.path);
	return build_id_cache__answer(&key, bid, size);
}

int build_id__from_phdrs(Elf *elf, u8 *bid, size_t size)
{
	size_t phnum;
	int err = -ENOENT;

	if (elf_getphdrnum(elf, &phnum) < 0)
		return err;
	for (size_t i = 0; i < phnum && err < 0; i++) {
		GElf_Phdr ph;
		Elf_Data *d;

		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_NOTE)
			continue;
		d = elf_getdata_rawchunk(elf, ph.p_offset, ph.p_filesz, ELF_T_NHDR);
		if (d && d->d_buf)
			err = build_id__from_notes(d->d_buf, d->d_size, bid, size);
	}
	return err;
}

int elf__read_build_id(Elf *elf, u8 *bid, size_t size)
{
	Elf_Scn *scn = NULL;
	int err = -ENOENT;

	while ((scn = elf_nextscn(elf, scn)) && err < 0) {
		GElf_Shdr shdr;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE)
			continue;
		d = elf_getdata(scn, NULL);
		if (d && d->d_buf)
			err = build_id__from_notes(d->d_buf, d->d_size, bid, size);
	}
	/* Stripped of section headers: the notes are still in PT_NOTE. */
	return err < 0 ? build_id__from_phdrs(elf, bid, size) : err;
}

static int filename__read_build_id_uncached(const char *path, u8 *bid, size_t size)
{
	int fd, err;
	Elf *elf;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		err = -EINVAL;
		goto out_end;
	}
	err = elf__read_build_id(elf, bid, size);
out_end:
	if (elf)
		elf_end(elf);
	close(fd);
	return err;
}

int sysfs__read_build_id(const char *path, u8 *bid, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;
	size_t len;
	char *buf;

	if (fd < 0)
		return -errno;
	err = fd__read_to_end(fd, &buf, &len);
	close(fd);
	if (err)
		return err;
	err = build_id__from_notes(buf, len, bid, size);
	free(buf);
	return err;
}

void build_id__sprintf(const u8 *bid, size_t len, char *out)
{
	for (size_t i = 0; i < len; i++)
		sprintf(out + 2 * i, "%02x", bid[i]);
	out[2 * len] = '\0';
}

bool build_id__same(const u8 *file, int flen, const u8 *recorded, int rlen)
{
	if (flen <= 0 || rlen <= 0 || flen > rlen)
		return false;
	if (memcmp(file, recorded, flen))
		return false;
	/* Files written without the size flag pad every id with zeros to 20 bytes. */
	for (int i = flen; i < rlen; i++)
		if (recorded[i])
			return false;
	return true;
}
