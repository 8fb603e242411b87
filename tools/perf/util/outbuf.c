/*
 * The output buffer and integer formatting of outbuf.h.
 */
#include <errno.h>
#include <stdlib.h>
#include "outbuf.h"
#include "fd-io.h"

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
	int err;

	if (ob->fd < 0)
		return ob->err;
	err = fd__write_all(ob->fd, ob->buf, ob->len);
	if (err && !ob->err)
		ob->err = err;
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

static const u64 pow10[] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
	100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
	10000000000000ULL, 100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
	100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL,
};

/* How many digits @v has in @base: sizes are known first, so digits go straight to place. */
static inline unsigned int digits_len(u64 v, unsigned int base)
{
	unsigned int bits = 64 - __builtin_clzll(v | 1), n;

	switch (base) {
	case 16:
		return (bits + 3) / 4;
	case 8:
		return (bits + 2) / 3;
	default:
		if (!v)
			return 1;
		/* log10(2) ~ 1233 / 4096, so n is log10(v) rounded down, or one more. */
		n = (bits * 1233) >> 12;
		return n + 1 - (v < pow10[n]);
	}
}

/* Writes the @len digits of @v in @base so that they end just before @end. */
static inline void digits_put(char *end, unsigned int len, u64 v, unsigned int base,
			      bool upper)
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
		for (; len >= 2; len -= 2, v >>= 8) {
			p -= 2;
			p[0] = hex[(v >> 4) & 15];
			p[1] = hex[v & 15];
		}
		if (len)
			*--p = hex[v & 15];
		break;
	default:
		for (unsigned int i = 0; i < len; i++, v >>= 3)
			*--p = '0' + (v & 7);
		break;
	}
}

char *fmt__u64(char *p, u64 v)
{
	unsigned int n = digits_len(v, 10);

	digits_put(p + n, n, v, 10, false);
	return p + n;
}

char *fmt__x64(char *p, u64 v)
{
	unsigned int n = digits_len(v, 16);

	digits_put(p + n, n, v, 16, false);
	return p + n;
}

char *fmt__u64_width(char *p, u64 v, unsigned int width, char pad)
{
	unsigned int n = digits_len(v, 10);

	for (; width > n; width--)
		*p++ = pad;
	digits_put(p + n, n, v, 10, false);
	return p + n;
}

char *fmt__int(char *p, const struct fmt_int *spec, u64 v)
{
	unsigned int nd, np = 0, pad;
	char prefix[2];
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
	nd = digits_len(v, spec->base);
	/* Most conversions are the plain kind: no sign, prefix or padding. */
	if (!spec->width && !neg && !(spec->alt && v)) {
		digits_put(p + nd, nd, v, spec->base, spec->upper);
		return p + nd;
	}
	if (neg) {
		prefix[np++] = '-';
	} else if (spec->alt) {
		if (spec->base == 16 && v) {
			prefix[np++] = '0';
			prefix[np++] = spec->upper ? 'X' : 'x';
		} else if (spec->base == 8 && v) {
			/* A leading zero, which 0 already has. */
			prefix[np++] = '0';
		}
	}
	/* Pads are short: plain loops beat calls to memset. */
	pad = spec->width > nd + np ? spec->width - (nd + np) : 0;
	if (!spec->left && !spec->zero)
		for (; pad; pad--)
			*p++ = ' ';
	for (unsigned int i = 0; i < np; i++)
		*p++ = prefix[i];
	if (!spec->left)
		for (; pad; pad--)
			*p++ = '0';
	digits_put(p + nd, nd, v, spec->base, spec->upper);
	p += nd;
	for (; pad; pad--)
		*p++ = ' ';
	return p;
}
