/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_csv.h — CSV blocks in a console log.
 *
 * A block is framed by two marker lines, so that a serial log holding
 * several blocks among other output can be taken apart reliably
 * (tools/bench-report.py; the format is specified in docs/bench.md):
 *
 *   --- mosaic-bench-csv begin NAME schema=SCHEMA ---
 *   header row
 *   data rows
 *   --- mosaic-bench-csv end NAME rows=N fnv1a=HHHHHHHH ---
 *
 * N counts the header and data rows; HHHHHHHH (eight hex digits) is the
 * 32-bit FNV-1a hash of those rows' bytes, each followed by one '\n'. A
 * string field is written in double quotes (with inner quotes doubled)
 * when it holds ',' or '"', starts with '-' or a space, ends with a space, or is empty; a row
 * therefore never starts with "---". Control characters (below 0x20, 0x7f)
 * cannot be written: such a field fails the row. Rows are at most
 * BENCH_CSV_ROW_MAX - 1 bytes.
 *
 * Portable C, no locks: a writer belongs to one caller.
 */
#ifndef MOSAIC_BENCH_CSV_H
#define MOSAIC_BENCH_CSV_H
#include <stdint.h>
#include <bench/bench_out.h>

#define BENCH_CSV_ROW_MAX 512
#define BENCH_CSV_NAME_MAX 48   /* block names: [A-Za-z0-9._-], 1..48 characters */

struct bench_csv {
	const struct bench_out *out;
	const char *name;
	uint32_t hash;
	unsigned rows;
	int fields;          /* in the row being built */
	int failed;          /* a field of this row did not fit or was refused */
	int broken;          /* a row was dropped */
	struct strbuf sb;
	char row[BENCH_CSV_ROW_MAX];
};

/* 1 if name is a valid block name. */
int bench_csv_name_ok(const char *name);
/* 1 if s can be written as a field (no control characters) and at most max bytes long. */
int bench_csv_text_ok(const char *s, int max);
/* Writes the begin marker; name must stay valid until bench_csv_end().
 * A schema is written like a name, '/' allowed ("sweep/1"). 0, or -1
 * (nothing written) for an invalid name or schema. */
int bench_csv_begin(struct bench_csv *c, const struct bench_out *o, const char *name, const char *schema);
/* Adds a field to the current row. */
void bench_csv_str(struct bench_csv *c, const char *s);
void bench_csv_int(struct bench_csv *c, int64_t v);
void bench_csv_fixed(struct bench_csv *c, int64_t v, int decimals);   /* BENCH_NA-free values */
void bench_csv_empty(struct bench_csv *c);                             /* no value */
/* Writes the current row; 0, or -1 when a field failed: the row is
 * dropped and the end marker says "broken" instead of rows= and fnv1a=. */
int bench_csv_row(struct bench_csv *c);
/* Writes the header row: the n column names. Its result as bench_csv_row(). */
int bench_csv_header(struct bench_csv *c, const char *const *names, size_t n);
/* Writes the end marker. */
void bench_csv_end(struct bench_csv *c);

#endif
