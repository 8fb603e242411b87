/*
 * BPF_PROG_INFO and BPF_BTF, as perf.data headers hold them (see
 * bpf-info.h).  BPF_PROG_INFO: a u32 count, then per program a u32 info
 * length, a u32 data length, a u64 bitmap of the arrays present, struct
 * bpf_prog_info (that many bytes) and the arrays, whose fields in the info
 * are offsets into them.  BPF_BTF: a u32 count, then per object its u32
 * id, u32 size and the raw BTF.  BTF is read with libbpf.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "bpf-info.h"
#include "debug.h"
#include "event.h"
#include "synthetic-events.h"
#include "types.h"

/* One record of either feature, where it sits in the section. */
struct bpf_rec {
	u32 id;
	const u8 *p;		/* the info, or the BTF data */
	u32 len, data_len;	/* info length and array bytes; BTF: its size */
};

static int rec__cmp(const void *a, const void *b)
{
	const struct bpf_rec *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	/* The first of a repeated id stands, as in the distro. */
	return x->p < y->p ? -1 : x->p > y->p;
}

static u32 get_u32(const u8 *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * The records of a feature, sorted by id with repeats dropped; NULL (and
 * *@nr 0) when the section is cut short or out of memory.
 */
static struct bpf_rec *bpf_recs(const u8 *p, size_t len, bool progs, size_t *nr)
{
	const u8 *end;
	struct bpf_rec *r;
	size_t n = 0, out = 0;
	u32 count;

	*nr = 0;
	if (!p || len < 4)
		return NULL;
	end = p + len;
	count = get_u32(p);
	p += 4;
	if (count > len / 8)
		return NULL;
	r = calloc(count ? count : 1, sizeof(*r));
	if (!r)
		return NULL;
	for (; n < count; n++) {
		u32 a, b;

		if (end - p < (progs ? 16 : 8))
			break;
		a = get_u32(p);
		b = get_u32(p + 4);
		p += progs ? 16 : 8;	/* programs: info and data lengths, arrays */
		if ((size_t)(end - p) < (u64)(progs ? a : 0) + b)
			break;
		if (progs) {
			struct bpf_prog_info info = { 0 };

			memcpy(&info, p, a < sizeof(info) ? a : sizeof(info));
			r[n] = (struct bpf_rec){ .id = info.id, .p = p, .len = a, .data_len = b };
			p += (size_t)a + b;
		} else {
			r[n] = (struct bpf_rec){ .id = a, .p = p, .len = b };
			p += b;
		}
	}
	qsort(r, n, sizeof(*r), rec__cmp);
	for (size_t i = 0; i < n; i++)
		if (!out || r[out - 1].id != r[i].id)
			r[out++] = r[i];
	*nr = out;
	return r;
}

/* The array of @nr items of @size at offset @off of the record's data; NULL if it is not there. */
static const u8 *rec__array(const struct bpf_rec *r, u64 off, u64 nr, u64 size)
{
	if (off > r->data_len || nr * size > r->data_len - off)
		return NULL;
	return r->p + r->len + off;
}

/* "bpf_prog_<tag>[_<name>]", as the kernel and the distro name a BPF function. */
static void bpf_func_name(char *buf, size_t size, const struct bpf_prog_info *info,
			  const u8 *tag, const u8 *func_info, struct btf *btf, u32 sub)
{
	const char *name = NULL;
	size_t n = (size_t)snprintf(buf, size, "bpf_prog_");

	for (int i = 0; i < BPF_TAG_SIZE && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%02x", tag[i]);
	if (btf && func_info) {
		const struct btf_type *t = btf__type_by_id(btf, get_u32(func_info +
						(size_t)sub * info->func_info_rec_size + 4));

		name = t ? btf__name_by_offset(btf, t->name_off) : NULL;
	} else if (sub == 0 && info->nr_jited_ksyms == 1) {
		if (info->name[0])
			name = info->name;
	} else {
		name = "F";
	}
	if (name && n < size)
		snprintf(buf + n, size - n, "_%s", name);
}

void bpf_prog_info__fprintf(FILE *fp, const void *data, size_t len, const void *btf_data,
			    size_t btf_len)
{
	size_t nr, nr_btf;
	struct bpf_rec *progs = bpf_recs(data, len, true, &nr);
	struct bpf_rec *btfs = btf_data ? bpf_recs(btf_data, btf_len, false, &nr_btf) : NULL;

	if (!btfs)
		nr_btf = 0;
	for (size_t i = 0; progs && i < nr; i++) {
		const struct bpf_rec *r = &progs[i];
		struct bpf_prog_info info = { 0 };
		const u8 *addrs, *lens, *tags, *finfo = NULL;
		struct btf *btf = NULL;
		char name[512];
		u32 cnt;

		memcpy(&info, r->p, r->len < sizeof(info) ? r->len : sizeof(info));
		cnt = info.nr_jited_ksyms;
		if (cnt != info.nr_prog_tags || cnt != info.nr_jited_func_lens)
			continue;
		addrs = rec__array(r, info.jited_ksyms, cnt, 8);
		lens = rec__array(r, info.jited_func_lens, cnt, 4);
		tags = rec__array(r, info.prog_tags, cnt, BPF_TAG_SIZE);
		if (cnt && (!addrs || !lens || !tags))
			continue;	/* arrays outside the record: nothing to trust */
		if (info.btf_id) {
			for (size_t j = 0; j < nr_btf && !btf; j++)
				if (btfs[j].id == info.btf_id)
					btf = btf__new(btfs[j].p, btfs[j].len);
		}
		if (btf && info.func_info_rec_size >= 8 && info.nr_func_info >= cnt)
			finfo = rec__array(r, info.func_info, info.nr_func_info,
					   info.func_info_rec_size);
		if (cnt == 1) {
			u64 addr;

			memcpy(&addr, addrs, 8);
			bpf_func_name(name, sizeof(name), &info, tags, finfo, btf, 0);
			fprintf(fp, "# bpf_prog_info %u: %s addr 0x%llx size %u\n", info.id, name,
				(unsigned long long)addr, get_u32(lens));
		} else {
			fprintf(fp, "# bpf_prog_info %u:\n", info.id);
			for (u32 k = 0; k < cnt; k++) {
				u64 addr;

				memcpy(&addr, addrs + 8 * k, 8);
				bpf_func_name(name, sizeof(name), &info, tags + BPF_TAG_SIZE * k,
					      finfo, btf, k);
				fprintf(fp, "# \tsub_prog %u: %s addr 0x%llx size %u\n", k, name,
					(unsigned long long)addr, get_u32(lens + 4 * k));
			}
		}
		btf__free(btf);
	}
	free(progs);
	free(btfs);
}

void bpf_btf__fprintf(FILE *fp, const void *data, size_t len)
{
	size_t nr;
	struct bpf_rec *r = bpf_recs(data, len, false, &nr);

	for (size_t i = 0; r && i < nr; i++)
		fprintf(fp, "# btf info of id %u\n", r[i].id);
	free(r);
}

/* The most a JITed function's name takes, as the distro bounds it. */
#define BPF_NAME_MAX 512

/* One program's functions and its load, from the kernel's info for @fd. */
static int bpf_prog__synthesize(struct synth_ctx *ctx, int fd)
{
	struct bpf_prog_info info = { 0 }, full = { 0 };
	union {
		union perf_event ev;
		char bytes[sizeof(struct perf_record_ksymbol) + BPF_NAME_MAX + MAX_SAMPLE_ID_SIZE + 8];
	} b;
	u32 len = sizeof(info), cnt;
	u64 *addrs = NULL;
	u32 *lens = NULL;
	u8 *tags = NULL, *finfo = NULL;
	struct btf *btf = NULL;
	int err = 0;

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return 0;
	cnt = info.nr_jited_ksyms;
	/* Not JITed, or counts that do not add up: nothing to name, as in the distro. */
	if (!cnt || cnt != info.nr_prog_tags || cnt != info.nr_jited_func_lens)
		return 0;
	addrs = calloc(cnt, sizeof(*addrs));
	lens = calloc(cnt, sizeof(*lens));
	tags = calloc(cnt, BPF_TAG_SIZE);
	if (info.nr_func_info == cnt && info.func_info_rec_size >= 8)
		finfo = calloc(cnt, info.func_info_rec_size);
	if (!addrs || !lens || !tags) {
		err = -ENOMEM;
		goto out;
	}
	full.nr_jited_ksyms = cnt;
	full.jited_ksyms = (uintptr_t)addrs;
	full.nr_jited_func_lens = cnt;
	full.jited_func_lens = (uintptr_t)lens;
	full.nr_prog_tags = cnt;
	full.prog_tags = (uintptr_t)tags;
	if (finfo) {
		full.nr_func_info = cnt;
		full.func_info_rec_size = info.func_info_rec_size;
		full.func_info = (uintptr_t)finfo;
	}
	len = sizeof(full);
	if (bpf_obj_get_info_by_fd(fd, &full, &len))
		goto out;
	/* The kernel names functions from the program's BTF: so do we, when we can read it. */
	if (finfo && full.btf_id) {
		btf = btf__load_from_kernel_by_id(full.btf_id);
		if (!btf)
			pr_debug("BPF program %u: cannot read its BTF %u: %s\n", full.id,
				 full.btf_id, strerror(errno));
	}
	for (u32 k = 0; k < cnt && !err; k++) {
		struct perf_record_ksymbol *ks = &b.ev.ksymbol;

		memset(ks, 0, sizeof(*ks));
		ks->header.type = PERF_RECORD_KSYMBOL;
		ks->addr = addrs[k];
		ks->len = lens[k];
		ks->ksym_type = PERF_RECORD_KSYMBOL_TYPE_BPF;
		bpf_func_name(ks->name, BPF_NAME_MAX, &full, tags + BPF_TAG_SIZE * k,
			      btf ? finfo : NULL, btf, k);
		err = synth_ctx__emit(ctx, &b.ev, offsetof(struct perf_record_ksymbol, name) +
				      strlen(ks->name) + 1, 0, 0);
	}
	if (!err) {
		struct perf_record_bpf_event *be = &b.ev.bpf;

		memset(be, 0, sizeof(*be));
		be->header.type = PERF_RECORD_BPF_EVENT;
		be->type = PERF_BPF_EVENT_PROG_LOAD;
		be->id = full.id;
		memcpy(be->tag, full.tag, sizeof(be->tag));
		err = synth_ctx__emit(ctx, &b.ev, sizeof(*be), 0, 0);
	}
out:
	btf__free(btf);
	free(addrs);
	free(lens);
	free(tags);
	free(finfo);
	return err;
}

int perf_event__synthesize_bpf_progs(struct synth_ctx *ctx)
{
	u32 id = 0;
	int err = 0;

	while (!err) {
		int fd;

		if (bpf_prog_get_next_id(id, &id)) {
			if (errno != ENOENT)
				pr_debug("Cannot list the BPF programs: %s\n", strerror(errno));
			return 0;
		}
		fd = bpf_prog_get_fd_by_id(id);
		if (fd < 0)
			continue;	/* unloaded meanwhile */
		err = bpf_prog__synthesize(ctx, fd);
		close(fd);
	}
	return err;
}
