/*
 * BPF_PROG_INFO and BPF_BTF, as perf.data headers hold them (see
 * bpf-info.h).  BPF_PROG_INFO: a u32 count, then per program a u32 info
 * length, a u32 data length, a u64 bitmap of the arrays present, struct
 * bpf_prog_info (that many bytes) and the arrays, whose fields in the info
 * are offsets into them.  BPF_BTF: a u32 count, then per object its u32
 * id, u32 size and the raw BTF.  BTF is read with libbpf.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <bpf/btf.h>
#include "bpf-info.h"
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
