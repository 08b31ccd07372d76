/* SPDX-License-Identifier: BSD-2-Clause */
/* Fuzz harness of a new program's arguments (kernel/user/uargs.c).
 *
 * Each input is a fake user address space (tests/unit/user_mem.h) holding
 * an argv array and strings, with random damage: pointers out of the
 * space (null, kernel addresses, past the end), strings without a NUL
 * before the end of the space, strings at the per-argument and total
 * limits, argc from 0 to beyond the maximum. uargs_collect() must return
 * what an independent model of the rules says (success, ERR_INVAL,
 * ERR_FAULT or ERR_TOOBIG, the first problem in argv order deciding), and
 * on success the exact strings. Then the layout must read back: argc
 * pointers to the strings in order, a NULL, rsp 16-byte aligned, and
 * nothing written below rsp. */
#include <tests/fuzz/fuzz.h>
#include <tests/unit/user_mem.h>
#include <user/ucheck.h>

#define MEM_SIZE 12288

static uint8_t mem[MEM_SIZE];

static uint64_t random_pointer(struct fuzz *f)
{
	switch (fuzz_below(f, 12)) {
	case 0: return 0;
	case 1: return 0xffff800000000000ull + fuzz_below(f, 0x1000);
	case 2: return USER_MEM_BASE + MEM_SIZE - fuzz_below(f, 4);
	case 3: return USER_MEM_BASE - 1 - fuzz_below(f, 4);
	case 4: return fuzz_u64(f);
	default: return USER_MEM_BASE + 0x100 + fuzz_below(f, MEM_SIZE - 0x100);
	}
}

/* The model: the result of collecting argc pointers at uargv. */
static int model(uint64_t uargv, uint32_t argc, char *out, uint32_t *out_bytes)
{
	uint32_t bytes = 0;
	if (argc == 0)
		return ERR_INVAL;
	if (argc > SPAWN_ARGC_MAX)
		return ERR_TOOBIG;
	if (uargv < USER_MEM_BASE || uargv > USER_MEM_BASE + MEM_SIZE ||
	    8ull * argc > USER_MEM_BASE + MEM_SIZE - uargv)   /* no wrap past 2^64 */
		return ERR_FAULT;
	for (uint32_t i = 0; i < argc; i++) {
		uint64_t p;
		memcpy(&p, mem + (uargv - USER_MEM_BASE) + 8 * i, 8);
		uint64_t limit = SPAWN_ARGS_TOTAL - bytes < SPAWN_ARG_MAX ? SPAWN_ARGS_TOTAL - bytes
									  : SPAWN_ARG_MAX;
		uint64_t n = 0;
		for (;; n++) {
			if (n == limit)
				return ERR_TOOBIG;
			if (p + n < USER_MEM_BASE || p + n >= USER_MEM_BASE + MEM_SIZE || p + n < p)
				return ERR_FAULT;
			if (!mem[p + n - USER_MEM_BASE])
				break;
		}
		memcpy(out + bytes, mem + (p - USER_MEM_BASE), n + 1);
		bytes += (uint32_t)n + 1;
	}
	*out_bytes = bytes;
	return 0;
}

static void check_layout(struct fuzz *f, const struct uargs *a)
{
	static uint8_t img[8192];
	uint64_t top = 0x7fff0000ull - 16 * fuzz_below(f, 64), rsp, argv;
	memset(img, 0xa5, sizeof(img));
	if (uargs_layout(a, top, img, sizeof(img), &rsp, &argv))
		fuzz_fail(f, "layout of %u bytes refused", a->bytes);
	if (rsp % 16 || argv != rsp || top - rsp != uargs_stack_bytes(a) || top - rsp > sizeof(img))
		fuzz_fail(f, "rsp %llx for top %llx", (unsigned long long)rsp, (unsigned long long)top);
	const uint8_t *at = img + sizeof(img) - (top - rsp);
	uint32_t off = 0;
	for (uint32_t i = 0; i <= a->argc; i++) {
		uint64_t p;
		memcpy(&p, at + 8 * i, 8);
		if (i == a->argc) {
			if (p)
				fuzz_fail(f, "argv[argc] is not NULL");
			break;
		}
		if (p < rsp || p >= top || strcmp((const char *)img + sizeof(img) - (top - p), a->buf + off))
			fuzz_fail(f, "argv[%u] does not point at its string", i);
		off += (uint32_t)strlen(a->buf + off) + 1;
	}
	for (size_t i = 0; i < sizeof(img) - (top - rsp); i++)
		if (img[i] != 0xa5)
			fuzz_fail(f, "byte written %zu below rsp", sizeof(img) - (top - rsp) - i);
}

static void fuzz_one(struct fuzz *f)
{
	uint32_t argc = (uint32_t)fuzz_below(f, fuzz_below(f, 8) ? 6 : SPAWN_ARGC_MAX + 3);
	uint64_t uargv = USER_MEM_BASE + 8 * fuzz_below(f, 24);
	memset(mem, 0, sizeof(mem));
	/* Strings: random lengths, some at the limits, placed one after another. */
	uint64_t at = 0x100;
	for (uint32_t i = 0; i < argc && i < SPAWN_ARGC_MAX + 2; i++) {
		uint64_t len = fuzz_below(f, 4) ? fuzz_below(f, 40)
						: SPAWN_ARG_MAX - 2 + fuzz_below(f, 3);
		if (at + len + 1 > MEM_SIZE)
			at = 0x100;
		uint64_t p = USER_MEM_BASE + at;
		for (uint64_t k = 0; k < len; k++)
			mem[at + k] = (uint8_t)(1 + fuzz_below(f, 255));
		mem[at + len] = 0;
		at += len + 1;
		if (fuzz_below(f, 10) == 0)
			p = random_pointer(f);
		if (uargv - USER_MEM_BASE + 8 * i + 8 <= 0x100)
			memcpy(mem + (uargv - USER_MEM_BASE) + 8 * i, &p, 8);
	}
	if (fuzz_below(f, 8) == 0)
		uargv = random_pointer(f);
	if (fuzz_below(f, 8) == 0)   /* a string running into the end of the space */
		memset(mem + MEM_SIZE - 300, 'z', 300);

	struct user_mem um = { mem, sizeof(mem) };
	struct uargs_reader rd = { &um, user_mem_read, user_mem_read_str };
	static struct uargs a;
	static char want[SPAWN_ARGS_TOTAL];
	uint32_t want_bytes = 0;
	int rc = uargs_collect(&a, uargv, argc, &rd);
	int expect = model(uargv, argc, want, &want_bytes);
	if (rc != expect)
		fuzz_fail(f, "uargs_collect %d, the model %d (argc %u)", rc, expect, argc);
	if (rc)
		return;
	if (a.argc != argc || a.bytes != want_bytes || memcmp(a.buf, want, want_bytes))
		fuzz_fail(f, "collected strings differ from the model's");
	check_layout(f, &a);
}

FUZZ_MAIN("uargs")
