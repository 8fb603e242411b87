/*
 * The -e grammar:
 *
 *	events     := item (',' item)*
 *	item       := event | [NAME] '{' event (',' event)* '}' [modifier]
 *	event      := (NAME | TRACEPOINT) ['/' [term (',' term)*] '/'] [modifier]
 *	term       := TERM ['=' VALUE]
 *
 * A pure parser: its only state is the scanner and the parse_events_state,
 * and the actions hand everything to parse-events.c, which does the checking
 * and builds the evsels.  Locations are byte offsets into the string.
 */
%define api.pure full
%define api.prefix {parse_events_}
%define parse.error custom
%locations
%param {void *scanner}
%parse-param {struct parse_events_state *st}

%code requires {
#include <stdbool.h>
#include "parse-events.h"
}

%code {
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int parse_events_lex(PARSE_EVENTS_STYPE *lval, PARSE_EVENTS_LTYPE *lloc, void *scanner);

static void parse_events_error(PARSE_EVENTS_LTYPE *loc, void *scanner,
			       struct parse_events_state *st, const char *msg)
{
	parse_events__error(st, loc->first_column, NULL, "%s", msg);
}

#define ABORT_ON(x) do { if (x) YYABORT; } while (0)
}

%union {
	char *str;
	struct list_head *terms;
	struct parse_events_span span;
}

%token PE_EOF 0 "end of input"
%token <str> PE_NAME "event name"
%token <str> PE_TRACEPOINT "tracepoint"
%token <str> PE_MODIFIER "modifier"
%token <str> PE_TERM "term"
%token <str> PE_VALUE "value"
%token PE_BADCHAR "invalid character"
%token PE_NOMEM "out of memory"

%type <str> event_def modifier_opt
%type <terms> config_opt terms
%type <span> event group_events

%destructor { free($$); } <str>
%destructor { parse_events__terms_delete($$); } <terms>

%%

events:
	item
|	events ',' item
;

item:
	event
|	'{' group_events '}' modifier_opt
	{
		ABORT_ON(parse_events__add_group(st, NULL, &$2, $4, @4.first_column));
	}
|	PE_NAME '{' group_events '}' modifier_opt
	{
		ABORT_ON(parse_events__add_group(st, $1, &$3, $5, @5.first_column));
	}
;

group_events:
	event
|	group_events ',' event
	{
		$$ = $1;
		$$.nr += $3.nr;
	}
;

event:
	event_def config_opt modifier_opt
	{
		bool tp = strchr($1, ':') != NULL;

		ABORT_ON(parse_events__add_event(st, $1, @1.first_column, tp, $2, @2.last_column,
						 $3, @3.first_column, &$$));
	}
;

event_def:
	PE_NAME
|	PE_TRACEPOINT
;

config_opt:
	%empty			{ $$ = NULL; }
|	'/' '/'
	{
		$$ = parse_events__terms_new();
		ABORT_ON(!$$);
	}
|	'/' terms '/'		{ $$ = $2; }
;

terms:
	PE_TERM
	{
		$$ = parse_events__terms_new();
		if (!$$) {
			free($1);
			YYABORT;
		}
		ABORT_ON(parse_events__terms_add(st, $$, $1, @1.first_column, NULL, -1));
	}
|	PE_TERM '=' PE_VALUE
	{
		$$ = parse_events__terms_new();
		if (!$$) {
			free($1);
			free($3);
			YYABORT;
		}
		ABORT_ON(parse_events__terms_add(st, $$, $1, @1.first_column, $3, @3.first_column));
	}
|	terms ',' PE_TERM
	{
		$$ = $1;
		ABORT_ON(parse_events__terms_add(st, $$, $3, @3.first_column, NULL, -1));
	}
|	terms ',' PE_TERM '=' PE_VALUE
	{
		$$ = $1;
		ABORT_ON(parse_events__terms_add(st, $$, $3, @3.first_column, $5, @5.first_column));
	}
;

modifier_opt:
	%empty			{ $$ = NULL; }
|	PE_MODIFIER
;

%%

/*
 * "unexpected X" at the offending token, and what would have fitted there
 * as the advice.  An invalid character is quoted, since the token name alone
 * would not say which one.
 */
static int yyreport_syntax_error(const yypcontext_t *ctx, void *scanner,
				 struct parse_events_state *st)
{
	yysymbol_kind_t expected[8];
	yysymbol_kind_t tok = yypcontext_token(ctx);
	int idx = yypcontext_location(ctx)->first_column;
	int n = yypcontext_expected_tokens(ctx, expected, 8);
	char help[512] = "";
	size_t len = 0;

	if (st->nomem) {
		parse_events__error(st, idx, NULL, "out of memory");
		return 0;
	}
	for (int i = 0; n > 0 && i < n && len < sizeof(help); i++)
		len += snprintf(help + len, sizeof(help) - len, "%s%s",
				i == 0 ? "expected " : i == n - 1 ? " or " : ", ",
				yysymbol_name(expected[i]));
	if (tok == YYSYMBOL_PE_BADCHAR)
		parse_events__error(st, idx, len ? help : NULL, "unexpected character '%c'",
				    st->str[idx]);
	else
		parse_events__error(st, idx, len ? help : NULL, "unexpected %s",
				    yysymbol_name(tok));
	return 0;
}
