# SPDX-License-Identifier: BSD-2-Clause
# mk/images.mk — the boot images (docs/boot.md): the FAT image
# build/esp.img (QEMU) and the GRUB image build/mosaic.iso (CD, USB stick).

DEFAULT_CMDLINE :=
$(BUILD)/esp.img: $(BUILD)/BOOTX64.EFI $(BUILD)/kernel.elf $(BUILD)/userland.cpio tools/make-esp.sh
	tools/make-esp.sh $@ $(BUILD)/BOOTX64.EFI $(BUILD)/kernel.elf "$(DEFAULT_CMDLINE)" \
	  $(BUILD)/userland.cpio

$(BUILD)/mosaic.iso: $(BUILD)/esp.img iso/grub.cfg tools/make-iso.sh
	tools/make-iso.sh $@ $(BUILD)/esp.img iso/grub.cfg
