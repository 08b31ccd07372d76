/* SPDX-License-Identifier: BSD-2-Clause */
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
 *     fuzz_<name> [--seed S] [--iterations N] [--seconds T]
 *
 * Runs are reproducible: iteration i of seed S always builds the same
 * input, and a failure prints both numbers (re-run with --seed S
 * --iterations i+1 and a debugger); --seconds stops early, after T
 * seconds. `make test` runs every harness briefly; `make fuzz` runs them
 * longer, in parallel (tools/fuzz-run.py).
 *
 * Built with -DFUZZ_LIBFUZZER (and clang -fsanitize=fuzzer), the same
 * harness is a libFuzzer target instead: FUZZ_MAIN then supplies
 * LLVMFuzzerTestOneInput(), and the random numbers are the input's bytes
 * (fuzz_u64 takes 8, fuzz_below as few as n needs), so libFuzzer's
 * coverage feedback steers every choice fuzz_one makes. Once the bytes
 * are used up the numbers go on from a xorshift seeded with a hash of the
 * input, so every input, even an empty one, is one whole deterministic
 * run. An input is iterations 0, 1, 2, ... of fuzz_one, run while bytes
 * are left (at most FUZZ_INPUT_ITERATIONS; a harness may define
 * FUZZ_INPUT_FIRST_ITERATION before including fuzz.h to start later); a
 * failed check aborts, which libFuzzer records as a crash with the input
 * that caused it. State a harness keeps across iterations carries over to
 * the next input too unless the harness resets it at iteration 0.
 */
#ifndef MOSAIC_FUZZ_H
#define MOSAIC_FUZZ_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct fuzz {
	uint64_t state;       /* PRNG state (xorshift64*) */
	uint64_t seed;
	uint64_t iteration;
#ifdef FUZZ_LIBFUZZER
	const uint8_t *input; /* the libFuzzer input's bytes not drawn yet */
	size_t input_left;
#endif
};

/* The PRNG's next 64 bits (xorshift64*). */
static inline uint64_t fuzz_xorshift(struct fuzz *f)
{
	f->state ^= f->state >> 12;
	f->state ^= f->state << 25;
	f->state ^= f->state >> 27;
	return f->state * 0x2545F4914F6CDD1Dull;
}

#ifdef FUZZ_LIBFUZZER
/* The next n (<= 8) input bytes as a little-endian number (fewer when
 * fewer are left); the PRNG's bits once the input is used up. */
static inline uint64_t fuzz_input_bytes(struct fuzz *f, unsigned n)
{
	if (!f->input_left)
		return fuzz_xorshift(f);
	uint64_t v = 0;
	for (unsigned i = 0; i < n && f->input_left; i++, f->input_left--)
		v |= (uint64_t)*f->input++ << (8 * i);
	return v;
}

/* 64 random bits: 8 input bytes. */
static inline uint64_t fuzz_u64(struct fuzz *f)
{
	return fuzz_input_bytes(f, 8);
}

/* In 0..n-1 (n > 0), from as many input bytes as n-1 has (none for n = 1). */
static inline uint64_t fuzz_below(struct fuzz *f, uint64_t n)
{
	unsigned bytes = 0;
	for (uint64_t top = n - 1; top; top >>= 8)
		bytes++;
	return bytes ? fuzz_input_bytes(f, bytes) % n : 0;
}
#else
/* 64 random bits. */
static inline uint64_t fuzz_u64(struct fuzz *f)
{
	return fuzz_xorshift(f);
}

/* Uniform-ish in 0..n-1 (n > 0). */
static inline uint64_t fuzz_below(struct fuzz *f, uint64_t n)
{
	return fuzz_u64(f) % n;
}
#endif

/* One of the n strings of a table. */
static inline const char *fuzz_pick(struct fuzz *f, const char *const *table, size_t n)
{
	return table[fuzz_below(f, n)];
}

#ifdef FUZZ_LIBFUZZER
/* Reports a failed check with the iteration of the input, then aborts
 * (libFuzzer saves the input). */
#define fuzz_fail(f, ...)                                                                     \
	do {                                                                                  \
		fprintf(stderr, "fuzz: check failed at iteration %llu of the input: ",           \
			(unsigned long long)(f)->iteration);                                       \
		fprintf(stderr, __VA_ARGS__);                                                     \
		fprintf(stderr, "\n");                                                            \
		abort();                                                                          \
	} while (0)
