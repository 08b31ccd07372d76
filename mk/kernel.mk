# SPDX-License-Identifier: BSD-2-Clause
# mk/kernel.mk — build/kernel.elf: every kernel/**/*.c and *.asm, the
# console fonts, the version and the symbol table (docs/boot.md).
# Includes name their layer from the kernel tree's root (<sched/ule.h>,
# <arch/x86_64/smp/smp.h>) or the shared ABI's (<mosaic/boot_info.h>).

KCC      := gcc
KINC     := -Iinclude -Ikernel
KCFLAGS  := -std=gnu17 -O2 -g -ffreestanding -fno-stack-protector -fno-pic -fno-pie \
            -mno-red-zone -mgeneral-regs-only -mcmodel=kernel -fno-omit-frame-pointer \
            -fno-asynchronous-unwind-tables -fno-tree-loop-distribute-patterns -Wall -Wextra -Werror \
            $(KINC) -MMD -MP
NASMFLAGS := -f elf64 -g -F dwarf -w+all -w+error
KLDFLAGS := -nostdlib -static -z max-page-size=0x1000 -z noexecstack -T kernel/arch/x86_64/kernel.ld

KERNEL_C   := $(shell find kernel -name '*.c' | sort)
KERNEL_ASM := $(shell find kernel -name '*.asm' | sort)
KERNEL_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(KERNEL_C)) $(patsubst %.asm,$(BUILD)/%.asm.o,$(KERNEL_ASM)) \
              $(BUILD)/fonts.o $(BUILD)/version.o $(BUILD)/kernel/user/elf_check.o

# The program loader (kernel/user/) checks user ELF files with the boot
# loader's own portable checks (<boot/elf_check.h>, from the repository root).
$(BUILD)/kernel/user/%.o: KCFLAGS += -I.
$(BUILD)/kernel/user/elf_check.o: $(ELF_CHECK_SRCS)
	@mkdir -p $(dir $@)
	$(KCC) $(KCFLAGS) -c $< -o $@

$(BUILD)/kernel/%.o: kernel/%.c
	@mkdir -p $(dir $@)
	$(KCC) $(KCFLAGS) -c $< -o $@

$(BUILD)/kernel/%.asm.o: kernel/%.asm
	@mkdir -p $(dir $@)
	nasm $(NASMFLAGS) $< -o $@

# Version: rewritten only when `git describe` changes, so it is never stale
# and does not force rebuilds.
$(BUILD)/version.c: FORCE
	@mkdir -p $(BUILD)
	@printf 'const char mosaic_version[] = "%s";\nconst char mosaic_build_date[] = "%s";\n' \
	  "$(VERSION)" "$$(date -u +%Y-%m-%d)" > $@.tmp
	@if grep -qs '"$(VERSION)"' $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

$(BUILD)/version.o: $(BUILD)/version.c
	$(KCC) $(KCFLAGS) -c $< -o $@

FORCE:

# Console fonts: PSF fonts from Debian's console-setup-linux, linked in as
# blobs (font16: 8x16, font24: 12x24, font32: 16x32; fbcon.c picks one by
# the screen's height or font=).
FONT_DIR := /usr/share/consolefonts
$(BUILD)/fonts.o: $(FONT_DIR)/Lat15-Terminus16.psf.gz $(FONT_DIR)/Lat15-Terminus24x12.psf.gz \
                 $(FONT_DIR)/Lat15-Terminus32x16.psf.gz
	@mkdir -p $(BUILD)
	gzip -dc $(FONT_DIR)/Lat15-Terminus16.psf.gz > $(BUILD)/font16.psf
	gzip -dc $(FONT_DIR)/Lat15-Terminus24x12.psf.gz > $(BUILD)/font24.psf
	gzip -dc $(FONT_DIR)/Lat15-Terminus32x16.psf.gz > $(BUILD)/font32.psf
	cd $(BUILD) && for f in font16 font24 font32; do objcopy -I binary -O elf64-x86-64 -B i386:x86-64 \
	  --rename-section .data=.rodata,alloc,load,readonly,data,contents $$f.psf $$f.o || exit 1; done
	cd $(BUILD) && ld -r -o fonts.o font16.o font24.o font32.o

# Symbols: link once with an empty table, generate it, link again. The table
# lives in the last section, so code addresses are equal in both links.
$(BUILD)/kernel.pass1.elf: $(KERNEL_OBJ) $(BUILD)/ksyms_empty.o kernel/arch/x86_64/kernel.ld
	ld $(KLDFLAGS) -o $@ $(KERNEL_OBJ) $(BUILD)/ksyms_empty.o

$(BUILD)/ksyms_empty.o: tools/gen-ksyms.sh
	@mkdir -p $(BUILD)
	tools/gen-ksyms.sh /dev/null > $(BUILD)/ksyms_empty.asm
	nasm $(NASMFLAGS) $(BUILD)/ksyms_empty.asm -o $@

$(BUILD)/ksyms.o: $(BUILD)/kernel.pass1.elf tools/gen-ksyms.sh
	tools/gen-ksyms.sh $< > $(BUILD)/ksyms.asm
	nasm $(NASMFLAGS) $(BUILD)/ksyms.asm -o $@

$(BUILD)/kernel.elf: $(BUILD)/ksyms.o
	ld $(KLDFLAGS) -o $@ $(KERNEL_OBJ) $(BUILD)/ksyms.o
	tools/check-ksyms.sh $(BUILD)/kernel.pass1.elf $@
