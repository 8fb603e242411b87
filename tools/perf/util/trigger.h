#ifndef PERF_UTIL_TRIGGER_H
#define PERF_UTIL_TRIGGER_H
/*
 * A request that a signal handler (or a size/time check) raises and the
 * main loop serves: OFF (not armed) -> READY -> HIT -> READY ...
 * Handlers never touch a trigger; they set a sig_atomic_t flag that the
 * loop turns into a hit, so a request made while one is being served is
 * remembered and served next.
 */
enum trigger_state {
	TRIGGER_OFF,
	TRIGGER_READY,
	TRIGGER_HIT,
};

struct trigger {
	enum trigger_state state;
};

static inline void trigger_on(struct trigger *t)   { t->state = TRIGGER_READY; }
static inline void trigger_off(struct trigger *t)  { t->state = TRIGGER_OFF; }
static inline void trigger_ready(struct trigger *t)
{
	if (t->state != TRIGGER_OFF)
		t->state = TRIGGER_READY;
}
static inline void trigger_hit(struct trigger *t)
{
	if (t->state == TRIGGER_READY)
		t->state = TRIGGER_HIT;
}
static inline int trigger_is_hit(const struct trigger *t)   { return t->state == TRIGGER_HIT; }
static inline int trigger_is_ready(const struct trigger *t) { return t->state == TRIGGER_READY; }

#endif
