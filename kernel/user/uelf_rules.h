/* SPDX-License-Identifier: BSD-2-Clause */
/* uelf_rules.h — where a user program may lie (the rules elf_check_rules()
 * applies to programs; boot/elf_check.h). Portable. */
#ifndef MOSAIC_USER_UELF_RULES_H
#define MOSAIC_USER_UELF_RULES_H
#include <boot/elf_check.h>

/* [USER_IMAGE_LOW, USER_IMAGE_LIMIT), span at most USER_IMAGE_SPAN. */
extern const struct elf_rules elf_rules_program;

#endif
