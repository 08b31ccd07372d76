/* SPDX-License-Identifier: BSD-2-Clause */
/* uelf_rules.c — the program rules of the shared ELF checks (see uelf_rules.h). */
#include <user/uelf_rules.h>
#include <user/ulayout.h>

/* See uelf_rules.h. The strings repeat ulayout.h's numbers in words. */
const struct elf_rules elf_rules_program = {
	.lowest = USER_IMAGE_LOW,
	.limit = USER_IMAGE_LIMIT,
	.span_max = USER_IMAGE_SPAN,
	.what = "program",
	.region = "the program range 0x400000..0x40000000",
	.linked = "programs are linked at 0x400000 (userland/user.ld)",
	.beyond = "ends beyond 0x40000000, the end of the program range",
};
