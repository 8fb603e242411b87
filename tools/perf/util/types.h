#ifndef PERF_UTIL_TYPES_H
#define PERF_UTIL_TYPES_H
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

typedef uint64_t u64;
typedef int64_t  s64;
typedef uint32_t u32;
typedef int32_t  s32;
typedef uint16_t u16;
typedef uint8_t  u8;

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define PERF_ALIGN(x, a)	(((x) + (a) - 1) & ~((u64)(a) - 1))
#define min_t(t, a, b)		((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b)		((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#endif