#else
/* Reports a failed check with the seed and iteration, then aborts. */
#define fuzz_fail(f, ...)                                                                     \
	do {                                                                                  \
		fprintf(stderr, "fuzz: check failed at seed %llu iteration %llu: ",              \
			(unsigned long long)(f)->seed, (unsigned long long)(f)->iteration);       \
		fprintf(stderr, __VA_ARGS__);                                                     \
		fprintf(stderr, "\n");                                                            \
		abort();                                                                          \
	} while (0)
#endif

/* Appends the string p to the text buf[0..*len) of capacity cap, keeping
 * room for a NUL: 1, or 0 (nothing appended) when it does not fit. */
static inline int fuzz_append(char *buf, size_t *len, size_t cap, const char *p)
{
	size_t n = strlen(p);
	if (*len + n >= cap)
		return 0;
	memcpy(buf + *len, p, n);
	*len += n;
	return 1;
}

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

#ifdef FUZZ_LIBFUZZER
#ifndef FUZZ_INPUT_ITERATIONS
#define FUZZ_INPUT_ITERATIONS 64
#endif
#ifndef FUZZ_INPUT_FIRST_ITERATION   /* a harness whose iteration 0 is slow starts later */
#define FUZZ_INPUT_FIRST_ITERATION 0
#endif

/* FNV-1a of data[0..size): the PRNG seed of an input (never 0). */
static inline uint64_t fuzz_input_hash(const uint8_t *data, size_t size)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < size; i++)
		h = (h ^ data[i]) * 0x100000001b3ull;
	return h ? h : 1;
}

/* Defines LLVMFuzzerTestOneInput(): one input is iterations
 * FUZZ_INPUT_FIRST_ITERATION, the next, ... of fuzz_one while its bytes
 * last (at least one, at most FUZZ_INPUT_ITERATIONS). */
#define FUZZ_MAIN(name)                                                                        \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);                          \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)                           \
	{                                                                                      \
		struct fuzz f = { .input = data, .input_left = size };                         \
		f.seed = f.state = fuzz_input_hash(data, size);                                \
		f.iteration = FUZZ_INPUT_FIRST_ITERATION;                                      \
		do                                                                             \
			fuzz_one(&f);                                                          \
		while (f.input_left &&                                                         \
		       ++f.iteration < FUZZ_INPUT_FIRST_ITERATION + FUZZ_INPUT_ITERATIONS);   \
		return 0;                                                                      \
	}
#else
/* Seconds since an arbitrary start (the monotonic clock). */
static inline double fuzz_clock_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Defines main(): parses --seed/--iterations/--seconds, runs fuzz_one per
 * iteration until N iterations or S seconds (checked every 64 iterations;
 * 0: no limit), whichever comes first, and says how many it ran. */
#define FUZZ_MAIN(name)                                                                        \
	int main(int argc, char **argv)                                                        \
	{                                                                                      \
		struct fuzz f = { 0 };                                                         \
		uint64_t iterations = 10000, seconds = 0;                                      \
		f.seed = 1;                                                                    \
		for (int i = 1; i < argc; i++) {                                               \
			char *end;                                                             \
			if (i + 1 < argc && strcmp(argv[i], "--seed") == 0)                    \
				f.seed = strtoull(argv[++i], &end, 0);                         \
			else if (i + 1 < argc && strcmp(argv[i], "--iterations") == 0)        \
				iterations = strtoull(argv[++i], &end, 0);                     \
			else if (i + 1 < argc && strcmp(argv[i], "--seconds") == 0)           \
				seconds = strtoull(argv[++i], &end, 0);                        \
			else {                                                                 \
				fprintf(stderr, "usage: %s [--seed S] [--iterations N] [--seconds T]\n", \
					argv[0]);                                              \
				return 2;                                                      \
			}                                                                      \
		}                                                                              \
		double start = fuzz_clock_s();                                                 \
		for (f.iteration = 0; f.iteration < iterations; f.iteration++) {               \
			if (seconds && (f.iteration & 63) == 0 && f.iteration &&               \
			    fuzz_clock_s() - start >= (double)seconds)                         \
				break;                                                         \
			f.state = (f.seed * 0x9E3779B97F4A7C15ull) ^ (f.iteration + 1) * 0xD1B54A32D192ED03ull; \
			if (!f.state)                                                          \
				f.state = 1;                                                   \
			fuzz_one(&f);                                                          \
		}                                                                              \
		printf("fuzz %s: %llu iterations from seed %llu: ok\n", name,                 \
		       (unsigned long long)f.iteration, (unsigned long long)f.seed);           \
		return 0;                                                                      \
	}
#endif

#endif
