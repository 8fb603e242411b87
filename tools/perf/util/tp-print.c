/*
 * Compiled tracepoint formats (see tp-print.h).
 *
 * What libtraceevent does with a print_fmt, and so what the ops below must
 * reproduce:
 *
 *  - The format string is cut into literal text and conversions.  In the
 *    text, "%%" is '%' and a backslash escape (\n \t \r \\, else the next
 *    character itself) is replaced by what it stands for.
 *  - A conversion takes the next argument of the parsed list.  Its
 *    characters up to the conversion letter are kept and handed to printf
 *    with the value: for d i u x X o the value is cast to char, short, int,
 *    long or long long by the number of 'h'/'l' letters, for s it is a
 *    string, and %p without a known suffix prints "%p" of the value, width
 *    and flags ignored.
 *  - A field argument (REC->x) is read as an unsigned number of the field's
 *    size (1, 2, 4 or 8 bytes), an element REC->x[N] of an array field as
 *    one of the element size; both are zero-extended, so the cast above is
 *    what makes a value negative.
 *  - __get_str(x) reads the __data_loc word of x: offset in the low 16 bits,
 *    length in the high 16 (a 2-byte word has no length: the rest of the
 *    record); __rel_loc offsets count from the end of the word.  A zero
 *    length, or one past the record, prints nothing at all, not even the
 *    padding of a width.
 *  - A char array field printed with %s is copied and NUL-terminated at its
 *    size, so it ends at its first NUL or at the end of the array.
 *
 * The compiler accepts only what it can reproduce exactly; the rest is
 * libtraceevent's.  Records too short for a field go to libtraceevent too,
 * which warns about them.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include "outbuf.h"
#include "tp-print.h"

/* Widths beyond this are left to libtraceevent: room for one item is bounded. */
#define TP_MAX_WIDTH	256
/* Strings per event whose place is only known per record. */
#define TP_MAX_DYNSTR	8

enum tp_op_kind {
	TP_OP_TEXT,		/* literal text */
	TP_OP_INT,		/* an integer through one printf conversion */
	TP_OP_PTR,		/* "%p" of an integer */
	TP_OP_STR,		/* a char array field, up to its first NUL */
	TP_OP_DYNSTR,		/* __get_str(): a string elsewhere in the record */
};

struct tp_op {
	enum tp_op_kind kind;
	u32 offset;		/* in the record: the number, the array or the __data_loc word */
	u32 size;		/* of the number (1, 2, 4, 8), the array, the __data_loc word (2, 4) */
	bool relative;		/* __rel_loc: the string's offset counts from the end of the word */
	bool left;		/* strings: "%-*s" */
	u16 width;		/* strings: "%*s" */
	struct fmt_int spec;	/* TP_OP_INT */
	u8 plain;		/* TP_OP_INT: 'x', 'd' or 'u' when it is just %lx, %ld or %lu */
	u32 text, text_len;	/* TP_OP_TEXT: offset and length in the prog's pool */
};

/* One event's compiled format. */
struct tp_prog {
	int id;
	struct tep_event *event;	/* NULL: not compiled, always libtraceevent */
	u32 min_size;			/* every fixed-place field lies below this */
	unsigned int nr_ops, nr_dynstr;
	struct tp_op *ops;
	char *pool;			/* literal text */
	size_t pool_len;
};

struct tp_printer {
	struct tep_handle *tep;
	/* Where every record keeps its event id (common_type), as libtraceevent reads it. */
	u32 type_offset, type_size;
	bool usable;			/* endianness and common_type as expected */
	struct tp_prog **progs;		/* sorted by id */
	size_t nr_progs, cap_progs;
	struct tp_prog *last;		/* records of one event tend to come in runs */
};

/* Host-endian read of a 1, 2, 4 or 8 byte unsigned number (the caller checked @size). */
static inline u64 tp__read_num(const unsigned char *p, u32 size)
{
	u8 v8;
	u16 v16;
	u32 v32;
	u64 v64;

	switch (size) {
	case 1:
		v8 = *p;
		return v8;
	case 2:
		memcpy(&v16, p, 2);
		return v16;
	case 4:
		memcpy(&v32, p, 4);
		return v32;
	default:
		memcpy(&v64, p, 8);
		return v64;
	}
}

