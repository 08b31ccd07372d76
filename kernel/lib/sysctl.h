/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sysctl.h — named kernel variables, FreeBSD style (`sysctl kern.hz`).
 *
 * Defining one, in any kernel file:
 *     static int64_t hz = 100;
 *     SYSCTL_INT(kern_hz, "kern.hz", &hz, 0, 0, 0, "timer interrupts per second");
 * (last-but-three argument: writable; then min and max for writes; min > max
 * means no limit). Strings: SYSCTL_STRING(id, name, buf, sizeof buf, writable,
 * descr). An int whose writes must act at once (not only be stored):
 * SYSCTL_INT_SET(id, name, ptr, min, max, fn, descr), where fn(value, err,
 * err_len) is called with a value already checked against min..max and
 * stores it itself, or refuses with a one-line reason. Computed values: SYSCTL_PROC(id, name, fn, descr) where fn writes
 * the value's text; SYSCTL_PROC_LONG(id, name, fn, size, descr) for values
 * that need a buffer of up to size bytes (the `sysctl` command allocates it;
 * short ones get SYSCTL_VALUE_MAX). The linker gathers all into one set
 * (.sysctl_set). Variables that need code to read or write them — or a
 * family of them, one per CPU — are handlers:
 *     SYSCTL_HANDLER(id, "kern.hmp.cpu.#.capacity", count, get, set, descr)
 * where '#' stands for an index 0..count()-1 (count NULL: a single name
 * without '#'), get(index, buf, len) writes the value's text and
 * set(index, text, err, errlen) parses and applies it (0, or -1 with a
 * one-line reason; set NULL: read-only).
 * Plain values are read and written without locks: each is one aligned
 * word or a string that is only written from the shell; handlers take
 * whatever locks their subsystem needs.
 */
#ifndef MOSAIC_SYSCTL_H
#define MOSAIC_SYSCTL_H
#include <stddef.h>
#include <stdint.h>

enum sysctl_type { SYSCTL_TYPE_INT, SYSCTL_TYPE_STRING, SYSCTL_TYPE_PROC, SYSCTL_TYPE_HANDLER };

struct sysctl_oid {
	const char *name;
	const char *descr;
	enum sysctl_type type;
	int writable;
	void *ptr;                  /* int64_t * or char * */
	size_t size;                /* string buffer size; for PROC: value buffer size, 0 = default */
	int64_t min, max;           /* write limits for ints; min > max: none */
	void (*proc)(char *buf, size_t len);
	int (*int_set)(int64_t v, char *err, size_t err_len);   /* INT: applies a write; NULL: store */
	/* SYSCTL_TYPE_HANDLER */
	int (*count)(void);
	void (*get)(int index, char *buf, size_t len);
	int (*set)(int index, const char *value, char *err, size_t err_len);
};

#define SYSCTL_DEFINE(id) \
	static const struct sysctl_oid sysctl_##id __attribute__((used, section(".sysctl_set"), aligned(8)))
#define SYSCTL_INT(id, nm, p, wr, lo, hi, d) \
	SYSCTL_DEFINE(id) = { .name = nm, .descr = d, .type = SYSCTL_TYPE_INT, .writable = wr, \
			      .ptr = p, .min = lo, .max = hi }
#define SYSCTL_INT_SET(id, nm, p, lo, hi, fn, d) \
	SYSCTL_DEFINE(id) = { .name = nm, .descr = d, .type = SYSCTL_TYPE_INT, .writable = 1, \
			      .ptr = p, .min = lo, .max = hi, .int_set = fn }
#define SYSCTL_STRING(id, nm, buf, sz, wr, d) \
	SYSCTL_DEFINE(id) = { .name = nm, .descr = d, .type = SYSCTL_TYPE_STRING, .writable = wr, \
			      .ptr = buf, .size = sz }
#define SYSCTL_PROC(id, nm, fn, d) \
	SYSCTL_DEFINE(id) = { .name = nm, .descr = d, .type = SYSCTL_TYPE_PROC, .proc = fn }
#define SYSCTL_PROC_LONG(id, nm, fn, sz, d) \
	SYSCTL_DEFINE(id) = { .name = nm, .descr = d, .type = SYSCTL_TYPE_PROC, .proc = fn, \
			      .size = sz }

#define SYSCTL_HANDLER(id, nm, cnt, g, st, d) \
	SYSCTL_DEFINE(id) = { .name = nm, .descr = d, .type = SYSCTL_TYPE_HANDLER, \
			      .writable = (st) != 0, .count = cnt, .get = g, .set = st }

/* Buffer size that holds any value not declared with SYSCTL_PROC_LONG. */
#define SYSCTL_VALUE_MAX 128
/* Longest name, index expanded, with its NUL. */
#define SYSCTL_NAME_MAX 96

/* A set of oids (the kernel's comes from the linker; tests build their own). */
struct sysctl_set {
	const struct sysctl_oid *begin, *end;
};

/* One variable: an oid, and for a family member its index (-1 otherwise). */
struct sysctl_ref {
	const struct sysctl_oid *oid;
	int index;
};

/* Exact name lookup: 0 with *out filled, -1 if absent. */
int sysctl_find(const struct sysctl_set *set, const char *name, struct sysctl_ref *out);
/* Name order: byte by byte, except that runs of digits compare by value
 * (kern.hmp.cpu.2 before kern.hmp.cpu.10, as FreeBSD's sysctl -a lists
 * them); <0, 0, >0. No locks. */
int sysctl_name_cmp(const char *a, const char *b);
/* Steps *ref to the next variable (ref->oid NULL: the first) whose name
 * equals prefix or starts with "prefix." (prefix "" matches all), in name
 * order (sysctl_name_cmp, indexes expanded); 0, or -1 after the last. */
int sysctl_next(const struct sysctl_set *set, struct sysctl_ref *ref, const char *prefix);
/* The variable's full name (index expanded). */
void sysctl_name(const struct sysctl_ref *ref, char *buf, size_t len);
/* Buffer size the value needs: SYSCTL_VALUE_MAX, or a long PROC's size. */
size_t sysctl_value_size(const struct sysctl_ref *ref);
/* Current value as text. */
void sysctl_format(const struct sysctl_ref *ref, char *buf, size_t len);
/* Parse and store value. Returns 0, or -1 with a one-line reason in err
 * (read-only, not a number, out of range, too long, or the handler's). */
int sysctl_write(const struct sysctl_ref *ref, const char *value, char *err, size_t err_len);

#endif
