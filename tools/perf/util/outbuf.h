#ifndef PERF_UTIL_OUTBUF_H
#define PERF_UTIL_OUTBUF_H
/*
 * A large output buffer written to a file descriptor, and the integer
 * formatting that fills it.
 *
 * perf script prints millions of short lines.  Through stdio every field is
 * a locked call that parses its format string again; formatting numbers
 * straight into one buffer and handing it to write(2) in OUTBUF_FLUSH-sized
 * pieces costs a fraction of that.  The buffer keeps OUTBUF_MAX_ITEM bytes
 * spare past the flush threshold, so a caller asks for room for one item
 * (a number, a short string) and writes into it without further checks.
 *
 * With fd < 0 nothing is written: the buffer grows and keeps everything,
 * which is what tests want.  Errors (a failed write, no memory) are
 * remembered in ->err; the bytes concerned are dropped, and room is always
 * available afterwards, so callers check ->err once at the end.
 */
#include <string.h>
#include "types.h"

#define OUTBUF_FLUSH	(64u << 10)
#define OUTBUF_MAX_ITEM	512u

struct outbuf {
	char *buf;
	size_t len;		/* bytes waiting to be written */
	size_t size;		/* allocated */
	int fd;
	int err;		/* first error, -errno */
};

int outbuf__init(struct outbuf *ob, int fd);
void outbuf__exit(struct outbuf *ob);
/* Writes out everything buffered; returns ob->err. */
int outbuf__flush(struct outbuf *ob);
/* Slow path of outbuf__room(): flush (or grow) until @n bytes fit. */
void outbuf__make_room(struct outbuf *ob, size_t n);
/* Any length, in pieces of at most OUTBUF_MAX_ITEM. */
void outbuf__write(struct outbuf *ob, const char *s, size_t len);
/* @s right-aligned in @width columns (left-aligned with @left), as "%*s" / "%-*s". */
void outbuf__pad(struct outbuf *ob, const char *s, size_t len, unsigned int width, bool left);

/* Where the next @n (<= OUTBUF_MAX_ITEM) bytes go; finish with outbuf__advance(). */
static inline char *outbuf__room(struct outbuf *ob, size_t n)
{
	if (ob->size - ob->len < n)
		outbuf__make_room(ob, n);
	return ob->buf + ob->len;
}

/* @end: one past the last byte written into the room. */
static inline void outbuf__advance(struct outbuf *ob, char *end)
{
	ob->len = end - ob->buf;
	if (ob->len >= OUTBUF_FLUSH && ob->fd >= 0)
		outbuf__flush(ob);
}

static inline void outbuf__putc(struct outbuf *ob, char c)
{
	char *p = outbuf__room(ob, 1);

	*p++ = c;
	outbuf__advance(ob, p);
}

static inline void outbuf__puts(struct outbuf *ob, const char *s)
{
	outbuf__write(ob, s, strlen(s));
}

/*
 * One printf integer conversion: d i u x X o with the flags '-', '0', '#'
 * and a width, of a value that printf would read as a @bits wide integer
 * (8: hh, 16: h, 32: none, 64: l or ll).  No precision, no '+' or ' '.
 */
struct fmt_int {
	u8 base;		/* 8, 10 or 16 */
	u8 bits;		/* 8, 16, 32 or 64 */
	bool is_signed;		/* d, i */
	bool upper;		/* X */
	bool left;		/* '-' */
	bool zero;		/* '0' (ignored with '-') */
	bool alt;		/* '#': 0x prefix for non-zero hex, a leading 0 for octal */
	u16 width;		/* at most OUTBUF_MAX_ITEM - 24 */
};

/* Writes @v as @spec says at @p; returns the end.  Needs room for max(width, 24) bytes. */
char *fmt__int(char *p, const struct fmt_int *spec, u64 v);
/* Plain unsigned decimal ("%llu"); up to 20 bytes. */
char *fmt__u64(char *p, u64 v);
/* Lower-case hex without prefix ("%llx"); up to 16 bytes. */
char *fmt__x64(char *p, u64 v);
/* "%*llu" (@pad ' ') or "%0*llu" (@pad '0'): needs room for max(width, 20) bytes. */
char *fmt__u64_width(char *p, u64 v, unsigned int width, char pad);

#endif
