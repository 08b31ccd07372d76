/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * seed_table.h — reads one machine's tables of the seed report as
 * transcribed in the .table files of tests/data/seed-report/ (see its README): the two
 * kernels' samples, and the statistics and Rate rows the report printed.
 * Test code (host only, C library).
 */
#ifndef MOSAIC_SEED_TABLE_H
#define MOSAIC_SEED_TABLE_H
#include <stdint.h>
#include <stddef.h>

#define SEED_COLS 7
#define SEED_SAMPLES 12
#define SEED_POLICIES 2

enum { SEED_MIN, SEED_MAX, SEED_AVG, SEED_MEDIAN, SEED_MPC, SEED_NSTATS };
enum { SEED_RATE_AVG, SEED_RATE_MEDIAN, SEED_RATE_MAX_MIN, SEED_RATE_MIN_MIN, SEED_NRATES };

struct seed_table {
	int threads[SEED_COLS];
	char policy[SEED_POLICIES][96];
	int64_t v[SEED_POLICIES * SEED_COLS * SEED_SAMPLES];   /* [(p * cols + c) * samples + s], x100 */
	int64_t stat[SEED_POLICIES][SEED_NSTATS][SEED_COLS];    /* printed, x100 */
	int64_t rate[SEED_NRATES][SEED_COLS];                   /* printed, in 0.01 % */
};

/* Reads path; 0, or -1 with a message naming the file and line on stderr. */
int seed_table_load(const char *path, struct seed_table *t);
/* The whitespace-separated words of text, into words[max]; the count. */
int seed_words(char *text, char **words, int max);

#endif
