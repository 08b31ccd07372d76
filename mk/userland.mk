# SPDX-License-Identifier: BSD-2-Clause
# mk/userland.mk — the user programs and their boot archive
# build/userland.cpio (docs/userland.md): userland/lib/ is the C library
# (with the kernel's formatter and memory/string functions,
# kernel/lib/format.c and string.c, built again here), each
# userland/bin/NAME.c one static program linked by userland/user.ld; the
# archive holds them and userland/etc/*, and the loader loads it as a
# module. Built without SSE code like the kernel (a program may still use
# the registers: each user thread has its own, docs/userland.md). The
# programs' include root is the C library's userland/include/.

UCFLAGS := -std=gnu17 -O2 -g -ffreestanding -fno-stack-protector -fno-pic -fno-pie \
           -mgeneral-regs-only -fno-omit-frame-pointer -fno-asynchronous-unwind-tables \
           -fno-tree-loop-distribute-patterns -Wall -Wextra -Werror \
           -Iuserland/include -Iinclude -MMD -MP
ULDFLAGS := -nostdlib -static -z max-page-size=0x1000 -z noexecstack -T userland/user.ld
ULIB_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(sort $(wildcard userland/lib/*.c))) \
            $(BUILD)/userland/lib/format.o $(BUILD)/userland/lib/kstring.o
UPROGS   := $(patsubst userland/bin/%.c,$(BUILD)/userland/bin/%,$(sort $(wildcard userland/bin/*.c)))
UFILES   := $(sort $(wildcard userland/etc/*))

$(BUILD)/userland/%.o: userland/%.c
	@mkdir -p $(dir $@)
	gcc $(UCFLAGS) -c $< -o $@

# The C library is built partly from the kernel's kernel/lib/ (format.c,
# string.c), whose headers it names from the kernel tree's root
# (<lib/format.h>); the programs do not see kernel/.
$(BUILD)/userland/lib/%.o: UCFLAGS += -Ikernel
$(BUILD)/userland/lib/format.o: $(FORMAT_SRCS)
	@mkdir -p $(dir $@)
	gcc $(UCFLAGS) -c $< -o $@
$(BUILD)/userland/lib/kstring.o: kernel/lib/string.c
	@mkdir -p $(dir $@)
	gcc $(UCFLAGS) -c $< -o $@

$(BUILD)/userland/bin/%: $(BUILD)/userland/bin/%.o $(ULIB_OBJ) userland/user.ld
	ld $(ULDFLAGS) -o $@ $< $(ULIB_OBJ) $$(gcc -print-libgcc-file-name)

$(BUILD)/userland.cpio: $(UPROGS) $(UFILES) tools/make-archive.py
	tools/make-archive.py $@ $(UPROGS) $(UFILES)

# The objects stay (make would delete them as intermediates and relink).
.SECONDARY: $(ULIB_OBJ) $(UPROGS:%=%.o)
