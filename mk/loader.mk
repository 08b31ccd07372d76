# SPDX-License-Identifier: BSD-2-Clause
# mk/loader.mk — build/BOOTX64.EFI, the GNU-EFI loader (boot/, docs/boot.md).
# Its includes name boot/ from the repository root (<boot/loader.h>) and
# the shared ABI from include/ (<mosaic/boot_info.h>).

EFI_INC    := /usr/include/efi
EFI_CFLAGS := -std=gnu17 -O2 -fpic -fshort-wchar -fno-stack-protector -fno-strict-aliasing \
              -ffreestanding -mno-red-zone -maccumulate-outgoing-args -DGNU_EFI_USE_MS_ABI \
              -I$(EFI_INC) -I$(EFI_INC)/x86_64 -Iinclude -I. -Wall -Wextra -Werror -MMD -MP
EFI_LDFLAGS := -nostdlib -znocombreloc -shared -Bsymbolic -T /usr/lib/elf_x86_64_efi.lds
LOADER_C   := $(shell find boot -name '*.c' | sort)
LOADER_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(LOADER_C))

$(BUILD)/boot/%.o: boot/%.c
	@mkdir -p $(dir $@)
	gcc $(EFI_CFLAGS) -c $< -o $@

$(BUILD)/loader.so: $(LOADER_OBJ)
	ld $(EFI_LDFLAGS) /usr/lib/crt0-efi-x86_64.o $(LOADER_OBJ) -L/usr/lib -lefi -lgnuefi -o $@

$(BUILD)/BOOTX64.EFI: $(BUILD)/loader.so
	objcopy -j .text -j .sdata -j .data -j .rodata -j .dynamic -j .dynsym -j .rel -j .rela \
	  -j .rel.* -j .rela.* -j .reloc --target efi-app-x86_64 --subsystem=10 $< $@