static bool tp__num_size_ok(u32 size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

static void tp_prog__free(struct tp_prog *prog)
{
	if (!prog)
		return;
	free(prog->ops);
	free(prog->pool);
	free(prog);
}

static struct tp_op *tp_prog__add_op(struct tp_prog *prog, enum tp_op_kind kind)
{
	struct tp_op *ops = realloc(prog->ops, (prog->nr_ops + 1) * sizeof(*ops));

	if (!ops)
		return NULL;
	prog->ops = ops;
	ops = &ops[prog->nr_ops++];
	memset(ops, 0, sizeof(*ops));
	ops->kind = kind;
	return ops;
}

static int tp_prog__add_char(struct tp_prog *prog, char c)
{
	struct tp_op *last = prog->nr_ops ? &prog->ops[prog->nr_ops - 1] : NULL;
	char *pool;

	/* Text runs are appended to the pool in order: extend the last one if it ends it. */
	if (!last || last->kind != TP_OP_TEXT || last->text_len == OUTBUF_MAX_ITEM) {
		last = tp_prog__add_op(prog, TP_OP_TEXT);
		if (!last)
			return -ENOMEM;
		last->text = prog->pool_len;
	}
	pool = realloc(prog->pool, prog->pool_len + 1);
	if (!pool)
		return -ENOMEM;
	prog->pool = pool;
	pool[prog->pool_len++] = c;
	last->text_len++;
	return 0;
}

/* Literal text up to the next conversion; *@fmt is moved past it. */
static int tp_prog__compile_text(struct tp_prog *prog, const char **fmt)
{
	const char *f = *fmt;
	int err = 0;

	for (; *f && !err; f++) {
		char c = *f;

		if (c == '\\') {
			/* A trailing backslash: libtraceevent would read past the string. */
			if (!f[1])
				return -EOPNOTSUPP;
			c = *++f;
			if (c == 'n')
				c = '\n';
			else if (c == 't')
				c = '\t';
			else if (c == 'r')
				c = '\r';
		} else if (c == '%') {
			if (f[1] != '%')
				break;
			f++;
		}
		err = tp_prog__add_char(prog, c);
	}
	*fmt = f;
	return err;
}

static struct tep_format_field *tp__field(struct tep_event *ev, struct tep_format_field *field,
					  const char *name)
{
	/* libtraceevent resolves a field it did not find at parse time by name, on use. */
	if (!field && name)
		field = tep_find_any_field(ev, name);
	return field;
}

/* Where the integer argument @arg is read from: a plain field or a constant element of one. */
static int tp__int_arg(struct tep_event *ev, struct tep_print_arg *arg, u32 *offset, u32 *size)
{
	struct tep_format_field *field;

	if (arg->type == TEP_PRINT_FIELD) {
		field = tp__field(ev, arg->field.field, arg->field.name);
		if (!field || (field->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) ||
		    field->offset < 0 || !tp__num_size_ok(field->size))
			return -EOPNOTSUPP;
		*offset = field->offset;
		*size = field->size;
		return 0;
	}
	if (arg->type == TEP_PRINT_OP && arg->op.op && !strcmp(arg->op.op, "[")) {
		struct tep_print_arg *l = arg->op.left, *r = arg->op.right;
		unsigned long long idx;
		char *end;

		if (!l || !r || l->type != TEP_PRINT_FIELD || r->type != TEP_PRINT_ATOM ||
		    !r->atom.atom || !isdigit((unsigned char)r->atom.atom[0]))
			return -EOPNOTSUPP;
		field = tp__field(ev, l->field.field, l->field.name);
		if (!field || (field->flags & TEP_FIELD_IS_DYNAMIC) || field->offset < 0 ||
		    !tp__num_size_ok(field->elementsize))
			return -EOPNOTSUPP;
		errno = 0;
		idx = strtoull(r->atom.atom, &end, 0);
		if (*end || errno || idx > 65535)
			return -EOPNOTSUPP;
		*offset = field->offset + (u32)idx * field->elementsize;
		*size = field->elementsize;
		return 0;
	}
	return -EOPNOTSUPP;
}

static int tp__str_arg(struct tep_event *ev, struct tep_print_arg *arg, struct tp_op *op)
{
	struct tep_format_field *field;

	if (arg->type == TEP_PRINT_STRING) {
		field = tp__field(ev, arg->string.field, arg->string.string);
		if (!field || field->offset < 0 || (field->size != 2 && field->size != 4))
			return -EOPNOTSUPP;
		op->kind = TP_OP_DYNSTR;
		op->relative = field->flags & TEP_FIELD_IS_RELATIVE;
	} else if (arg->type == TEP_PRINT_FIELD) {
		field = tp__field(ev, arg->field.field, arg->field.name);
		/* Other fields are printed as kernel pointers or raw bytes: not here. */
		if (!field || !(field->flags & TEP_FIELD_IS_ARRAY) ||
		    (field->flags & TEP_FIELD_IS_DYNAMIC) || field->offset < 0 || field->size <= 0)
			return -EOPNOTSUPP;
		op->kind = TP_OP_STR;
	} else {
		return -EOPNOTSUPP;
	}
	op->offset = field->offset;
	op->size = field->size;
	return 0;
}

/* A conversion as written: its flags, width, length and letter. */
struct tp_conv {
	bool left, zero, alt;
	unsigned int width;
	int ls;		/* length: -2 hh, -1 h, 0 none, 1 l z Z, 2 ll L */
	char conv;
};

/*
 * Reads the conversion after the '%' at @f into @c and returns where it
 * ends, or NULL for a width past what the fast path prints.
 */
static const char *tp_conv__parse(const char *f, struct tp_conv *c)
{
	memset(c, 0, sizeof(*c));
	for (;; f++) {
		if (*f == '-')
			c->left = true;
		else if (*f == '0')
			c->zero = true;
		else if (*f == '#')
			c->alt = true;
		else
			break;
	}
	while (isdigit((unsigned char)*f)) {
		c->width = c->width * 10 + (*f++ - '0');
		if (c->width > TP_MAX_WIDTH)
			return NULL;
	}
	if (f[0] == 'h' && f[1] == 'h') {
		c->ls = -2;
		f += 2;
	} else if (f[0] == 'l' && f[1] == 'l') {
		c->ls = 2;
		f += 2;
	} else if (*f == 'h') {
		c->ls = -1;
		f++;
	} else if (*f == 'l' || *f == 'z' || *f == 'Z') {
		c->ls = 1;
		f++;
	} else if (*f == 'L') {
		c->ls = 2;
		f++;
	}
	c->conv = *f++;
	return f;
}

static struct tp_op *tp_prog__compile_int(struct tp_prog *prog, struct tep_event *ev,
					  struct tep_print_arg *arg, const struct tp_conv *c,
					  int *err)
{
	struct tp_op *op = tp_prog__add_op(prog, TP_OP_INT);
	char conv = c->conv;

	if (!op) {
		*err = -ENOMEM;
		return NULL;
	}
	*err = tp__int_arg(ev, arg, &op->offset, &op->size);
	if (*err)
		return NULL;
	op->spec.base = conv == 'o' ? 8 : (conv == 'x' || conv == 'X') ? 16 : 10;
	op->spec.bits = c->ls == -2 ? 8 : c->ls == -1 ? 16 : c->ls == 0 ? 32 : 64;
	op->spec.is_signed = conv == 'd' || conv == 'i';
	op->spec.upper = conv == 'X';
	op->spec.left = c->left;
	op->spec.zero = c->zero && !c->left;
	op->spec.alt = c->alt;
	op->spec.width = c->width;
	/* The common spellings get a shorter way (raw_syscalls is all %ld and %lx). */
	if (op->spec.bits == 64 && !c->width && !c->alt && conv != 'X' && conv != 'o')
		op->plain = conv == 'x' ? 'x' : op->spec.is_signed ? 'd' : 'u';
	return op;
}

/* @next: what follows the 'p', whose suffixes libtraceevent formats with its own helpers. */
static struct tp_op *tp_prog__compile_ptr(struct tp_prog *prog, struct tep_event *ev,
					  struct tep_print_arg *arg, char next, int *err)
{
	struct tp_op *op;

	/* %pS, %pM, %pI4, ... */
	*err = -EOPNOTSUPP;
	if (next && strchr("FfSsMmIiUh", next))
		return NULL;
	op = tp_prog__add_op(prog, TP_OP_PTR);
	if (!op) {
		*err = -ENOMEM;
		return NULL;
	}
	*err = tp__int_arg(ev, arg, &op->offset, &op->size);
	return *err ? NULL : op;
}

static struct tp_op *tp_prog__compile_str(struct tp_prog *prog, struct tep_event *ev,
					  struct tep_print_arg *arg, const struct tp_conv *c,
					  int *err)
{
	struct tp_op *op;

	*err = -EOPNOTSUPP;
	if (c->alt || c->ls || prog->nr_dynstr == TP_MAX_DYNSTR)
		return NULL;
	op = tp_prog__add_op(prog, TP_OP_STR);
	if (!op) {
		*err = -ENOMEM;
		return NULL;
	}
	*err = tp__str_arg(ev, arg, op);
	if (*err)
		return NULL;
	op->left = c->left;
	op->width = c->width;
	if (op->kind == TP_OP_DYNSTR)
		prog->nr_dynstr++;
	return op;
}

/*
 * One conversion at *@fmt (a '%' not followed by another) with the next
 * argument.  Only spellings printf and libtraceevent read the same way are
 * taken: flags from "-0#", a width, a length from hh h l ll z Z L.
 */
static int tp_prog__compile_conv(struct tp_prog *prog, struct tep_event *ev, const char **fmt,
				 struct tep_print_arg **argp)
{
	struct tp_conv c;
	struct tp_op *op;
	const char *f;
	int err;
	u32 end;

	f = tp_conv__parse(*fmt + 1, &c);
	if (!f)
		return -EOPNOTSUPP;
	if (!*argp)
		return -EOPNOTSUPP;	/* libtraceevent marks the event as failed */

	switch (c.conv) {
	case 'd': case 'i': case 'u': case 'x': case 'X': case 'o':
		op = tp_prog__compile_int(prog, ev, *argp, &c, &err);
		break;
	case 'p':
		op = tp_prog__compile_ptr(prog, ev, *argp, *f, &err);
		break;
	case 's':
		op = tp_prog__compile_str(prog, ev, *argp, &c, &err);
		break;
	default:
		/* %c may print a NUL, which ends the line early on the slow path; %.*s, ... */
		return -EOPNOTSUPP;
	}
	if (!op)
		return err;
	end = op->offset + op->size;
	if (end > prog->min_size)
		prog->min_size = end;
	*argp = (*argp)->next;
	*fmt = f;
	return 0;
}

static int tp_prog__compile(struct tp_prog *prog, struct tep_event *ev)
{
	const char *fmt = ev->print_fmt.format;
	struct tep_print_arg *arg = ev->print_fmt.args;
	int err = 0;

	/* Events with their own printer (plugins, ftrace internals) and failed parses. */
	if (!fmt || ev->handler || (ev->flags & (TEP_EVENT_FL_ISFTRACE | TEP_EVENT_FL_ISPRINT |
						  TEP_EVENT_FL_ISBPRINT | TEP_EVENT_FL_PRINTRAW |
						  TEP_EVENT_FL_FAILED)))
		return -EOPNOTSUPP;
	while (*fmt && !err) {
		if (fmt[0] == '%' && fmt[1] != '%')
			err = tp_prog__compile_conv(prog, ev, &fmt, &arg);
		else
			err = tp_prog__compile_text(prog, &fmt);
	}
	return err;
}

/* A compiled prog for @id, or one that says "use libtraceevent"; NULL without memory. */
static struct tp_prog *tp_printer__new_prog(struct tp_printer *tp, int id)
{
	struct tp_prog *prog = calloc(1, sizeof(*prog));
	struct tep_event *ev;
	int err;

	if (!prog)
		return NULL;
	prog->id = id;
	ev = tep_find_event(tp->tep, id);
	if (!ev)
		return prog;
	err = tp_prog__compile(prog, ev);
	if (err == -ENOMEM) {
		tp_prog__free(prog);
		return NULL;
	}
	if (err) {
		/* Keep the entry, without ops, so the event is not compiled again. */
		free(prog->ops);
		free(prog->pool);
		memset(prog, 0, sizeof(*prog));
		prog->id = id;
		return prog;
	}
	prog->event = ev;
	return prog;
}

static struct tp_prog *tp_printer__prog(struct tp_printer *tp, int id)
{
	size_t lo = 0, hi = tp->nr_progs;
	struct tp_prog *prog;

	if (tp->last && tp->last->id == id)
		return tp->last;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (tp->progs[mid]->id == id)
			return tp->last = tp->progs[mid];
		if (tp->progs[mid]->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (tp->nr_progs == tp->cap_progs) {
		size_t cap = tp->cap_progs ? tp->cap_progs * 2 : 16;
		struct tp_prog **p = realloc(tp->progs, cap * sizeof(*p));

		if (!p)
			return NULL;
		tp->progs = p;
		tp->cap_progs = cap;
	}
	prog = tp_printer__new_prog(tp, id);
	if (!prog)
		return NULL;
	memmove(&tp->progs[lo + 1], &tp->progs[lo], (tp->nr_progs - lo) * sizeof(*tp->progs));
	tp->progs[lo] = prog;
	tp->nr_progs++;
	return tp->last = prog;
}

struct tp_printer *tp_printer__new(struct tep_handle *tep)
{
	struct tp_printer *tp = calloc(1, sizeof(*tp));
	struct tep_format_field *type;
	struct tep_event *first;

	if (!tp)
		return NULL;
	tp->tep = tep;
	/* libtraceevent takes common_type's place from its first event. */
	first = tep ? tep_get_first_event(tep) : NULL;
	type = first ? tep_find_common_field(first, "common_type") : NULL;
	if (type && type->offset >= 0 && tp__num_size_ok(type->size) &&
	    tep_is_file_bigendian(tep) == tep_is_local_bigendian(tep)) {
		tp->type_offset = type->offset;
		tp->type_size = type->size;
		tp->usable = true;
	}
	return tp;
}

void tp_printer__delete(struct tp_printer *tp)
{
	if (!tp)
		return;
	for (size_t i = 0; i < tp->nr_progs; i++)
		tp_prog__free(tp->progs[i]);
	free(tp->progs);
	free(tp);
}

/* The string of a __data_loc/__rel_loc field, or false when it is not safely inside. */
static bool tp__dynstr(const struct tp_op *op, const unsigned char *data, u32 size,
		       const char **s, size_t *len)
{
	u64 word = tp__read_num(data + op->offset, op->size);
	unsigned int off = word & 0xffff, n;
	const char *nul;

	/* The same unsigned arithmetic as libtraceevent, edge cases included. */
	n = op->size == 2 ? size - off : (word >> 16) & 0xffff;
	if (off > size)
		off = 0;
	if (off + n > size)
		n = 0;
	if (op->relative)
		off += op->offset + op->size;
	if (!n) {
		*s = NULL;	/* nothing is printed */
		return true;
	}
	/* printf("%s") stops at the first NUL: it has to be in the record. */
	if (off >= size)
		return false;
	nul = memchr(data + off, '\0', size - off);
	if (!nul)
		return false;
	*s = (const char *)data + off;
	*len = nul - *s;
	return true;
}

int tp_printer__print(struct tp_printer *tp, struct outbuf *ob, const void *raw, u32 size)
{
	const unsigned char *data = raw;
	struct { const char *s; size_t len; } dyn[TP_MAX_DYNSTR];
	struct tp_prog *prog;
	unsigned int d = 0;
	char *p;

	if (!tp->usable || size < tp->type_offset + tp->type_size)
		return -EOPNOTSUPP;
	prog = tp_printer__prog(tp, (int)tp__read_num(data + tp->type_offset, tp->type_size));
	if (!prog)
		return -ENOMEM;
	if (!prog->event || size < prog->min_size)
		return -EOPNOTSUPP;

	/* Everything that can send the record to the slow path is checked before printing. */
	if (prog->nr_dynstr) {
		for (unsigned int i = 0; i < prog->nr_ops; i++) {
			const struct tp_op *op = &prog->ops[i];

			if (op->kind == TP_OP_DYNSTR &&
			    !tp__dynstr(op, data, size, &dyn[d].s, &dyn[d].len))
				return -EOPNOTSUPP;
			d += op->kind == TP_OP_DYNSTR;
		}
		d = 0;
	}

	for (unsigned int i = 0; i < prog->nr_ops; i++) {
		const struct tp_op *op = &prog->ops[i];
		const char *s;
		u64 v;

		switch (op->kind) {
		case TP_OP_TEXT:
			/* Runs are cut to OUTBUF_MAX_ITEM when compiled: one room suffices. */
			p = outbuf__room(ob, op->text_len);
			memcpy(p, prog->pool + op->text, op->text_len);
			outbuf__advance(ob, p + op->text_len);
			break;
		case TP_OP_INT:
			v = tp__read_num(data + op->offset, op->size);
			p = outbuf__room(ob, op->spec.width + 24);
			if (op->plain == 'x') {
				p = fmt__x64(p, v);
			} else if (op->plain == 'u' || (op->plain == 'd' && (s64)v >= 0)) {
				p = fmt__u64(p, v);
			} else if (op->plain == 'd') {
				*p++ = '-';
				p = fmt__u64(p, -v);
			} else {
				p = fmt__int(p, &op->spec, v);
			}
			outbuf__advance(ob, p);
			break;
		case TP_OP_PTR:
			/* glibc's "%p": "(nil)" for 0, else 0x and hex digits. */
			v = tp__read_num(data + op->offset, op->size);
			if (!v) {
				outbuf__write(ob, "(nil)", 5);
				break;
			}
			p = outbuf__room(ob, 18);
			*p++ = '0';
			*p++ = 'x';
			outbuf__advance(ob, fmt__x64(p, v));
			break;
		case TP_OP_STR:
			s = (const char *)data + op->offset;
			outbuf__pad(ob, s, strnlen(s, op->size), op->width, op->left);
			break;
		case TP_OP_DYNSTR:
			if (dyn[d].s)
				outbuf__pad(ob, dyn[d].s, dyn[d].len, op->width, op->left);
			d++;
			break;
		}
	}
	return 0;
}
