#ifndef PERF_UTIL_DEMANGLE_H
#define PERF_UTIL_DEMANGLE_H
#include <stdbool.h>

/*
 * The readable form of a C++ (Itanium "_Z...") or Rust ("_R...", or the
 * legacy "_ZN...17h<hash>E") symbol name, as perf prints it: without
 * parameter lists unless @params (perf -v), and Rust names without their
 * hash.  A malloc()ed string, or NULL when @name is not mangled (plain C
 * names cost one comparison).
 */
char *symbol__demangle(const char *name, bool params);

#endif
