/* SPDX-License-Identifier: BSD-2-Clause */
/* fpcheck — each thread's x87/SSE registers are its own:
 *   fpcheck [--threads N] [--rounds N]
 * N threads (default 4), all pinned to the CPU the program starts on so
 * that they take turns on it, each load XMM0..XMM15 and the x87 control
 * word with values of their own, give the CPU away (yield, or a short
 * sleep every 8th round), and check every register is as they left it.
 * The program is built without SSE code (-mgeneral-regs-only): the
 * registers are reached only by the instructions below. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mosaic.h>

#define FP_THREADS_MAX 16
#define XMM_BYTES (16 * 16)

static uint64_t rounds = 200;
static int bad[FP_THREADS_MAX];

/* Loads XMM0..15 from in[256] and the x87 control word from *fcw. */
static void fp_load(const uint8_t *in, const uint16_t *fcw)
{
	__asm__ volatile("movdqu 0(%0), %%xmm0\n\tmovdqu 16(%0), %%xmm1\n\tmovdqu 32(%0), %%xmm2\n\t"
			 "movdqu 48(%0), %%xmm3\n\tmovdqu 64(%0), %%xmm4\n\tmovdqu 80(%0), %%xmm5\n\t"
			 "movdqu 96(%0), %%xmm6\n\tmovdqu 112(%0), %%xmm7\n\tmovdqu 128(%0), %%xmm8\n\t"
			 "movdqu 144(%0), %%xmm9\n\tmovdqu 160(%0), %%xmm10\n\tmovdqu 176(%0), %%xmm11\n\t"
			 "movdqu 192(%0), %%xmm12\n\tmovdqu 208(%0), %%xmm13\n\tmovdqu 224(%0), %%xmm14\n\t"
			 "movdqu 240(%0), %%xmm15\n\tfldcw (%1)"
			 :: "r"(in), "r"(fcw) : "memory");
}

/* Stores XMM0..15 to out[256] and the x87 control word to *fcw. */
static void fp_store(uint8_t *out, uint16_t *fcw)
{
	__asm__ volatile("movdqu %%xmm0, 0(%0)\n\tmovdqu %%xmm1, 16(%0)\n\tmovdqu %%xmm2, 32(%0)\n\t"
			 "movdqu %%xmm3, 48(%0)\n\tmovdqu %%xmm4, 64(%0)\n\tmovdqu %%xmm5, 80(%0)\n\t"
			 "movdqu %%xmm6, 96(%0)\n\tmovdqu %%xmm7, 112(%0)\n\tmovdqu %%xmm8, 128(%0)\n\t"
			 "movdqu %%xmm9, 144(%0)\n\tmovdqu %%xmm10, 160(%0)\n\tmovdqu %%xmm11, 176(%0)\n\t"
			 "movdqu %%xmm12, 192(%0)\n\tmovdqu %%xmm13, 208(%0)\n\tmovdqu %%xmm14, 224(%0)\n\t"
			 "movdqu %%xmm15, 240(%0)\n\tfnstcw (%1)"
			 :: "r"(out), "r"(fcw) : "memory");
}

/* One thread: its own pattern in every round; counts the rounds that came
 * back changed. */
static uint64_t fp_thread(void *arg)
{
	int me = (int)(uint64_t)arg;
	uint8_t want[XMM_BYTES], got[XMM_BYTES];
	for (uint64_t r = 0; r < rounds; r++) {
		for (int i = 0; i < XMM_BYTES; i++)
			want[i] = (uint8_t)(me * 37 + i * 7 + r);
		/* precision control and rounding differ per thread and round;
		 * every exception stays masked */
		uint16_t fcw = (uint16_t)(0x003F | ((me & 3) << 8) | ((r & 3) << 10)), fcw_got = 0;
		fp_load(want, &fcw);
		if (r % 8 == 7)
			sleep_ns(1000000);
		else
			yield();
		fp_store(got, &fcw_got);
		if (memcmp(want, got, XMM_BYTES) || (fcw_got & 0x0F3F) != fcw)
			bad[me]++;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int64_t threads = 4, n;
	for (int i = 1; i < argc; i++) {
		if (i + 1 < argc && !strcmp(argv[i], "--threads") && !parse_int(argv[i + 1], 2, FP_THREADS_MAX, &n)) {
			threads = n;
			i++;
		} else if (i + 1 < argc && !strcmp(argv[i], "--rounds") && !parse_int(argv[i + 1], 1, 100000, &n)) {
			rounds = (uint64_t)n;
			i++;
		} else {
			printf("usage: fpcheck [--threads 2..%d] [--rounds 1..100000]\n", FP_THREADS_MAX);
			return 2;
		}
	}
	int cpu = current_cpu();
	uint64_t mask = 1ull << (cpu % 64);
	if (cpu >= 64 || set_affinity(0, &mask, sizeof(mask))) {
		printf("fpcheck: cannot pin to cpu %d\n", cpu);
		return 1;
	}
	int tid[FP_THREADS_MAX];
	for (int t = 0; t < threads; t++) {
		tid[t] = thread_create(fp_thread, (void *)(uint64_t)t, 0);
		if (tid[t] < 0) {
			printf("fpcheck: thread %d: %s\n", t, strerror(tid[t]));
			return 1;
		}
		set_affinity(tid[t], &mask, sizeof(mask));
	}
	int total = 0;
	for (int t = 0; t < threads; t++) {
		thread_join(tid[t], NULL, IPC_FOREVER);
		total += bad[t];
	}
	printf("fpcheck: %ld threads on cpu %d, %lu rounds each: %d rounds found registers changed: %s\n",
	       threads, cpu, rounds, total, total ? "FAILED" : "ok");
	return total ? 1 : 0;
}
