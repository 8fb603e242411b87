/*
 * The output buffer and integer formatting of outbuf.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include "outbuf.h"

int outbuf__init(struct outbuf *ob, int fd)
{
	memset(ob, 0, sizeof(*ob));
	ob->fd = fd;
	ob->size = OUTBUF_FLUSH + OUTBUF_MAX_ITEM;
	ob->buf = malloc(ob->size);
	return ob->buf ? 0 : -ENOMEM;
}

void outbuf__exit(struct outbuf *ob)
{
	free(ob->buf);
	memset(ob, 0, sizeof(*ob));
}

int outbuf__flush(struct outbuf *ob)
{
	size_t done = 0;

	if (ob->fd < 0)
		return ob->err;
	while (done < ob->len) {
		ssize_t n = write(ob->fd, ob->buf + done, ob->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!ob->err)
				ob->err = n < 0 ? -errno : -EIO;
			break;
		}
		done += n;
	}
	/* What could not be written is dropped: the error is kept instead. */
	ob->len = 0;
	return ob->err;
}

void outbuf__make_room(struct outbuf *ob, size_t n)
{
	size_t size;
	char *p;

	if (ob->fd >= 0) {
		outbuf__flush(ob);
		return;
	}
	size = ob->size * 2;
	while (size - ob->len < n)
		size *= 2;
	p = realloc(ob->buf, size);
	if (!p) {
		if (!ob->err)
			ob->err = -ENOMEM;
		ob->len = 0;
		return;
	}
	ob->buf = p;
	ob->size = size;
}

void outbuf__write(struct outbuf *ob, const char *s, size_t len)
{
	while (len) {
		size_t n = len < OUTBUF_MAX_ITEM ? len : OUTBUF_MAX_ITEM;
		char *p = outbuf__room(ob, n);

		memcpy(p, s, n);
		outbuf__advance(ob, p + n);
		s += n;
		len -= n;
	}
}

static void outbuf__spaces(struct outbuf *ob, size_t n)
{
	while (n) {
		size_t k = n < OUTBUF_MAX_ITEM ? n : OUTBUF_MAX_ITEM;
		char *p = outbuf__room(ob, k);

		memset(p, ' ', k);
		outbuf__advance(ob, p + k);
		n -= k;
	}
}

void outbuf__pad(struct outbuf *ob, const char *s, size_t len, unsigned int width, bool left)
{
	size_t pad = width > len ? width - len : 0;

	if (!left)
		outbuf__spaces(ob, pad);
	outbuf__write(ob, s, len);
	if (left)
		outbuf__spaces(ob, pad);
}

static const char digit_pairs[] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* Digits of @v in @base written backwards, ending just before @end; returns the first. */
static char *digits_rev(char *end, u64 v, unsigned int base, bool upper)
{
	const char *hex = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char *p = end;

	switch (base) {
	case 10:
		while (v >= 100) {
			unsigned int r = v % 100;

			v /= 100;
			p -= 2;
			memcpy(p, digit_pairs + 2 * r, 2);
		}
		if (v >= 10) {
			p -= 2;
			memcpy(p, digit_pairs + 2 * v, 2);
		} else {
			*--p = '0' + v;
		}
		break;
	case 16:
		do {
			*--p = hex[v & 15];
			v >>= 4;
		} while (v);
		break;
	default:
		do {
			*--p = '0' + (v & 7);
			v >>= 3;
		} while (v);
		break;
	}
	return p;
}

char *fmt__u64(char *p, u64 v)
{
	char tmp[24], *s = digits_rev(tmp + sizeof(tmp), v, 10, false);
	size_t n = tmp + sizeof(tmp) - s;

	memcpy(p, s, n);
	return p + n;
}

char *fmt__x64(char *p, u64 v)
{
	char tmp[24], *s = digits_rev(tmp + sizeof(tmp), v, 16, false);
	size_t n = tmp + sizeof(tmp) - s;

	memcpy(p, s, n);
	return p + n;
}

char *fmt__int(char *p, const struct fmt_int *spec, u64 v)
{
	char tmp[24], *s, *end = tmp + sizeof(tmp);
	const char *prefix = "";
	size_t nd, np, total;
	bool neg = false;

	/* What printf reads: the low @bits of the value, sign-extended for d and i. */
	if (spec->bits < 64) {
		unsigned int shift = 64 - spec->bits;

		v = spec->is_signed ? (u64)((s64)(v << shift) >> shift) : (v << shift) >> shift;
	}
	if (spec->is_signed && (s64)v < 0) {
		neg = true;
		v = -v;
	}
	s = digits_rev(end, v, spec->base, spec->upper);
	if (spec->alt) {
		if (spec->base == 16 && v)
			prefix = spec->upper ? "0X" : "0x";
		else if (spec->base == 8 && *s != '0')
			prefix = "0";
	}
	if (neg)
		prefix = "-";
	nd = end - s;
	np = strlen(prefix);
	total = nd + np;
	if (spec->width > total && !spec->left) {
		size_t pad = spec->width - total;

		if (spec->zero) {
			memcpy(p, prefix, np);
			p += np;
			memset(p, '0', pad);
			p += pad;
		} else {
			memset(p, ' ', pad);
			p += pad;
			memcpy(p, prefix, np);
			p += np;
		}
	} else {
		memcpy(p, prefix, np);
		p += np;
	}
	memcpy(p, s, nd);
	p += nd;
	if (spec->width > total && spec->left) {
		memset(p, ' ', spec->width - total);
		p += spec->width - total;
	}
	return p;
}
