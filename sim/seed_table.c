/* SPDX-License-Identifier: BSD-2-Clause */
/* seed_table.c — reader of the transcribed seed report tables (see seed_table.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sim/seed_table.h>

/* "123.45" or "123.45%" (exactly two decimals) as 12345; 0 or -1. */
static int parse_x100(const char *s, int pct, int64_t *out)
{
	const char *dot = strchr(s, '.');
	size_t len = strlen(s);
	if (!dot || dot == s || strlen(dot) != (size_t)(pct ? 4 : 3) || (pct && s[len - 1] != '%'))
		return -1;
	int64_t v = 0;
	for (const char *p = s; p < s + len - (pct ? 1 : 0); p++) {
		if (p == dot)
			continue;
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (*p - '0');
	}
	*out = v;
	return 0;
}

int seed_words(char *text, char **words, int max)
{
	int n = 0;
	for (char *tok = strtok(text, " \t\r\n"); tok && n < max; tok = strtok(NULL, " \t\r\n"))
		words[n++] = tok;
	return n;
}

/* The seven values after the label words of one row; 0 or -1. */
static int row_values(char **w, int nw, int skip, int pct, int64_t *out)
{
	if (nw != skip + SEED_COLS)
		return -1;
	for (int c = 0; c < SEED_COLS; c++)
		if (parse_x100(w[skip + c], pct, &out[c]))
			return -1;
	return 0;
}

static const char *const stat_label[SEED_MPC] = { "Min", "Max", "Avg.", "Meian" };
static const char *const rate_label[SEED_NRATES] = { "Rate(Avg.)", "Rate(Median)", "Rate(Max-Min)",
						     "Rate(Min-Min)" };

/* One line of the table into t (policy p is the latest heading). */
static int take_line(struct seed_table *t, char *line, int *p, int *samples)
{
	char copy[512], *w[16];
	if (strncmp(line, "[Kernel Config] ", 16) == 0) {
		if (++*p >= SEED_POLICIES)
			return -1;
		size_t len = strcspn(line + 16, "\r\n");
		if (len >= sizeof(t->policy[*p]))
			return -1;
		memcpy(t->policy[*p], line + 16, len);
		t->policy[*p][len] = 0;
		samples[*p] = 0;
		return 0;
	}
	snprintf(copy, sizeof(copy), "%s", line);
	int nw = seed_words(copy, w, 16);
	if (nw == 0 || w[0][0] == '-' || *p < 0)
		return nw == 0 || w[0][0] == '-' ? 0 : -1;
	int64_t vals[SEED_COLS];
	if (strcmp(w[0], "Use") == 0) {
		if (nw != 2 + SEED_COLS)
			return -1;
		for (int c = 0; c < SEED_COLS; c++)
			t->threads[c] = atoi(w[2 + c]);
		return 0;
	}
	if (strcmp(w[0], "Sample") == 0) {
		if (atoi(w[1]) != samples[*p] + 1 || samples[*p] >= SEED_SAMPLES || row_values(w, nw, 2, 0, vals))
			return -1;
		for (int c = 0; c < SEED_COLS; c++)
			t->v[(*p * SEED_COLS + c) * SEED_SAMPLES + samples[*p]] = vals[c];
		samples[*p]++;
		return 0;
	}
	if (nw == 3 + SEED_COLS && strcmp(w[0], "Median") == 0)
		return row_values(w, nw, 3, 0, t->stat[*p][SEED_MPC]);
	for (int k = 0; k < SEED_MPC; k++)
		if (strcmp(w[0], stat_label[k]) == 0)
			return row_values(w, nw, 1, 0, t->stat[*p][k]);
	for (int k = 0; k < SEED_NRATES; k++)
		if (strcmp(w[0], rate_label[k]) == 0)
			return *p == 1 ? row_values(w, nw, 1, 1, t->rate[k]) : -1;
	return -1;
}

int seed_table_load(const char *path, struct seed_table *t)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "%s: cannot open\n", path);
		return -1;
	}
	memset(t, 0, sizeof(*t));
	char line[512];
	int p = -1, samples[SEED_POLICIES] = { 0 }, lineno = 0, rc = 0;
	while (!rc && fgets(line, sizeof(line), f)) {
		lineno++;
		if (take_line(t, line, &p, samples)) {
			fprintf(stderr, "%s:%d: unexpected line: %s", path, lineno, line);
			rc = -1;
		}
	}
	fclose(f);
	if (!rc && (p != 1 || samples[0] != SEED_SAMPLES || samples[1] != SEED_SAMPLES)) {
		fprintf(stderr, "%s: expected two kernels of %d samples each\n", path, SEED_SAMPLES);
		rc = -1;
	}
	return rc;
}
