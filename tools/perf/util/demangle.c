/*
 * Demangling through libiberty's cplus_demangle(), the demangler of
 * binutils and gdb: in its automatic style it knows the Itanium C++ ABI
 * and both Rust manglings (it strips the legacy hash unless asked for
 * verbose output), so one call covers what perf shows.
 */
#include <stdlib.h>
#include <libiberty/demangle.h>
#include "demangle.h"

char *symbol__demangle(const char *name, bool params)
{
	/* Everything mangled starts with "_Z" or "_R"; C names are left alone cheaply. */
	if (name[0] != '_' || (name[1] != 'Z' && name[1] != 'R'))
		return NULL;
	return cplus_demangle(name, params ? DMGL_PARAMS | DMGL_ANSI : DMGL_NO_OPTS);
}
