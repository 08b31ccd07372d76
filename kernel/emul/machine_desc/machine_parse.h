/* SPDX-License-Identifier: BSD-2-Clause */
/* machine_parse.h — private to the machine-description parser
 * (machine_parse.c, machine_check.c). */
#ifndef MOSAIC_MACHINE_PARSE_H
#define MOSAIC_MACHINE_PARSE_H
#include <emul/machine_desc/machine.h>

struct machine_parser {
	struct machine *m;
	const char *file;
	char *err;
	size_t err_size;
	unsigned line;                                  /* current line, from 1 */
	unsigned line_model, line_cpus, line_memory, line_hfi_rows, line_topology;
	unsigned line_cpuid_levels;
	unsigned line_cpu_first;                        /* first `cpu` line */
	unsigned line_hfi_classes, line_hfi_features;   /* machine_hfi.c */
	unsigned line_hfi_first;                        /* first `hfi` or `event` line */
	unsigned line_speed[MACHINE_CORE_TYPES];        /* `speed T` lines */
	unsigned line_smt[MACHINE_CORE_TYPES];          /* `smt-throughput T` lines */
};

/* Write "FILE:LINE: message" to p->err; returns -1. */
int machine_fail(struct machine_parser *p, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* After the last line: required keys present and the CPUs consistent with
 * each other (every CPU described, SMT cores and modules coherent, rows
 * and speeds given). Fills smt_threads. Returns 0 or machine_fail(). */
int machine_check(struct machine_parser *p);
/* An HFI row number for p's current line: "none" only when allow_none;
 * needs `hfi-rows` first. 0 or machine_fail(). */
int machine_row_value(struct machine_parser *p, const char *s, int allow_none, int32_t *out);

/* machine_hfi.c: the HFI statements (`hfi-classes N`, `hfi-features LIST`,
 * `hfi ROW ...`, `event MS row=R ...`), tok[0] being the key; and the
 * whole-description HFI check run by machine_check() (defaults of classes
 * and features, the table's pages). Each returns 0 or machine_fail(). */
int machine_parse_hfi_classes(struct machine_parser *p, char **tok, int ntok);
int machine_parse_hfi_features(struct machine_parser *p, char **tok, int ntok);
int machine_parse_hfi(struct machine_parser *p, char **tok, int ntok);
int machine_parse_event(struct machine_parser *p, char **tok, int ntok);
int machine_check_hfi(struct machine_parser *p);

/* machine_power.c: the `power` line (0 or machine_fail()); after the last
 * line, the power figures against the CPUs (every core type in use has
 * one; cpu lines exist). */
int machine_power_parse(struct machine_parser *p, char **tok, int ntok);
int machine_power_check(struct machine_parser *p);

/* machine_class_speed.c: the `class-speed CLASS TYPE=X...` line (0 or
 * machine_fail()); after the last line, every core type the CPUs use has
 * a factor on each class-speed line. */
int machine_class_speed_parse(struct machine_parser *p, char **tok, int ntok);
int machine_class_speed_check(struct machine_parser *p);

/* machine_values.c: core type by name (-1 if unknown); a decimal integer
 * 0..max that is all digits (0 or -1); the same for line item `what`, with a
 * "bad number" error; a decimal such as 0.54 in MACHINE_SPEED_ONE units;
 * a memory size such as 512M or 2G in bytes. The last three return 0 or
 * machine_fail(). */
int machine_core_type_by_name(const char *s);
int machine_parse_uint(const char *s, uint64_t max, uint64_t *out);
int machine_number(struct machine_parser *p, const char *s, const char *what, uint64_t max,
		   uint64_t *out);
int machine_speed_value(struct machine_parser *p, const char *s, const char *what, uint16_t *out);
/* "12", "0.5", "6.125": a decimal with at most three decimals and a whole
 * part at most max_whole, in thousandths; 0, or -1 if s is not one. */
int machine_thousandths(const char *s, uint64_t max_whole, uint64_t *out);
int machine_memory_value(struct machine_parser *p, const char *s, uint64_t *out);

#endif
