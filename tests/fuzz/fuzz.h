/*
 * fuzz.h — the small framework of Mosaic's seeded fuzz harnesses
 * (tests/fuzz/fuzz_<name>.c). Each harness defines
 *
 *     static void fuzz_one(struct fuzz *f);
 *
 * which builds one input from f's random numbers (usually by mutating a
 * seed corpus entry), feeds it to the parser under test and checks what it
 * can (a reference model, invariants of the output, round trips); a failed
 * check calls fuzz_fail(), and memory errors and undefined behaviour stop
 * the program through AddressSanitizer/UBSan (harnesses are built with
 * both, recovery off). Then FUZZ_MAIN("name") supplies main():
 *
 *     fuzz_<name> [--seed S] [--iterations N]
 *
 * Runs are reproducible: iteration i of seed S always builds the same
 * input, and a failure prints both numbers (re-run with --seed S
 * --iterations i+1 and a debugger). `make test` runs every harness briefly;
 * `make fuzz` runs them longer.
 */
#ifndef MOSAIC_FUZZ_H
#define MOSAIC_FUZZ_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fuzz {
	uint64_t state;       /* PRNG state (xorshift64*) */
	uint64_t seed;
	uint64_t iteration;
};

/* 64 random bits. */
static inline uint64_t fuzz_u64(struct fuzz *f)
{
	f->state ^= f->state >> 12;
	f->state ^= f->state << 25;
	f->state ^= f->state >> 27;
	return f->state * 0x2545F4914F6CDD1Dull;
}

/* Uniform-ish in 0..n-1 (n > 0). */
static inline uint64_t fuzz_below(struct fuzz *f, uint64_t n)
{
	return fuzz_u64(f) % n;
}

/* One of the n strings of a table. */
static inline const char *fuzz_pick(struct fuzz *f, const char *const *table, size_t n)
{
	return table[fuzz_below(f, n)];
}

/* Reports a failed check with the seed and iteration, then aborts. */
#define fuzz_fail(f, ...)                                                                     \
	do {                                                                                  \
		fprintf(stderr, "fuzz: check failed at seed %llu iteration %llu: ",              \
			(unsigned long long)(f)->seed, (unsigned long long)(f)->iteration);       \
		fprintf(stderr, __VA_ARGS__);                                                     \
		fprintf(stderr, "\n");                                                            \
		abort();                                                                          \
	} while (0)

/* Mutates buf[0..*len) in place (capacity cap): a few random byte flips,
 * insertions, deletions, duplicated runs and interesting bytes. */
static inline void fuzz_mutate(struct fuzz *f, unsigned char *buf, size_t *len, size_t cap)
{
	static const unsigned char special[] = { 0, 0xff, 0x7f, 0x80, '\n', '\r', ' ', '=', '"', '\'',
						 '\\', '#', ':', ',', '-', '0', '9', 0xc3, 0xa9, '\t' };
	int rounds = 1 + (int)fuzz_below(f, 8);
	for (int r = 0; r < rounds; r++) {
		size_t n = *len;
		switch (fuzz_below(f, 6)) {
		case 0:   /* flip a bit */
			if (n)
				buf[fuzz_below(f, n)] ^= (unsigned char)(1u << fuzz_below(f, 8));
			break;
		case 1:   /* overwrite with a special byte */
			if (n)
				buf[fuzz_below(f, n)] = special[fuzz_below(f, sizeof(special))];
			break;
		case 2: { /* insert a special byte */
			if (n >= cap)
				break;
			size_t at = fuzz_below(f, n + 1);
			memmove(buf + at + 1, buf + at, n - at);
			buf[at] = special[fuzz_below(f, sizeof(special))];
			*len = n + 1;
			break;
		}
		case 3: { /* delete a run */
			if (!n)
				break;
			size_t at = fuzz_below(f, n), k = 1 + fuzz_below(f, n - at);
			memmove(buf + at, buf + at + k, n - at - k);
			*len = n - k;
			break;
		}
		case 4: { /* duplicate a run */
			if (!n)
				break;
			size_t at = fuzz_below(f, n), k = 1 + fuzz_below(f, n - at);
			if (n + k > cap)
				k = cap - n;
			memmove(buf + at + k, buf + at, n - at);
			*len = n + k;
			break;
		}
		default:  /* truncate */
			*len = fuzz_below(f, n + 1);
			break;
		}
	}
}

/* Defines main(): parses --seed/--iterations, runs fuzz_one per iteration. */
#define FUZZ_MAIN(name)                                                                        \
	int main(int argc, char **argv)                                                        \
	{                                                                                      \
		struct fuzz f = { 0 };                                                         \
		uint64_t iterations = 10000;                                                   \
		f.seed = 1;                                                                    \
		for (int i = 1; i < argc; i++) {                                               \
			char *end;                                                             \
			if (i + 1 < argc && strcmp(argv[i], "--seed") == 0)                    \
				f.seed = strtoull(argv[++i], &end, 0);                         \
			else if (i + 1 < argc && strcmp(argv[i], "--iterations") == 0)        \
				iterations = strtoull(argv[++i], &end, 0);                     \
			else {                                                                 \
				fprintf(stderr, "usage: %s [--seed S] [--iterations N]\n", argv[0]); \
				return 2;                                                      \
			}                                                                      \
		}                                                                              \
		for (f.iteration = 0; f.iteration < iterations; f.iteration++) {               \
			f.state = (f.seed * 0x9E3779B97F4A7C15ull) ^ (f.iteration + 1) * 0xD1B54A32D192ED03ull; \
			if (!f.state)                                                          \
				f.state = 1;                                                   \
			fuzz_one(&f);                                                          \
		}                                                                              \
		printf("fuzz %s: %llu iterations from seed %llu: ok\n", name,                 \
		       (unsigned long long)iterations, (unsigned long long)f.seed);            \
		return 0;                                                                      \
	}

#endif
